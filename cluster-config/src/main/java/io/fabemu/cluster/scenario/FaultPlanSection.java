package io.fabemu.cluster.scenario;

import com.typesafe.config.ConfigList;
import com.typesafe.config.ConfigObject;
import com.typesafe.config.ConfigValue;
import com.typesafe.config.ConfigValueType;
import io.fabemu.core.fault.FaultAction;
import io.fabemu.core.fault.FaultEvent;
import io.fabemu.core.fault.FaultPlan;
import io.fabemu.core.fault.FaultSettings;
import io.fabemu.core.protocol.DirectedLink;
import io.fabemu.core.topology.Topology;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;

/**
 * The fault plan in {@code faults}: how failures are noticed ({@code detection}), repaired around
 * ({@code management}) and recovered from ({@code transport}), and the {@code events}, read into a {@link FaultPlan}.
 *
 * <p>Contract: every event is an object with {@code at}, {@code action}, exactly one target ({@code link},
 * {@code switch}, {@code node} or {@code links-of}, each only with the actions that take it) and the action's
 * parameters, no others; it is resolved against the built topology into the {@link FaultEvent}s it stands for (a
 * flap into its downs and ups, at most {@link ScenarioLoader#MAX_FAULT_EVENTS} in all). Then the downs and ups of
 * each target are replayed in time order, ties in the order given: an up of a target that is not down then, or a
 * down of one that is, is refused at the event. On a router network a node target stands for the node's router (its
 * NIC's only cable), degrade and lossy are refused (its channels move flits by credits), and the routers need twice
 * the virtual-channel classes of the network's routing (one set per detour leg). Events are refused, for now, with
 * synthetic traffic. A problem with an event as a whole is reported at the line where the event starts, one with a
 * value at the value's line.
 *
 * <p>{@code at} is a duration (virtual time from the start) or an object placing the event in a case,
 * {@code { case = N, iteration = K, offset = D }} ({@link CaseAnchor}: cases numbered from 0 as the results number
 * them, iteration optional, offset optional and 0 by default). A plan with such events is left to
 * {@link CaseTimedFaultsSection}, which resolves them to times once every section has read its part, then replays
 * the plan and sets it.
 */
final class FaultPlanSection implements ScenarioSection {
  /** The events' key path. */
  static final String EVENTS = "faults.events";

  private static final String EXAMPLE = "{ at = 40 us, action = down, switch = \"spine0\" }";
  private static final List<String> TARGET_KEYS = List.of("link", "switch", "node", "links-of");
  /** The device classes of {@code links-of}, as {@link #inClass} reads them. */
  private static final List<String> LINK_CLASSES = List.of("tor", "spine", "host", "switch", "all");

  /** What an event does, as the scenario names it, and the parameters it takes. */
  private enum Action {
    DOWN("down", FaultAction.DOWN),
    UP("up", FaultAction.UP),
    FLAP("flap", null, "period", "down-for", "count"),
    DEGRADE("degrade", FaultAction.DEGRADE, "bandwidth", "latency"),
    LOSSY("lossy", FaultAction.LOSSY, "drop", "corrupt"),
    STRAGGLER("straggler", FaultAction.STRAGGLER, "slowdown");

    final String configName;
    /** The plan's action; null for a flap, which is downs and ups. */
    final FaultAction fault;
    final List<String> parameters;

    Action(String configName, FaultAction fault, String... parameters) {
      this.configName = configName;
      this.fault = fault;
      this.parameters = List.of(parameters);
    }

    static Action fromConfigName(String name) {
      return Arrays.stream(values()).filter(a -> a.configName.equals(name)).findFirst().orElse(null);
    }

    /** Whether a {@code links-of} target fits: only actions on links, not on whole devices. */
    boolean onLinksOnly() {
      return this == DEGRADE || this == LOSSY;
    }
  }

  private static final List<String> ACTION_NAMES = Arrays.stream(Action.values()).map(a -> a.configName).toList();
  /** Every key an event may have, whatever its action, in the order messages list them. */
  private static final List<String> KNOWN_KEYS = Stream.concat(Stream.concat(Stream.of("at", "action"),
      TARGET_KEYS.stream()), Arrays.stream(Action.values()).flatMap(a -> a.parameters.stream())).toList();

