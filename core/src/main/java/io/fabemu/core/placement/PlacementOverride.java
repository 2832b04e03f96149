package io.fabemu.core.placement;

import io.fabemu.core.topology.Topology;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * A scenario's {@code cluster.placement}: the placement groups each member hosts, named by their devices, laid over
 * the automatic {@link PlacementPlan}.
 *
 * <p>Contract: member m gets every placement group ({@link PlacementGroups}: a TOR with its hosts, a grid node, a
 * host, a spine) of which one of its entries names a device. An entry is a vertex name of the topology as reports
 * name it ({@code tor0}, {@code host3}, {@code spine1}, {@code router5}, {@code switch2}), or a glob in which
 * {@code *} stands for any run of characters ({@code "tor*"}, {@code "host1*"}); a compute node goes with its host.
 * Groups no entry names are placed afterwards, in group order, each on the member with the fewest devices so far
 * (ties to the lowest id). {@link #resolve} refuses an entry that names nothing, a group named on two members and a
 * member without entries, each as a {@link Problem} naming the entry's key path.
 *
 * @param members per member, its entries as written (at least one member)
 * @param file    the scenario file (or option) that wrote the key, for messages
 * @param line    the line of the key in {@code file}; 0 when unknown. Neither counts in {@link #equals}: a scenario
 *                and its echo (written elsewhere) have equal overrides
 */
public record PlacementOverride(List<List<String>> members, String file, int line) {
  /** The key path of the override in a scenario. */
  public static final String KEY = "cluster.placement";
  /** Most glob entries: each is matched against every vertex name. */
  public static final int MAX_GLOBS = 256;

  public PlacementOverride {
    if (members.isEmpty()) throw new IllegalArgumentException(KEY + ": at least one member");
    members = members.stream().map(List::copyOf).toList();
  }

  /** Two overrides are equal when they list the same entries: where they were written is for messages only. */
  @Override
  public boolean equals(Object other) {
    return other instanceof PlacementOverride o && o.members.equals(members);
  }

  @Override
  public int hashCode() {
    return members.hashCode();
  }

  /** Members the override lists. */
  public int memberCount() {
    return members.size();
  }

  /** A problem with one entry (or one member's list, {@code entry == -1}) of an override. */
  public static final class Problem extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;
    private final int member;
    private final int entry;
    private final String reason;

    Problem(int member, int entry, String reason) {
      super(keyPath(member, entry) + ": " + reason);
      this.member = member;
      this.entry = entry;
      this.reason = reason;
    }

    public int member() {
      return member;
    }

    /** The entry's index in its member's list; -1 when the problem is the list itself. */
    public int entry() {
      return entry;
    }

    /** The key path: {@code cluster.placement[1][2]}, or {@code cluster.placement[1]}. */
    public String keyPath() {
      return keyPath(member, entry);
    }

    public String reason() {
      return reason;
    }

    private static String keyPath(int member, int entry) {
      return KEY + "[" + member + "]" + (entry < 0 ? "" : "[" + entry + "]");
    }
  }

  /**
   * Checks every entry against {@code topology}, as {@link PlacementPlan#compute} on {@link #memberCount} members
   * would.
   *
   * @throws Problem at the first entry that names nothing or a group another member has, or the first empty member
   */
  public void check(Topology topology) {
    resolve(topology, PlacementGroups.of(topology));
  }

  /**
   * The member of every group that an entry names, -1 for the others.
   *
   * @throws Problem see {@link #check}
   */
  int[] resolve(Topology topology, PlacementGroups groups) {
    Map<String, Integer> vertexByName = new HashMap<>();
    for (int v = 0; v < topology.vertexCount(); v++) vertexByName.put(topology.vertexName(v), v);
    int[] memberOfGroup = new int[groups.count()];
    Arrays.fill(memberOfGroup, -1);
    // Which entry first named each group: member * 2^31 + entry, for messages.
    long[] namedBy = new long[groups.count()];
    int globs = 0;
    for (int m = 0; m < members.size(); m++) {
      List<String> entries = members.get(m);
      if (entries.isEmpty()) {
        throw new Problem(m, -1, "member " + m + " lists no device; every member needs one (or list fewer members)");
      }
      for (int e = 0; e < entries.size(); e++) {
        String entry = entries.get(e);
        List<Integer> vertices = new ArrayList<>();
        if (entry.indexOf('*') < 0) {
          Integer v = vertexByName.get(entry);
          if (v != null) vertices.add(v);
        } else {
          if (++globs > MAX_GLOBS) {
            throw new Problem(m, e, "more than " + MAX_GLOBS + " globs; name devices or use fewer, wider globs");
          }
          Pattern glob = glob(entry);
          for (int v = 0; v < topology.vertexCount(); v++) {
            if (glob.matcher(topology.vertexName(v)).matches()) vertices.add(v);
          }
        }
        if (vertices.isEmpty()) {
          throw new Problem(m, e, "'" + entry + "' names no device of " + topology.description() + " (devices are "
              + "named as reports name them, e.g. " + examples(topology) + "; '*' matches any characters)");
        }
        for (int v : vertices) {
          int g = groups.groupOf(v);
          if (memberOfGroup[g] < 0) {
            memberOfGroup[g] = m;
            namedBy[g] = ((long) m << 31) | e;
          } else if (memberOfGroup[g] != m) {
            int firstMember = (int) (namedBy[g] >>> 31);
            int firstEntry = (int) (namedBy[g] & Integer.MAX_VALUE);
            throw new Problem(m, e, "'" + entry + "' names " + topology.vertexName(v) + ", whose placement group ("
                + describe(topology, groups, g) + ") member " + firstMember + " already has ("
                + Problem.keyPath(firstMember, firstEntry) + " '" + members.get(firstMember).get(firstEntry)
                + "'); a group is never split");
          }
        }
      }
    }
    return memberOfGroup;
  }

  /** {@code *} as any run of characters, everything else literally. */
  private static Pattern glob(String entry) {
    String[] parts = entry.split("\\*", -1);
    StringBuilder regex = new StringBuilder();
    for (int i = 0; i < parts.length; i++) {
      if (i > 0) regex.append(".*");
      regex.append(Pattern.quote(parts[i]));
    }
    return Pattern.compile(regex.toString(), Pattern.DOTALL);
  }

  /** A group for messages: its head, and how many devices it holds. */
  private static String describe(Topology topology, PlacementGroups groups, int group) {
    int devices = groups.devices(group);
    return topology.vertexName(groups.head(group)) + (devices == 1 ? "" : " and its " + (devices - 1)
        + " other device" + (devices == 2 ? "" : "s"));
  }

  /** The first host's name and, where there are switches, the first switch's. */
  private static String examples(Topology topology) {
    String first = topology.vertexName(0);
    return topology.vertexCount() > topology.hostCount()
        ? first + ", " + topology.vertexName(topology.hostCount()) : first;
  }
}
