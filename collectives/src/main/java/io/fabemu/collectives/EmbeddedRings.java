package io.fabemu.collectives;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Directed rings embedded in the fabric over the world's ranks (one rank per node), for the ring algorithms of the
 * ring patent: each ring visits every rank once, each hop over a link that joins
 * its two nodes. The fabric builds it from the scenario's ring embedding (the prism's face rule, a search, or the
 * user's list) and the links under each hop; the algorithms take the subsets they run on ({@link #forAlgorithm}).
 *
 * <p>Lanes. Rings of a subset that share a hop {@code u -> v} take different lanes there (the first ring 0, the
 * next 1, ...), carried in their tags ({@link Tags}'s index), so where parallel links join {@code u} and {@code v}
 * each ring has a link of its own (the NIC picks the lane-th equal-cost port); where more rings than links share
 * the hop, lanes wrap onto the same links, which then carry several rings.
 *
 * <p>Shares. Each ring of a subset gets a share of the vector in proportion to its bandwidth: the least, over its
 * hops, of the hop's link rate divided by the rings of the subset whose lanes put them on the same link as this
 * ring (1 where the hop has a link per ring).
 *
 * <p>Immutable.
 */
public final class EmbeddedRings {
  /** Most rings of one subset that may share a hop: lanes are a tag's 4 index bits. */
  public static final int MAX_RINGS_PER_HOP = 16;

  /** Most fragments the streaming line may cut a vector into: its schedule has a step per fragment. */
  public static final int MAX_LINE_FRAGMENTS = 65_536;

  private final int[][] rings;
  private final long[][] hopBitsPerSecond;
  private final int[][] hopLinks;
  private final int lineFragments;
  /** The subsets, computed once: every rank of a member builds its schedules from the same embedding. */
  private final Map<Algorithm, List<Ring>> subsets = new ConcurrentHashMap<>();

  /**
   * @param rings            directed rings, each a permutation of the ranks {@code 0..p-1}
   * @param hopBitsPerSecond per ring, the link rate of each hop {@code rings[r][j] -> rings[r][j+1 mod p]}
   * @param hopLinks         per ring, how many parallel links join each hop's two ranks
   * @throws IllegalArgumentException when there is no ring, a ring is not a permutation of the same ranks, or a
   *                                  hop's figures are missing or not positive
   */
  public EmbeddedRings(List<int[]> rings, List<long[]> hopBitsPerSecond, List<int[]> hopLinks) {
    this(rings, hopBitsPerSecond, hopLinks, 0);
  }

  /**
   * As {@link #EmbeddedRings(List, List, List)}, with the streaming line's fragment count.
   *
   * @param lineFragments fragments the line algorithms stream a vector in; 0 for one per rank (a ring's chunk size)
   * @throws IllegalArgumentException also when {@code lineFragments} is negative or above
   *                                  {@link #MAX_LINE_FRAGMENTS}
   */
  public EmbeddedRings(List<int[]> rings, List<long[]> hopBitsPerSecond, List<int[]> hopLinks, int lineFragments) {
    if (lineFragments < 0 || lineFragments > MAX_LINE_FRAGMENTS) {
      throw new IllegalArgumentException("line fragments must be in 0.." + MAX_LINE_FRAGMENTS + ", got "
          + lineFragments);
    }
    this.lineFragments = lineFragments;
    if (rings.isEmpty()) throw new IllegalArgumentException("an embedding needs at least one ring");
    if (hopBitsPerSecond.size() != rings.size() || hopLinks.size() != rings.size()) {
      throw new IllegalArgumentException("one list of hop figures per ring");
    }
    int p = rings.get(0).length;
    this.rings = new int[rings.size()][];
    this.hopBitsPerSecond = new long[rings.size()][];
    this.hopLinks = new int[rings.size()][];
    for (int r = 0; r < rings.size(); r++) {
      int[] ring = rings.get(r);
      boolean[] seen = new boolean[p];
      if (ring.length != p) {
        throw new IllegalArgumentException("ring " + r + " has " + ring.length + " ranks, not " + p);
      }
      for (int rank : ring) {
        if (rank < 0 || rank >= p || seen[rank]) {
          throw new IllegalArgumentException("ring " + r + " is not a permutation of ranks 0.." + (p - 1));
        }
        seen[rank] = true;
      }
      long[] rates = hopBitsPerSecond.get(r);
      int[] links = hopLinks.get(r);
      if (rates.length != p || links.length != p) {
        throw new IllegalArgumentException("ring " + r + " needs " + p + " hop figures");
      }
      for (int j = 0; j < p; j++) {
        if (rates[j] <= 0 || links[j] <= 0) {
          throw new IllegalArgumentException("ring " + r + " hop " + j + " has no positive rate and link count");
        }
      }
      this.rings[r] = ring.clone();
      this.hopBitsPerSecond[r] = rates.clone();
      this.hopLinks[r] = links.clone();
    }
  }

  /** Ranks on each ring. */
  public int rankCount() {
    return rings[0].length;
  }

  /** Rings in the embedding. */
  public int ringCount() {
    return rings.length;
  }

  /** Ring {@code r}'s ranks in order (a copy). */
  public int[] ring(int r) {
    return rings[r].clone();
  }

  /**
   * The rings {@code algorithm} runs on: every ring for {@link Algorithm#MULTI_RING}; ring 0 for
   * {@link Algorithm#SINGLE_RING}, {@link Algorithm#LINE} and {@link Algorithm#LINE_BOTH_ENDS} (the line is ring 0
   * without its closing hop); ring 0 and ring 0 reversed for {@link Algorithm#BIDIRECTIONAL_RING}.
   */
  public List<Ring> forAlgorithm(Algorithm algorithm) {
    return subsets.computeIfAbsent(algorithm, this::subset);
  }

  /** Fragments the line algorithms stream a vector in: the configured count, or one per rank. */
  public int lineFragments() {
    return lineFragments == 0 ? rankCount() : lineFragments;
  }

  private List<Ring> subset(Algorithm algorithm) {
    List<Integer> chosen = new ArrayList<>();
    List<Boolean> reversed = new ArrayList<>();
    switch (algorithm) {
      case MULTI_RING -> {
        for (int r = 0; r < rings.length; r++) {
          chosen.add(r);
          reversed.add(false);
        }
      }
      case SINGLE_RING, LINE, LINE_BOTH_ENDS -> {
        chosen.add(0);
        reversed.add(false);
      }
      case BIDIRECTIONAL_RING -> {
        chosen.add(0);
        reversed.add(false);
        chosen.add(0);
        reversed.add(true);
      }
      default -> throw new IllegalArgumentException(algorithm.configName() + " runs on no embedded ring");
    }
    int p = rankCount();
    List<int[]> orders = new ArrayList<>();
    List<long[]> rates = new ArrayList<>();
    List<int[]> links = new ArrayList<>();
    for (int i = 0; i < chosen.size(); i++) {
      int r = chosen.get(i);
      int[] order = rings[r].clone();
      long[] rate = hopBitsPerSecond[r].clone();
      int[] link = hopLinks[r].clone();
      if (reversed.get(i)) {
        // Reversed, hop j runs order[j] -> order[j+1] of the reversed order, the link of hop p-2-j forward; the
        // full-duplex link has the same rate and count both ways.
        for (int j = 0; j < p; j++) order[j] = rings[r][p - 1 - j];
        for (int j = 0; j < p; j++) {
          int forwardHop = Math.floorMod(p - 2 - j, p);
          rate[j] = hopBitsPerSecond[r][forwardHop];
          link[j] = hopLinks[r][forwardHop];
        }
      }
      orders.add(order);
      rates.add(rate);
      links.add(link);
    }
    Map<Long, Integer> users = new HashMap<>();
    for (int[] order : orders) {
      for (int j = 0; j < p; j++) users.merge(arc(order[j], order[(j + 1) % p]), 1, Integer::sum);
    }
    Map<Long, Integer> nextLane = new HashMap<>();
    List<Ring> out = new ArrayList<>();
    for (int i = 0; i < orders.size(); i++) {
      int[] order = orders.get(i);
      int[] lanes = new int[p];
      double bitsPerSecond = Double.MAX_VALUE;
      for (int j = 0; j < p; j++) {
        long a = arc(order[j], order[(j + 1) % p]);
        int lane = nextLane.merge(a, 1, Integer::sum) - 1;
        if (lane >= MAX_RINGS_PER_HOP) {
          throw new IllegalArgumentException("more than " + MAX_RINGS_PER_HOP + " rings share the hop " + order[j]
              + " -> " + order[(j + 1) % p]);
        }
        lanes[j] = lane;
        // Lane l takes the (l mod links)-th port after the flow's own, so the rings on this ring's port are the
        // lanes l' < users with l' = l (mod links): it gets that share of the link.
        int hopLinks = links.get(i)[j];
        int ringsOnPort = (users.get(a) - 1 - lane % hopLinks) / hopLinks + 1;
        bitsPerSecond = Math.min(bitsPerSecond, (double) rates.get(i)[j] / ringsOnPort);
      }
      out.add(new Ring(order, lanes, bitsPerSecond));
    }
    return List.copyOf(out);
  }

  private long arc(int from, int to) {
    return (long) from * rankCount() + to;
  }

  /**
   * One directed ring of a subset.
   *
   * @param order         ranks in ring order
   * @param lanes         the lane of hop {@code order[j] -> order[j+1 mod p]}
   * @param bitsPerSecond the ring's bandwidth in the subset (its slowest hop, shared links counted)
   *                      <p>A subset's rings are shared by every rank that builds a schedule from it: never write
   *                      their arrays.
   */
  public record Ring(int[] order, int[] lanes, double bitsPerSecond) {
    /** {@code rank}'s place on the ring. */
    public int positionOf(int rank) {
      for (int j = 0; j < order.length; j++) {
        if (order[j] == rank) return j;
      }
      throw new IllegalArgumentException("rank " + rank + " is not on ring " + Arrays.toString(order));
    }
  }

  /**
   * {@code count} elements cut into one fragment per ring in proportion to the rings' bandwidths: fragment i has
   * {@code floor(count * w_i / W)} elements, and the elements left over go one each to the first rings.
   *
   * @return the fragments' counts, in ring order
   */
  public static int[] fragmentCounts(List<Ring> rings, int count) {
    double total = 0;
    for (Ring ring : rings) total += ring.bitsPerSecond();
    int[] counts = new int[rings.size()];
    long given = 0;
    for (int i = 0; i < counts.length; i++) {
      counts[i] = (int) Math.floor(count * (rings.get(i).bitsPerSecond() / total));
      given += counts[i];
    }
    // Rounding can only leave elements over (the floors), never take one too many; the guard keeps it so.
    for (int i = counts.length - 1; given > count; i = (i + counts.length - 1) % counts.length) {
      if (counts[i] > 0) {
        counts[i]--;
        given--;
      }
    }
    for (int i = 0; given < count; i = (i + 1) % counts.length, given++) counts[i]++;
    return counts;
  }
}