  /**
   * A resolved target.
   *
   * @param name     the target as reports name it: {@code link tor0-spine1}, {@code switch spine0},
   *                 {@code node host3}, {@code links of tor}
   * @param vertex   the device of a switch or node target; -1 otherwise
   * @param downVertex the device that goes down or up for a switch or node target (on a router network, a node's
   *                 router, which cuts the node off); -1 otherwise
   * @param a        one end of a link target; -1 otherwise
   * @param b        the other end of a link target; -1 otherwise
   * @param outgoing the links a degrade or a loss applies to: both directions of a cable, a device's outgoing links
   */
  private record Target(String name, int vertex, int downVertex, int a, int b, List<DirectedLink> outgoing) {

    /** The same target however it is written: a cable by its two ends in either order, a device as it goes down. */
    String identity() {
      return downVertex >= 0 ? "device " + downVertex : "cable " + Math.min(a, b) + "-" + Math.max(a, b);
    }
  }

  /**
   * One plan event and where it was written, for the replay's messages.
   *
   * @param anchor where in a case the event is placed ({@code at = { case = ... }}), its {@code event}'s time then
   *               being the time from that point; null for an event at a time from the start
   */
  record Placed(FaultEvent event, String path, ConfigValue item, String targetIdentity, CaseAnchor anchor) {

    /** The same event at {@code atPs} from the start, no longer placed in a case. */
    Placed resolvedAt(long atPs) {
      return new Placed(event.at(atPs), path, item, targetIdentity, null);
    }
  }

  @Override
  public void read(ScenarioReader in, ScenarioDraft draft) {
    FaultSettings settings = FaultSettingsReader.read(in);
    ConfigList list = in.list(EVENTS, "[" + EXAMPLE + "]");
    if (!list.isEmpty()) refuseUnsupported(in, draft, list);
    List<Placed> placed = new ArrayList<>();
    for (int i = 0; i < list.size(); i++) {
      placed.addAll(readEvent(in, draft, EVENTS + "[" + i + "]", list.get(i), placed.size()));
    }
    if (placed.stream().anyMatch(p -> p.anchor() != null)) {
      draft.caseFaults(new CaseTimedFaultsSection.Pending(settings, placed));
      return;
    }
    replay(in, placed);
    draft.faults(new FaultPlan(settings, placed.stream().map(Placed::event).toList()));
  }

  /** The fabrics whose devices do not handle failures yet. */
  private static void refuseUnsupported(ScenarioReader in, ScenarioDraft draft, ConfigList list) {
    if (draft.traffic() != null) {
      throw in.error(EVENTS, list, "faults with synthetic traffic are not supported yet (this scenario writes a "
          + "traffic section)");
    }
    if (draft.topology().spec().ocs().setsUpDuringRun()) {
      throw in.error(EVENTS, list, "faults with an OCS reconfiguration delay are not supported yet (set "
          + "topology.ocs.reconfiguration-delay = 0 ms)");
    }
    if (draft.topology().routerNetwork()) {
      // Detours take a class set per leg (DetourRouting): twice the classes the network's own routing needs.
      // From the kind, not the built topology: a refusal of a very large network costs no build.
      int legClasses = draft.topology().routerVcClasses();
      int virtualChannels = draft.router().virtualChannels();
      if (virtualChannels % (2 * legClasses) != 0) {
        throw in.error(EVENTS, list, "faults on a " + draft.topology().spec().configName() + " need "
            + "devices.router.virtual-channels to be a multiple of " + 2 * legClasses + " (detours through via "
            + "nodes take " + legClasses + " class" + (legClasses == 1 ? "" : "es") + " per leg), got "
            + virtualChannels);
      }
    }
  }

