package io.fabemu.cluster.scenario;

import com.typesafe.config.ConfigList;
import com.typesafe.config.ConfigValue;
import com.typesafe.config.ConfigValueType;
import io.fabemu.collectives.Algorithm;
import io.fabemu.collectives.EmbeddedRings;
import io.fabemu.collectives.WorkloadSpec;
import io.fabemu.core.rings.RingEmbedding;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The {@code rings} section: the directed rings the embedded-ring algorithms run on (docs/prism.md), resolved into
 * a {@link RingEmbedding} when the scenario is read, so a run never starts on rings that cannot be used.
 *
 * <p>Contract: the rings are resolved when the workload runs an embedded-ring algorithm or the user wrote the
 * section; otherwise the draft has none and the echo leaves {@code rings} out, so scenarios written before the
 * section existed load and echo as they did. Those algorithms need one rank per node ({@code ppn = 1}) and no
 * hierarchical mode. A listed ring is a list of host indices or host names; a ring that misses or repeats a host, or
 * hops where no link is, is refused naming the ring; rings that share links load, with a warning per shared hop.
 */
final class RingsSection implements ScenarioSection {
  private static final String PATH = "rings";
  private static final String LISTED = PATH + ".listed";
  /** Most search steps: about a minute of searching. */
  static final long MAX_SEARCH_STEPS = 1_000_000_000L;
  /** Most rings the search looks for ({@code max-rings}). */
  static final int MAX_RINGS = 1024;

  @Override
  public void read(ScenarioReader in, ScenarioDraft draft) {
    WorkloadSpec workload = draft.workload();
    // Checked whether or not a traffic section runs instead of the workload: the workload's rules do not lapse.
    Algorithm needing = null;
    for (Algorithm a : workload.algorithms()) {
      if (a.onEmbeddedRings()) needing = needing == null ? a : needing;
    }
    if (needing == null && !in.writtenByUser(PATH)) {
      draft.echo(draft.echo().withoutPath(PATH));
      return;
    }
    if (needing != null && workload.ppn() != 1) {
      throw in.error("workload.ppn", needing.configName() + " runs one rank per node on the embedded rings; set "
          + "ppn = 1");
    }
    if (needing != null && workload.hierarchical()) {
      throw in.error("workload.hierarchical", needing.configName() + " runs on every rank; set hierarchical = false");
    }
    CheckedTopology topology = draft.topology();
    ConfigValue sourceValue = in.value(PATH + ".source");
    RingEmbedding.Source source = RingEmbedding.Source.fromConfigName(ScenarioReader.text(sourceValue).strip());
    if (source == null) {
      throw in.error(PATH + ".source", sourceValue, "'" + ScenarioReader.text(sourceValue) + "' is not one of auto, "
          + "face-rule, search, listed");
    }
    List<List<Integer>> listed = listed(in, topology);
    if (source != RingEmbedding.Source.LISTED && !listed.isEmpty()) {
      throw in.error(LISTED, "lists rings, but source is " + source.configName()
          + " (set source = listed to use them)");
    }
    long steps = in.longValue(PATH + ".search-steps", 1, MAX_SEARCH_STEPS);
    int maxRings = in.intValue(PATH + ".max-rings", 0, MAX_RINGS);
    RingEmbedding rings;
    try {
      rings = RingEmbedding.resolve(topology.spec(), topology.topology(), source, listed, steps, maxRings);
    } catch (IllegalArgumentException e) {
      throw blame(in, source, needing, e.getMessage());
    }
    if (workload.algorithms().contains(Algorithm.MULTI_RING)) checkLanes(in, rings, source, needing);
    int lineFragments = in.intValue(PATH + ".line-fragments", 0, EmbeddedRings.MAX_LINE_FRAGMENTS);
    draft.rings(rings.withLineFragments(lineFragments));
  }

  /**
   * The error for rings that cannot be used: at the listed rings, at the source the user wrote, or else at the
   * algorithm that needs rings (so a defaulted source still gives the user a line to look at).
   */
  private static ScenarioException blame(ScenarioReader in, RingEmbedding.Source source, Algorithm needing,
                                         String reason) {
    if (source == RingEmbedding.Source.LISTED) {
      return in.error(in.writtenByUser(LISTED) ? LISTED : PATH + ".source", reason);
    }
    if (in.writtenByUser(PATH + ".source")) return in.error(PATH + ".source", reason);
    if (needing == null) {
      // Nothing needs the rings and the source is the default: point at what the user did write in the section.
      return in.error(in.firstWrittenUnder(PATH).orElse(PATH), reason);
    }
    return in.error("workload.algorithms", needing.configName() + " runs on embedded rings (rings.source = "
        + source.configName() + "), but " + reason);
  }

  /** The listed rings as host indices; each entry a host index or a host name. */
  private static List<List<Integer>> listed(ScenarioReader in, CheckedTopology topology) {
    ConfigList rings = in.list(LISTED, "[[0, 1, 4, 3], [3, 4, 1, 0]]");
    List<List<Integer>> out = new ArrayList<>();
    int hosts = topology.topology().hostCount();
    for (int r = 0; r < rings.size(); r++) {
      String ringPath = LISTED + "[" + r + "]";
      ConfigValue ringValue = rings.get(r);
      if (!(ringValue instanceof ConfigList ring)) {
        throw in.error(ringPath, ringValue, "expected a ring: a list of hosts such as [0, 1, 4, 3], got "
            + ScenarioReader.describe(ringValue));
      }
      List<Integer> hostsOfRing = new ArrayList<>();
      for (int i = 0; i < ring.size(); i++) {
        ConfigValue item = ring.get(i);
        String itemPath = ringPath + "[" + i + "]";
        int host;
        if (item.valueType() == ConfigValueType.NUMBER) {
          host = in.intOf(itemPath, item, 0, hosts - 1);
        } else if (item.valueType() == ConfigValueType.STRING) {
          String name = ((String) item.unwrapped()).strip();
          int vertex = topology.vertex(name);
          if (vertex < 0 || !topology.isHost(vertex)) {
            throw in.error(itemPath, item, "'" + name + "' is not a host of this topology (" + topology.hostNames()
                + ")");
          }
          host = vertex;
        } else {
          throw in.error(itemPath, item, "expected a host index or name, got " + ScenarioReader.describe(item));
        }
        hostsOfRing.add(host);
      }
      out.add(hostsOfRing);
    }
    return out;
  }

  /**
   * Rings that share a hop take lanes there, at most {@link EmbeddedRings#MAX_RINGS_PER_HOP}; only the multi-ring
   * algorithm runs more than two rings at once, so only it is checked.
   */
  private static void checkLanes(ScenarioReader in, RingEmbedding rings, RingEmbedding.Source source,
                                 Algorithm needing) {
    int n = rings.rings().get(0).size();
    Map<Long, Integer> users = new HashMap<>();
    for (List<Integer> ring : rings.rings()) {
      for (int i = 0; i < n; i++) {
        long arc = (long) ring.get(i) * n + ring.get((i + 1) % n);
        if (users.merge(arc, 1, Integer::sum) > EmbeddedRings.MAX_RINGS_PER_HOP) {
          throw blame(in, source, needing, "more than " + EmbeddedRings.MAX_RINGS_PER_HOP
              + " rings use the hop host " + ring.get(i) + " -> host " + ring.get((i + 1) % n) + "; rings sharing a"
              + " hop are told apart by 4 tag bits");
        }
      }
    }
  }
}
