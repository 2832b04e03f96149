package io.fabemu.cluster.scenario;

import com.typesafe.config.ConfigList;
import com.typesafe.config.ConfigValue;
import io.fabemu.core.router.RouterSpec;
import io.fabemu.core.traffic.HotSpot;
import io.fabemu.core.traffic.LoadSweep;
import io.fabemu.core.traffic.NetworkShape;
import io.fabemu.core.traffic.TrafficPattern;
import io.fabemu.core.traffic.TrafficSpec;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The {@code traffic} section: synthetic traffic on a router network, read into a {@link TrafficSpec} that a
 * scenario runs instead of its workload (one emulation per offered load).
 *
 * <p>Contract: only a section the user wrote counts. Without one the draft's traffic stays null and the echo leaves
 * {@code traffic} out, so every scenario written before the section existed loads and echoes as it did. With one,
 * the keys the user left out take their defaults, and the checks run in this order: the section's own values
 * (pattern, packet-flits, the loads as {@code offered-loads} or as a {@code sweep}, never both, the phases, the
 * hot-spot keys, which exist only with {@code pattern = hot-spot} and have no default); then the topology, which
 * must be a router network (mesh, torus, group-ring); then the rules against that network: hot nodes are its nodes,
 * the pattern applies to its shape ({@link TrafficSpec#destinations}), a packet fits a router buffer where the
 * switching needs it to, the three phases fit the limit of every duration, and the measured packets fit the
 * statistics. The echo holds the section with its defaults filled in and the one load form used.
 */
final class TrafficSection implements ScenarioSection {
  private static final String PATH = "traffic";
  private static final String PATTERN = PATH + ".pattern";
  private static final String PACKET_FLITS = PATH + ".packet-flits";
  private static final String LOADS = PATH + ".offered-loads";
  private static final String SWEEP = PATH + ".sweep";
  private static final String HOT_SPOT = PATH + ".hot-spot";
  private static final String HOT_NODES = HOT_SPOT + ".nodes";
  private static final String HOT_FRACTION = HOT_SPOT + ".fraction";
  /** The phase keys in the order a run goes through them. */
  private static final List<String> PHASES = List.of(PATH + ".warmup-cycles", PATH + ".measure-cycles",
      PATH + ".drain-cycles");
  private static final String LOAD_UNIT = "flits per node per cycle";

  @Override
  public void read(ScenarioReader in, ScenarioDraft draft) {
    if (!in.writtenByUser(PATH)) {
      draft.echo(draft.echo().withoutPath(PATH));
      return;
    }
    TrafficPattern pattern = in.enumValue(PATTERN, TrafficPattern::fromConfigName,
        Arrays.stream(TrafficPattern.values()).map(TrafficPattern::configName).toList());
    int packetFlits = in.intValue(PACKET_FLITS, 1, ScenarioLoader.MAX_PACKET_FLITS);
    boolean listed = in.has(LOADS);
    if (listed && in.writtenByUser(SWEEP)) {
      throw in.error(LOADS, "give either offered-loads or sweep, not both");
    }
    List<Double> loads = listed ? readLoadList(in) : readSweep(in);
    long warmupCycles = in.longValue(PHASES.get(0), 0, ScenarioLoader.MAX_TRAFFIC_CYCLES);
    long measureCycles = in.longValue(PHASES.get(1), 1, ScenarioLoader.MAX_TRAFFIC_CYCLES);
    long drainCycles = in.longValue(PHASES.get(2), 0, ScenarioLoader.MAX_TRAFFIC_CYCLES);
    HotSpot hotSpot = readHotSpot(in, pattern);

    CheckedTopology topology = draft.topology();
    if (!topology.routerNetwork()) {
      throw in.error(PATH, "only used when topology.kind " + TopologySection.routerNetworkKinds() + " (this "
          + "topology is " + topology.spec().configName() + ", which has no routers to carry synthetic traffic)");
    }
    NetworkShape shape = topology.spec().networkShape().orElseThrow(() -> new IllegalStateException(
        "router network " + topology.spec().configName() + " has no network shape"));
    if (hotSpot != null) checkHotNodesInNetwork(in, shape);
    TrafficSpec spec = new TrafficSpec(pattern, hotSpot, packetFlits, loads, warmupCycles, measureCycles,
        drainCycles);
    int sending;
    try {
      sending = spec.destinations(shape).sendingNodeCount();
    } catch (IllegalArgumentException e) {
      throw in.error(PATTERN, withoutPrefix(e.getMessage(), "traffic pattern "));
    }
    if (sending == 0) {
      throw in.error(PATTERN, pattern.configName() + " sends nothing on " + shape.nodeCount() + " nodes (every node "
          + "is its own destination), so there is no traffic to measure");
    }
    RouterSpec router = draft.router();
    checkPacketFitsBuffer(in, router, packetFlits);
    checkPhasesFitVirtualTime(in, router, warmupCycles + measureCycles + drainCycles);
    checkMeasuredPackets(in, shape, packetFlits, loads.get(loads.size() - 1), measureCycles);
    draft.traffic(spec);
    // Echo the one load form used: the defaults' sweep is not the user's when offered-loads are.
    if (listed) draft.echo(draft.echo().withoutPath(SWEEP));
  }

  /** {@code offered-loads}: at least one, each in (0, 1], strictly increasing. */
  private static List<Double> readLoadList(ScenarioReader in) {
    ConfigList list = in.list(LOADS, "[0.1, 0.2, 0.3]");
    if (list.isEmpty()) throw in.error(LOADS, list, "must list at least one load");
    if (list.size() > ScenarioLoader.MAX_TRAFFIC_LOADS) {
      throw in.error(LOADS, list, "lists " + list.size() + " loads, above the limit of "
          + ScenarioLoader.MAX_TRAFFIC_LOADS + " (one emulation each)");
    }
    List<Double> loads = new ArrayList<>();
    for (int i = 0; i < list.size(); i++) {
      String itemPath = LOADS + "[" + i + "]";
      ConfigValue item = list.get(i);
      double load = load(in, itemPath, item);
      if (i > 0 && load <= loads.get(i - 1)) {
        throw in.error(itemPath, item, ScenarioReader.text(item) + " is not above the load before it ("
            + ScenarioReader.text(list.get(i - 1)) + "): offered loads must be strictly increasing");
      }
      loads.add(load);
    }
    return loads;
  }

  /** {@code sweep}: {@code points} loads evenly spaced from {@code from} to {@code to}; one point is {@code from}. */
  private static List<Double> readSweep(ScenarioReader in) {
    ConfigValue fromValue = in.value(SWEEP + ".from");
    ConfigValue toValue = in.value(SWEEP + ".to");
    double from = load(in, SWEEP + ".from", fromValue);
    double to = load(in, SWEEP + ".to", toValue);
    int points = in.intValue(SWEEP + ".points", 1, ScenarioLoader.MAX_TRAFFIC_LOADS);
    if (to < from) {
      throw in.error(SWEEP + ".to", toValue, ScenarioReader.text(toValue) + " is below from ("
          + ScenarioReader.text(fromValue) + ")");
    }
    if (points == 1) return List.of(from);
    if (to == from) {
      throw in.error(SWEEP + ".to", toValue, ScenarioReader.text(toValue) + " is not above from ("
          + ScenarioReader.text(fromValue) + "): a sweep of " + points + " points needs from < to (points = 1 "
          + "runs from alone)");
    }
    List<Double> loads = LoadSweep.evenlySpacedLoads(from, to, points);
    for (int i = 1; i < loads.size(); i++) {
      // Only when from and to are a few ulps apart: the steps round away.
      if (loads.get(i) <= loads.get(i - 1)) {
        throw in.error(SWEEP + ".points", points + " points from " + ScenarioReader.text(fromValue) + " to "
            + ScenarioReader.text(toValue) + " are too close together to be distinct loads");
      }
    }
    return loads;
  }

  /** An offered load: flits per node per cycle in (0, 1] (a node injects at most one flit per cycle). */
  private static double load(ScenarioReader in, String path, ConfigValue v) {
    double load = in.doubleOf(path, v);
    if (!(load > 0.0 && load <= 1.0)) {
      throw in.error(path, v, "must be in (0, 1] " + LOAD_UNIT + ", got " + ScenarioReader.text(v));
    }
    return load;
  }

  /**
   * {@code hot-spot}: with {@code pattern = hot-spot} its nodes (at least one, distinct, each 0 or more; checked
   * against the network later) and fraction in (0, 1], neither with a default; with any other pattern, no key.
   */
  private static HotSpot readHotSpot(ScenarioReader in, TrafficPattern pattern) {
    if (pattern != TrafficPattern.HOT_SPOT) {
      if (in.writtenByUser(HOT_SPOT)) {
        throw in.error(in.firstWrittenUnder(HOT_SPOT).orElse(HOT_SPOT), "only used when traffic.pattern = "
            + TrafficPattern.HOT_SPOT.configName() + " (pattern is " + pattern.configName() + ")");
      }
      return null;
    }
    if (!in.has(HOT_NODES)) {
      throw in.error(HOT_NODES, "missing: pattern hot-spot needs its hot nodes, e.g. hot-spot { nodes = [0, 5], "
          + "fraction = 0.25 } (no default)");
    }
    ConfigList list = in.list(HOT_NODES, "[0, 5]");
    if (list.isEmpty()) throw in.error(HOT_NODES, list, "must name at least one node");
    List<Integer> nodes = new ArrayList<>();
    Set<Integer> seen = new HashSet<>();
    for (int i = 0; i < list.size(); i++) {
      String itemPath = HOT_NODES + "[" + i + "]";
      int node = in.intOf(itemPath, list.get(i), 0, Integer.MAX_VALUE);
      if (!seen.add(node)) throw in.error(itemPath, list.get(i), node + " is listed twice");
      nodes.add(node);
    }
    if (!in.has(HOT_FRACTION)) {
      throw in.error(HOT_FRACTION, "missing: pattern hot-spot needs the fraction of packets sent to the hot nodes, "
          + "e.g. hot-spot { nodes = [0, 5], fraction = 0.25 } (no default)");
    }
    ConfigValue fractionValue = in.value(HOT_FRACTION);
    double fraction = in.doubleOf(HOT_FRACTION, fractionValue);
    if (!(fraction > 0.0 && fraction <= 1.0)) {
      throw in.error(HOT_FRACTION, fractionValue, "must be in (0, 1], got " + ScenarioReader.text(fractionValue));
    }
    return new HotSpot(nodes, fraction);
  }

  /** Every hot node is a node of the network (numbered as its hosts). */
  private static void checkHotNodesInNetwork(ScenarioReader in, NetworkShape shape) {
    ConfigList list = in.list(HOT_NODES, "[0, 5]");
    for (int i = 0; i < list.size(); i++) {
      String itemPath = HOT_NODES + "[" + i + "]";
      int node = in.intOf(itemPath, list.get(i), 0, Integer.MAX_VALUE);
      if (node >= shape.nodeCount()) {
        throw in.error(itemPath, list.get(i), node + " is not a node of the " + shape + " (nodes 0.."
            + (shape.nodeCount() - 1) + ")");
      }
    }
  }

  /**
   * Under virtual cut-through and store-and-forward a packet advances only into a buffer that takes all of it: a
   * longer packet could never leave its source.
   */
  private static void checkPacketFitsBuffer(ScenarioReader in, RouterSpec router, int packetFlits) {
    if (!router.switching().needsWholePacketSpace() || packetFlits <= router.bufferDepthFlits()) return;
    throw in.error(PACKET_FLITS, packetFlits + " flits is more than a buffer of " + flits(router.bufferDepthFlits())
        + " (devices.router.buffer-depth), which " + router.switching().configName() + " needs a packet to fit in "
        + "(lower packet-flits or raise buffer-depth)");
  }

  /** The whole run of one load, warm-up to the end of the drain, stays within every duration's limit. */
  private static void checkPhasesFitVirtualTime(ScenarioReader in, RouterSpec router, long totalCycles) {
    // At most 3 x 10^9 cycles: the sum fits a long; the product with a cycle of up to 10^12 ps may not.
    long maxCycles = ScenarioLoader.MAX_DURATION_PS / router.cyclePs();
    if (totalCycles <= maxCycles) return;
    // Reported at the longest phase: the one to shorten first.
    String longest = PHASES.get(0);
    for (String phase : PHASES) {
      if (in.longValue(phase, 0, Long.MAX_VALUE) > in.longValue(longest, 0, Long.MAX_VALUE)) longest = phase;
    }
    throw in.error(longest, "warmup-cycles + measure-cycles + drain-cycles = " + totalCycles + " cycles, above the "
        + "limit of " + maxCycles + " cycles at '" + ScenarioReader.text(in.value("devices.router.clock"))
        + "' (1 s: every duration is at most 1 s)");
  }

  /**
   * The latency of every measured packet is kept for the exact 99th percentile: at the highest offered load the
   * measurement window must create at most {@link ScenarioLoader#MAX_MEASURED_PACKETS} of them (on average).
   */
  private static void checkMeasuredPackets(ScenarioReader in, NetworkShape shape, int packetFlits, double highestLoad,
                                           long measureCycles) {
    double expectedPackets = (double) shape.nodeCount() * measureCycles * highestLoad / packetFlits;
    if (expectedPackets <= ScenarioLoader.MAX_MEASURED_PACKETS) return;
    throw in.error(PHASES.get(1), measureCycles + " cycles at the highest offered load (" + highestLoad + " "
        + LOAD_UNIT + ") on " + shape.nodeCount() + " nodes create about " + Math.round(expectedPackets)
        + " measured packets of " + flits(packetFlits) + ", above the limit of " + ScenarioLoader.MAX_MEASURED_PACKETS
        + " (the latency of each is kept for the exact p99)");
  }

  private static String flits(int count) {
    return count + (count == 1 ? " flit" : " flits");
  }

  private static String withoutPrefix(String message, String prefix) {
    return message != null && message.startsWith(prefix) ? message.substring(prefix.length()) : message;
  }
}