  /** The plan events of item {@code path}; {@code before} events came before it. */
  private static List<Placed> readEvent(ScenarioReader in, ScenarioDraft draft, String path, ConfigValue item,
                                        int before) {
    CheckedTopology topology = draft.topology();
    if (!(item instanceof ConfigObject event)) {
      throw in.itemError(path, item, "expected an event such as " + EXAMPLE + ", got " + ScenarioReader.describe(item));
    }
    List<String> keys = keysInOrder(event);
    refuseUnknownKeys(in, path, event, KNOWN_KEYS);
    ConfigValue actionValue = event.get("action");
    if (actionValue == null) {
      throw in.itemError(path, item, "missing action (one of " + String.join(", ", ACTION_NAMES) + ")");
    }
    Action action = in.enumOf(path + ".action", actionValue, Action::fromConfigName, ACTION_NAMES);
    ConfigValue atValue = required(in, path, event, "at", "when it happens, e.g. at = 40 us");
    CaseAnchor anchor = atValue instanceof ConfigObject at ? CaseAnchor.read(in, path + ".at", at, draft.workload())
        : null;
    // An event placed in a case is read at its offset from the case's start, which CaseTimedFaultsSection adds.
    long atPs = anchor != null ? anchor.offsetPs() : in.durationOf(path + ".at", atValue, false);
    Target target = target(in, topology, path, event, keys, action);
    if (topology.routerNetwork() && action.onLinksOnly()) {
      throw in.error(path + ".action", actionValue, action.configName + " is not supported on a router network (its "
          + "channels move flits by credits; use down, up, flap or straggler)");
    }
    for (String key : keys) {
      if (key.equals("at") || key.equals("action") || TARGET_KEYS.contains(key) || action.parameters.contains(key)) {
        continue;
      }
      String takes = action.parameters.isEmpty() ? action.configName + " takes no parameters"
          : action.configName + " takes " + String.join(", ", action.parameters);
      throw in.error(path + "." + key, event.get(key), "not a parameter of " + action.configName + " (" + takes
          + ")");
    }
    if (action != Action.FLAP && before + 1 > ScenarioLoader.MAX_FAULT_EVENTS) {
      throw in.itemError(path, item, "one event more than the limit of " + ScenarioLoader.MAX_FAULT_EVENTS
          + " (each flap counts as its downs and ups)");
    }
    List<FaultEvent> events = switch (action) {
      case DOWN, UP -> List.of(downOrUp(atPs, action.fault, target, topology));
      case FLAP -> flap(in, topology, path, event, atPs, target, before);
      case DEGRADE -> List.of(degrade(in, path, event, atPs, target));
      case LOSSY -> List.of(lossy(in, path, event, atPs, target));
      case STRAGGLER -> List.of(FaultEvent.straggler(atPs, target.name(), target.vertex(),
          slowdown(in, path, event)));
    };
    List<Placed> placed = new ArrayList<>(events.size());
    for (FaultEvent e : events) placed.add(new Placed(e, path, item, target.identity(), anchor));
    return placed;
  }

  /** The event's keys in the order written (by line, then name): the first problem is the first written. */
  private static List<String> keysInOrder(ConfigObject event) {
    List<String> keys = new ArrayList<>(event.keySet());
    keys.sort(Comparator.<String>comparingInt(k -> event.get(k).origin().lineNumber()).thenComparing(k -> k));
    return keys;
  }

  /** Refuses the first key of {@code object} (in the order written) that is not one of {@code known}, at its line. */
  static void refuseUnknownKeys(ScenarioReader in, String path, ConfigObject object, List<String> known) {
    for (String key : keysInOrder(object)) {
      if (!known.contains(key)) {
        String hint = Suggestions.closest(key, known).map(k -> " (did you mean '" + k + "'?)")
            .orElse(" (known keys here: " + String.join(", ", known) + ")");
        throw in.error(path + "." + key, object.get(key), "unknown key" + hint);
      }
    }
  }

  private static ConfigValue required(ScenarioReader in, String path, ConfigObject event, String key, String what) {
    ConfigValue v = event.get(key);
    if (v == null) throw in.itemError(path, event, "missing " + key + ": " + what);
    return v;
  }

  /** The value of {@code key}; null when the event leaves it out (or writes null). */
  private static ConfigValue optional(ConfigObject event, String key) {
    ConfigValue v = event.get(key);
    return v == null || v.valueType() == ConfigValueType.NULL ? null : v;
  }

  /** A cable, switch or node going down or up. */
  private static FaultEvent downOrUp(long atPs, FaultAction action, Target target, CheckedTopology topology) {
    return target.downVertex() >= 0
        ? FaultEvent.device(atPs, action, target.name(), target.downVertex(), topology.topology())
        : FaultEvent.link(atPs, action, target.name(), target.a(), target.b());
  }

