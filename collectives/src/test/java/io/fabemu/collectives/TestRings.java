package io.fabemu.collectives;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;

/**
 * Ring embeddings for tests, over ranks that need no fabric: seeded random permutation rings (ring 0, its reverse,
 * then more), with every hop at one rate and one link, or with unequal rates and link counts so that the rings'
 * fragments differ. Shared with node-actors' tests through the test jar.
 */
public final class TestRings {
  /** The rate of every hop of {@link #uniform}: 100 Gb/s. */
  public static final long RATE_BPS = 100_000_000_000L;

  private TestRings() {}

  /** A seeded random permutation of {@code 0..p-1}. */
  public static int[] randomRing(int p, Random random) {
    int[] ring = new int[p];
    for (int i = 0; i < p; i++) ring[i] = i;
    for (int i = p - 1; i > 0; i--) {
      int j = random.nextInt(i + 1);
      int t = ring[i];
      ring[i] = ring[j];
      ring[j] = t;
    }
    return ring;
  }

  /** {@code ring} travelled the other way round. */
  public static int[] reversed(int[] ring) {
    int[] out = new int[ring.length];
    for (int i = 0; i < ring.length; i++) out[i] = ring[ring.length - 1 - i];
    return out;
  }

  /** {@code rings} with every hop at {@link #RATE_BPS} over one link. */
  public static EmbeddedRings uniform(List<int[]> rings) {
    return uniform(rings, 0);
  }

  /** {@link #uniform(List)} whose line algorithms stream {@code lineFragments} fragments (0: one per rank). */
  public static EmbeddedRings uniform(List<int[]> rings, int lineFragments) {
    List<long[]> rates = new ArrayList<>();
    List<int[]> links = new ArrayList<>();
    for (int[] ring : rings) {
      long[] rate = new long[ring.length];
      Arrays.fill(rate, RATE_BPS);
      int[] link = new int[ring.length];
      Arrays.fill(link, 1);
      rates.add(rate);
      links.add(link);
    }
    return new EmbeddedRings(rings, rates, links, lineFragments);
  }

  /**
   * Ring 0 random, ring 1 its reverse, then {@code extra} more random rings, all at one rate over one link (rings
   * that happen to share a hop share its link).
   */
  public static EmbeddedRings withReverse(int p, int extra, long seed) {
    Random random = new Random(seed);
    List<int[]> rings = new ArrayList<>();
    int[] first = randomRing(p, random);
    rings.add(first);
    rings.add(reversed(first));
    for (int i = 0; i < extra; i++) rings.add(randomRing(p, random));
    return uniform(rings);
  }

  /**
   * Ring 0 random, then ring 0 again, its reverse and two more random rings, with hop rates of 25, 50 or 100 Gb/s
   * and 1 to 3 links per hop, so the rings' bandwidths (and so their fragments) are unequal, and ring 0 and its copy
   * share every hop.
   */
  public static EmbeddedRings unequal(int p, long seed) {
    Random random = new Random(seed);
    List<int[]> rings = new ArrayList<>();
    int[] first = randomRing(p, random);
    rings.add(first);
    rings.add(first.clone());
    rings.add(reversed(first));
    rings.add(randomRing(p, random));
    rings.add(randomRing(p, random));
    List<long[]> rates = new ArrayList<>();
    List<int[]> links = new ArrayList<>();
    long[] choices = {25_000_000_000L, 50_000_000_000L, RATE_BPS};
    for (int r = 0; r < rings.size(); r++) {
      long[] rate = new long[p];
      int[] link = new int[p];
      for (int j = 0; j < p; j++) {
        rate[j] = choices[random.nextInt(choices.length)];
        link[j] = 1 + random.nextInt(3);
      }
      // The copy of ring 0 runs over the same links, so it has the same figures.
      rates.add(r == 1 ? rates.get(0).clone() : rate);
      links.add(r == 1 ? links.get(0).clone() : link);
    }
    return new EmbeddedRings(rings, rates, links);
  }

  /** Only {@code rings} (no grid). */
  public static RankLayout layout(EmbeddedRings rings) {
    return new RankLayout(null, rings);
  }
}