  /** A flap: {@code count} downs every {@code period} from {@code at}, each up again after {@code down-for}. */
  private static List<FaultEvent> flap(ScenarioReader in, CheckedTopology topology, String path, ConfigObject event,
                                       long atPs, Target target, int before) {
    String what = "a flap needs period, down-for and count, e.g. period = 20 us, down-for = 5 us, count = 3";
    ConfigValue periodValue = required(in, path, event, "period", what);
    long periodPs = in.durationOf(path + ".period", periodValue, true);
    ConfigValue downForValue = required(in, path, event, "down-for", what);
    long downForPs = in.durationOf(path + ".down-for", downForValue, true);
    ConfigValue countValue = required(in, path, event, "count", what);
    int count = in.intOf(path + ".count", countValue, 1, ScenarioLoader.MAX_FAULT_EVENTS / 2);
    if (downForPs >= periodPs) {
      throw in.error(path + ".down-for", downForValue, "'" + ScenarioReader.text(downForValue) + "' is not shorter "
          + "than the period ('" + ScenarioReader.text(periodValue) + "'): a flapping target is up again within "
          + "each period");
    }
    // At most 5000 periods of at most 1 s: inside a long.
    long lastUpPs = atPs + (count - 1) * periodPs + downForPs;
    if (lastUpPs > ScenarioLoader.MAX_DURATION_PS) {
      throw in.error(path + ".count", countValue, count + " flaps every " + Quantities.formatDuration(periodPs)
          + " from " + Quantities.formatDuration(atPs) + " end at " + Quantities.formatDuration(lastUpPs) + ", past "
          + "the limit of 1 s (every time is at most 1 s)");
    }
    if (before + 2L * count > ScenarioLoader.MAX_FAULT_EVENTS) {
      throw in.error(path + ".count", countValue, count + " flaps are " + 2 * count + " events, " + (before
          + 2 * count) + " with the events before, above the limit of " + ScenarioLoader.MAX_FAULT_EVENTS);
    }
    return FaultPlan.flap(downOrUp(atPs, FaultAction.DOWN, target, topology),
        downOrUp(atPs, FaultAction.UP, target, topology), periodPs, downForPs, count);
  }

  /** A degrade: the links' rate ({@code bandwidth}; 0 or left out: their own) and added {@code latency}. */
  private static FaultEvent degrade(ScenarioReader in, String path, ConfigObject event, long atPs, Target target) {
    ConfigValue bandwidth = optional(event, "bandwidth");
    ConfigValue latency = optional(event, "latency");
    long bandwidthBitsPerSecond = bandwidth == null ? 0 : in.rateOf(path + ".bandwidth", bandwidth, false);
    long extraLatencyPs = latency == null ? 0 : in.durationOf(path + ".latency", latency, false);
    return FaultEvent.degrade(atPs, target.name(), target.outgoing(), bandwidthBitsPerSecond, extraLatencyPs);
  }

  /** A lossy event: its drop and corrupt probabilities, which one draw per packet splits, so below 1 together. */
  private static FaultEvent lossy(ScenarioReader in, String path, ConfigObject event, long atPs, Target target) {
    double drop = probability(in, path + ".drop", optional(event, "drop"));
    ConfigValue corruptValue = optional(event, "corrupt");
    double corrupt = probability(in, path + ".corrupt", corruptValue);
    if (drop + corrupt >= 1.0) {
      throw in.error(path + ".corrupt", corruptValue, "drop (" + drop + ") and corrupt (" + corrupt + ") add up to "
          + "1 or more: a packet is lost or corrupted, not both, so they must add up to less than 1");
    }
    return FaultEvent.lossy(atPs, target.name(), target.outgoing(), drop, corrupt);
  }

  /** A probability in [0, 1); 0 when left out. */
  private static double probability(ScenarioReader in, String path, ConfigValue v) {
    if (v == null) return 0.0;
    double p = in.doubleOf(path, v);
    if (!(p >= 0.0 && p < 1.0)) {
      throw in.error(path, v, "expected a probability in [0, 1), got " + ScenarioReader.text(v));
    }
    return p;
  }

  private static double slowdown(ScenarioReader in, String path, ConfigObject event) {
    ConfigValue v = required(in, path, event, "slowdown", "how many times slower the node gets, e.g. slowdown = 2");
    double slowdown = in.doubleOf(path + ".slowdown", v);
    if (!(slowdown >= 1.0)) {
      throw in.error(path + ".slowdown", v, "must be at least 1 (1 is the node's own speed), got "
          + ScenarioReader.text(v));
    }
    if (slowdown > ScenarioLoader.MAX_STRAGGLER_SLOWDOWN) {
      throw in.error(path + ".slowdown", v, ScenarioReader.text(v) + " is above the limit of "
          + (long) ScenarioLoader.MAX_STRAGGLER_SLOWDOWN);
    }
    return slowdown;
  }

  // ------------------------------------------------------------------------------ targets

  /** The event's one target, checked against its action. */
  private static Target target(ScenarioReader in, CheckedTopology topology, String path, ConfigObject event,
                               List<String> keys, Action action) {
    String key = null;
    for (String k : keys) {
      if (!TARGET_KEYS.contains(k)) continue;
      if (key != null) {
        throw in.error(path + "." + k, event.get(k), "one target per event, but " + key + " and " + k + " are both "
            + "given");
      }
      key = k;
    }
    if (key == null) {
      throw in.itemError(path, event, "missing target: give one of " + String.join(", ", TARGET_KEYS) + ", e.g. "
          + "switch = \"spine0\"");
    }
    String valuePath = path + "." + key;
    ConfigValue v = event.get(key);
    if (action == Action.STRAGGLER && !key.equals("node")) {
      throw in.error(valuePath, v, "straggler takes a node target (node = \"host3\"), not " + key);
    }
    if (key.equals("links-of") && !action.onLinksOnly()) {
      throw in.error(valuePath, v, action.configName + " takes a link, switch or node target; links-of is only for "
          + "degrade and lossy");
    }
    return switch (key) {
      case "link" -> link(in, topology, valuePath, v);
      case "switch" -> device(in, topology, valuePath, v, false);
      case "node" -> device(in, topology, valuePath, v, true);
      default -> linksOf(in, topology, valuePath, v);
    };
  }

  /** {@code link = "tor0-spine1"} or {@code link = ["tor0", "spine1"]}: a cable of the topology. */
  private static Target link(ScenarioReader in, CheckedTopology topology, String path, ConfigValue v) {
    String example = "expected a cable such as \"tor0-spine1\" or [\"tor0\", \"spine1\"], got ";
    String[] ends;
    if (v instanceof ConfigList list) {
      if (list.size() != 2 || list.stream().anyMatch(e -> e.valueType() != ConfigValueType.STRING)) {
        throw in.error(path, v, example + ScenarioReader.describe(v));
      }
      ends = new String[] {ScenarioReader.text(list.get(0)), ScenarioReader.text(list.get(1))};
    } else if (v.valueType() == ConfigValueType.STRING) {
      ends = splitCable(topology, ScenarioReader.text(v));
      if (ends == null) throw in.error(path, v, example + ScenarioReader.describe(v));
    } else {
      throw in.error(path, v, example + ScenarioReader.describe(v));
    }
    int a = vertex(in, topology, path, v, ends[0]);
    int b = vertex(in, topology, path, v, ends[1]);
    if (a == b || !topology.linked(a, b)) {
      throw in.error(path, v, "there is no cable between " + ends[0] + " and " + ends[1]);
    }
    return new Target("link " + ends[0] + "-" + ends[1], -1, -1, a, b,
        List.of(new DirectedLink(a, b), new DirectedLink(b, a)));
  }

  /**
   * The two device names of {@code "tor0-spine1"}: split at the {@code -} that leaves two devices of the topology
   * (names may hold a {@code -} themselves), else at the first one so that the message names the unknown device;
   * null without a {@code -}.
   */
  private static String[] splitCable(CheckedTopology topology, String text) {
    for (int i = text.indexOf('-'); i >= 0; i = text.indexOf('-', i + 1)) {
      String left = text.substring(0, i).strip();
      String right = text.substring(i + 1).strip();
      if (topology.vertex(left) >= 0 && topology.vertex(right) >= 0) return new String[] {left, right};
    }
    int dash = text.indexOf('-');
    if (dash <= 0 || dash == text.length() - 1) return null;
    return new String[] {text.substring(0, dash).strip(), text.substring(dash + 1).strip()};
  }

  /** {@code switch = "spine0"} or {@code node = "host3"}: a device of that kind. */
  private static Target device(ScenarioReader in, CheckedTopology topology, String path, ConfigValue v,
                               boolean host) {
    if (v.valueType() != ConfigValueType.STRING) {
      throw in.error(path, v, "expected a device name such as " + (host ? "\"host3\"" : "\"spine0\"") + ", got "
          + ScenarioReader.describe(v));
    }
    String name = ScenarioReader.text(v);
    int vertex = vertex(in, topology, path, v, name);
    if (topology.isHost(vertex) != host) {
      throw in.error(path, v, host ? "'" + name + "' is a switch, not a node (use switch = \"" + name + "\")"
          : "'" + name + "' is a node, not a switch (use node = \"" + name + "\")");
    }
    // A router network's node is cut off with its router (its NIC's only cable), which its neighbours notice.
    int downVertex = host && topology.routerNetwork() ? topology.topology().hostCount() + vertex : vertex;
    return new Target((host ? "node " : "switch ") + name, vertex, downVertex, -1, -1,
        outgoing(topology.topology(), vertex));
  }

  /** {@code links-of = tor}: the outgoing links of every device of a class. */
  private static Target linksOf(ScenarioReader in, CheckedTopology topology, String path, ConfigValue v) {
    String deviceClass = in.enumOf(path, v, c -> LINK_CLASSES.contains(c) ? c : null, LINK_CLASSES);
    Topology graph = topology.topology();
    Set<DirectedLink> links = new LinkedHashSet<>();
    for (int vertex = 0; vertex < graph.vertexCount(); vertex++) {
      if (inClass(graph, vertex, deviceClass)) links.addAll(outgoing(graph, vertex));
    }
    if (links.isEmpty()) {
      throw in.error(path, v, "this " + topology.spec().configName() + " has no " + deviceClass + " devices (tor: "
          + "switches with hosts cabled to them, spine: switches without)");
    }
    return new Target("links of " + deviceClass, -1, -1, -1, -1, List.copyOf(links));
  }

  /** Whether {@code vertex} is of {@code deviceClass}: tor, spine, host, switch or all. */
  private static boolean inClass(Topology graph, int vertex, String deviceClass) {
    boolean host = graph.isHost(vertex);
    return switch (deviceClass) {
      case "host" -> host;
      case "switch" -> !host;
      case "tor" -> !host && cabledToHost(graph, vertex);
      case "spine" -> !host && !cabledToHost(graph, vertex);
      default -> true;
    };
  }

  private static boolean cabledToHost(Topology graph, int vertex) {
    return graph.ports(vertex).stream().anyMatch(link -> graph.isHost(link.to()));
  }

  /** Every link out of {@code vertex}, in port order (one per neighbour). */
  private static List<DirectedLink> outgoing(Topology graph, int vertex) {
    Set<DirectedLink> links = new LinkedHashSet<>();
    for (Topology.Link link : graph.ports(vertex)) links.add(new DirectedLink(vertex, link.to()));
    return List.copyOf(links);
  }

  private static int vertex(ScenarioReader in, CheckedTopology topology, String path, ConfigValue v, String name) {
    int vertex = topology.vertex(name);
    if (vertex < 0) {
      throw in.error(path, v, "'" + name + "' is not a device of this topology (" + topology.switchNames() + ", "
          + topology.hostNames() + ")");
    }
    return vertex;
  }

  // ------------------------------------------------------------------------------ replay

  /**
   * Replays the downs and ups of each target in time order (ties in the order given, as the plan orders them): a
   * target goes down only when it is up, and up only when it is down.
   */
  static void replay(ScenarioReader in, List<Placed> placed) {
    List<Placed> inTime = new ArrayList<>(placed);
    inTime.sort(Comparator.comparingLong(p -> p.event().atPs())); // stable: ties keep the order given
    Map<String, FaultEvent> downSince = new HashMap<>();
    for (Placed p : inTime) {
      FaultEvent e = p.event();
      if (!e.action().detectable()) continue;
      String what = e.action().configName() + " of " + e.target() + " at " + Quantities.formatDuration(e.atPs());
      FaultEvent down = downSince.get(p.targetIdentity());
      if (e.action() == FaultAction.DOWN) {
        if (down != null) {
          throw in.itemError(p.path(), p.item(), what + ": it is down already (" + down.target() + " went down at "
              + Quantities.formatDuration(down.atPs()) + ")");
        }
        downSince.put(p.targetIdentity(), e);
      } else {
        if (down == null) throw in.itemError(p.path(), p.item(), what + ": it is not down then");
        downSince.remove(p.targetIdentity());
      }
    }
  }
}
