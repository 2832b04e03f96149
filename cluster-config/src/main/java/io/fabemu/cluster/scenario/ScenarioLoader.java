package io.fabemu.cluster.scenario;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigException;
import com.typesafe.config.ConfigFactory;
import com.typesafe.config.ConfigList;
import com.typesafe.config.ConfigObject;
import com.typesafe.config.ConfigOrigin;
import com.typesafe.config.ConfigParseOptions;
import com.typesafe.config.ConfigRenderOptions;
import com.typesafe.config.ConfigSyntax;
import com.typesafe.config.ConfigUtil;
import com.typesafe.config.ConfigValue;
import com.typesafe.config.ConfigValueFactory;
import com.typesafe.config.ConfigValueType;
import io.fabemu.collectives.Algorithm;
import io.fabemu.collectives.Collective;
import io.fabemu.collectives.IncLayout;
import io.fabemu.collectives.IncMode;
import io.fabemu.collectives.Schedules;
import io.fabemu.collectives.WorkloadSpec;
import io.fabemu.core.data.DataType;
import io.fabemu.core.data.ReduceOp;
import io.fabemu.core.link.ForwardingMode;
import io.fabemu.core.link.PacketDropSpec;
import io.fabemu.core.topology.LinkSpec;
import io.fabemu.core.topology.TopologySpec.TopologyKind;
import io.fabemu.core.topology.TopologySpec;
import io.fabemu.fabric.DeviceSpec;
import io.fabemu.fabric.IncSpec;
import io.fabemu.fabric.ScenarioSpec;
import io.fabemu.nic.IncNicSpec;
import io.fabemu.nic.NicSpec;
import io.fabemu.node.HostSpec;
import io.fabemu.switching.SwitchSpec;
import io.fabemu.switching.inc.IncSwitchSpec;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * Reads a scenario file (HOCON) into a checked, immutable {@link ScenarioSpec}.
 *
 * <p>Contract: the user's file is laid over the bundled {@value #DEFAULTS_RESOURCE} and resolved; then every key is
 * checked against the schema (the keys of the defaults plus {@code name}, {@code workload.sizes},
 * {@code workload.min-size} and {@code workload.max-size}) and every value for type, unit and range, and the
 * cross-field rules are applied (see docs/scenario-format.md). The first problem found (unknown keys first, in file
 * order; then values, section by section) is thrown as a {@link ScenarioException} whose one-line message names the
 * file, the line where known, the key path and the reason. Nothing here touches the network or runs anything; loading the same text twice gives equal results.
 *
 * <p>Limits: every value is capped (the {@code MAX_*} constants below) so that a scenario either fits the emulator
 * or is refused here, on one line naming the key and the limit; none runs out of memory while building the fabric
 * or overflows virtual time (a {@code long} of picoseconds) with a silently wrong result.
 */
public final class ScenarioLoader {

  /** Class-path resource with the default of every key. */
  public static final String DEFAULTS_RESOURCE = "fabemu-scenario-defaults.conf";
  /** Largest message per rank: keeps a rank's element count well inside an {@code int} array. */
  public static final long MAX_SIZE_BYTES = 1L << 30;
  /** {@code max-size} when neither size form is given (osu_allreduce's default). */
  public static final long DEFAULT_MAX_SIZE_BYTES = 1L << 20;
  /** Most hosts (compute nodes) of any topology. */
  public static final int MAX_HOSTS = 1 << 20;
  /** Most hosts of a full mesh, whose cables grow as hosts squared (2,096,128 cables at this limit). */
  public static final int MAX_FULL_MESH_HOSTS = 2048;
  /** Most spines of a leaf-spine. */
  public static final int MAX_SPINES = 4096;
  /** Most TOR-spine cables of a leaf-spine (TORs x spines). */
  public static final long MAX_TOR_SPINE_CABLES = 1L << 22;
  /** Most processes (ranks) per host. */
  public static final int MAX_PPN = 4096;
  /** Most ranks (hosts x ppn) of a run. */
  public static final int MAX_RANKS = 1 << 22;
  /** Most header bytes per packet. */
  public static final long MAX_HEADER_BYTES = 64L << 10;
  /** Most wire bytes per packet: segment-size + header-bytes. */
  public static final long MAX_PACKET_BYTES = 1L << 30;
  /** Longest duration of any key, 1 s: sums of delays stay far from the end of a {@code long} of picoseconds. */
  public static final long MAX_DURATION_PS = 1_000_000_000_000L;
  /** Fastest rate of any key, 10 Tbps. */
  public static final long MAX_RATE_BITS_PER_SECOND = 10_000_000_000_000L;
  /** Most CPU sockets per host. */
  public static final int MAX_SOCKETS = 64;

  private static final Config DEFAULTS = loadDefaults();
  /** Every key a scenario may hold: the defaults plus the keys without a default. */
  private static final Config SCHEMA = DEFAULTS
      .withValue("name", ConfigValueFactory.fromAnyRef(""))
      .withValue("workload.sizes", ConfigValueFactory.fromIterable(List.of()))
      .withValue("workload.min-size", ConfigValueFactory.fromAnyRef(""))
      .withValue("workload.max-size", ConfigValueFactory.fromAnyRef(""));

  /** Values of {@code workload.payload}, in the order messages list them. */
  private static final List<String> PAYLOAD_NAMES = List.of("real", "synthetic");

  private static final List<String> LEAF_SPINE_ONLY_KEYS =
      List.of("hosts-per-tor", "spines", "host-link", "spine-link");

  private ScenarioLoader() {}

  /**
   * Loads and checks the scenario in {@code file}; its path as given names it in messages.
   *
   * @throws ScenarioException when the file cannot be read or the scenario is not valid
   */
  public static LoadedScenario load(Path file) {
    return load(file, ConfigFactory.empty());
  }

  /**
   * Loads {@code file} with {@code overrides} laid over it (a command's options, e.g. {@code fabemu osu-allreduce}
   * sets the workload and the host count over a profile). The overrides' origin description names them in
   * messages about their values.
   *
   * @throws ScenarioException when the file cannot be read or the result is not a valid scenario
   */
  public static LoadedScenario load(Path file, Config overrides) {
    String source = file.toString();
    if (!Files.exists(file)) {
      throw new ScenarioException(source, 0, null, "no such file");
    }
    if (Files.isDirectory(file)) {
      throw new ScenarioException(source, 0, null, "is a directory, not a scenario file");
    }
    if (!Files.isReadable(file)) {
      throw new ScenarioException(source, 0, null, "cannot be read (permission denied)");
    }
    Config user;
    try {
      user = ConfigFactory.parseFile(file.toFile(), parseOptions(source).setAllowMissing(false));
    } catch (ConfigException e) {
      throw fromHocon(source, e);
    }
    return check(overrides.withFallback(user), source);
  }

  /**
   * Checks a scenario given as text; {@code sourceName} (usually a file name) names it in messages and gives the
   * default {@code name}.
   *
   * @throws ScenarioException when the scenario is not valid
   */
  public static LoadedScenario parse(String text, String sourceName) {
    Config user;
    try {
      user = ConfigFactory.parseString(text, parseOptions(sourceName));
    } catch (ConfigException e) {
      throw fromHocon(sourceName, e);
    }
    return check(user, sourceName);
  }

  /** The bundled defaults, resolved: what a scenario that sets no key at all gets (name and sizes aside). */
  public static Config defaults() {
    return DEFAULTS;
  }

  private static ConfigParseOptions parseOptions(String source) {
    return ConfigParseOptions.defaults().setSyntax(ConfigSyntax.CONF).setOriginDescription(source);
  }

  private static Config loadDefaults() {
    Config defaults = ConfigFactory.parseResources(ScenarioLoader.class.getClassLoader(), DEFAULTS_RESOURCE,
        ConfigParseOptions.defaults().setAllowMissing(false));
    return defaults.resolve();
  }

  private static LoadedScenario check(Config user, String source) {
    Config merged;
    try {
      merged = user.withFallback(DEFAULTS).resolve();
    } catch (ConfigException e) {
      throw fromHocon(source, e);
    }
    Checker checker = new Checker(source, user, merged);
    checker.checkKeys(merged.root(), SCHEMA.root(), List.of());
    return checker.read();
  }

  /** Turns an exception of the HOCON library (syntax, substitution, include) into our one-line form. */
  private static ScenarioException fromHocon(String source, ConfigException e) {
    ConfigOrigin origin = e.origin();
    String message = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
    String file = source;
    int line = 0;
    if (origin != null) {
      String prefix = origin.description() + ": ";
      if (message.startsWith(prefix)) message = message.substring(prefix.length());
      line = origin.lineNumber();
      // An included file: name it rather than the scenario.
      if (origin.filename() != null && !Path.of(origin.filename()).normalize().equals(Path.of(source).normalize())) {
        file = origin.filename();
      }
    }
    String kind = e instanceof ConfigException.Parse && !(e instanceof ConfigException.UnresolvedSubstitution)
        ? "HOCON syntax error: " : "";
    return new ScenarioException(file, line, null, kind + message);
  }

  /** Reads and checks one merged scenario; holds the file name and user tree for messages. */
  private static final class Checker {
    private final String source;
    private final Config user;
    private final Config merged;

    Checker(String source, Config user, Config merged) {
      this.source = source;
      this.user = user;
      this.merged = merged;
    }

    // ---------------------------------------------------------------- schema walk

    void checkKeys(ConfigObject actual, ConfigObject schema, List<String> prefix) {
      // File order: the user's lines (merged objects blend the origins of file and defaults).
      List<String> keys = new ArrayList<>(actual.keySet());
      keys.sort(Comparator.<String>comparingInt(k -> {
        int line = lineInUserTree(ConfigUtil.joinPath(append(prefix, k)));
        return line > 0 ? line : Integer.MAX_VALUE;
      }).thenComparing(k -> k));
      for (String key : keys) {
        List<String> pathElements = new ArrayList<>(prefix);
        pathElements.add(key);
        String path = ConfigUtil.joinPath(pathElements);
        ConfigValue expected = schema.get(key);
        ConfigValue value = actual.get(key);
        if (expected == null) {
          throw error(path, value, "unknown key" + unknownKeyHint(key, schema, prefix));
        }
        boolean wantsObject = expected.valueType() == ConfigValueType.OBJECT;
        boolean isObject = value.valueType() == ConfigValueType.OBJECT;
        if (wantsObject && !isObject) {
          throw error(path, value, "expected an object { ... }, got " + describe(value));
        }
        if (!wantsObject && isObject) {
          throw error(path, value, "expected a value, got an object");
        }
        if (wantsObject) {
          checkKeys((ConfigObject) value, (ConfigObject) expected, pathElements);
        }
      }
    }

    private String unknownKeyHint(String key, ConfigObject schema, List<String> prefix) {
      List<String> siblings = orderedKeys(schema);
      Optional<String> sibling = Suggestions.closest(key, siblings);
      if (sibling.isPresent()) {
        return " (did you mean '" + sibling.get() + "'?)";
      }
      // The right key in the wrong place, e.g. workload.segment-size for devices.nic.segment-size.
      List<String> elsewhere = new ArrayList<>();
      collectPaths(SCHEMA.root(), List.of(), elsewhere);
      elsewhere.sort(null);
      Optional<String> lastElement = Suggestions.closest(key, elsewhere.stream()
          .map(p -> p.substring(p.lastIndexOf('.') + 1)).distinct().toList());
      if (lastElement.isPresent()) {
        String match = elsewhere.stream()
            .filter(p -> p.endsWith("." + lastElement.get()) || p.equals(lastElement.get()))
            .filter(p -> !p.equals(ConfigUtil.joinPath(append(prefix, lastElement.get()))))
            .findFirst().orElse(null);
        if (match != null) return " (did you mean '" + match + "'?)";
      }
      return " (known keys" + (prefix.isEmpty() ? "" : " here") + ": " + String.join(", ", siblings) + ")";
    }

    private static void collectPaths(ConfigObject object, List<String> prefix, List<String> out) {
      for (Map.Entry<String, ConfigValue> e : object.entrySet()) {
        List<String> p = append(prefix, e.getKey());
        out.add(ConfigUtil.joinPath(p));
        if (e.getValue() instanceof ConfigObject child) collectPaths(child, p, out);
      }
    }

    private static List<String> append(List<String> prefix, String key) {
      List<String> p = new ArrayList<>(prefix);
      p.add(key);
      return p;
    }

    /** Keys of a schema object in the order the defaults file lists them (keys without a default last). */
    private static List<String> orderedKeys(ConfigObject schema) {
      return schema.keySet().stream()
          .sorted(Comparator.<String>comparingInt(k -> sortLine(schema.get(k))).thenComparing(k -> k))
          .toList();
    }

    private static int sortLine(ConfigValue v) {
      int line = v.origin().lineNumber();
      return line > 0 ? line : Integer.MAX_VALUE;
    }

    // ---------------------------------------------------------------- the records

    LoadedScenario read() {
      String name = readName();
      long seed = longValue("seed");
      TopologySpec topology = readTopology();
      DeviceSpec devices = readDevices(topology);
      SizedWorkload sized = readWorkload(topology);
      checkSegmentSize(devices.nic(), sized.workload);
      checkInc(topology, devices, sized.workload);
      ScenarioSpec spec = new ScenarioSpec(name, source, seed, topology, devices, sized.workload,
          readPacketDrops(topology));
      Config echo = sized.echo.withValue("name", ConfigValueFactory.fromAnyRef(name));
      // Echo only what the run uses, so the echo is itself a valid scenario.
      if (topology.kind() == TopologyKind.LEAF_SPINE) {
        echo = echo.withoutPath("topology.link");
      } else {
        for (String key : LEAF_SPINE_ONLY_KEYS) echo = echo.withoutPath("topology." + key);
      }
      return new LoadedScenario(spec, echo);
    }

    private String readName() {
      if (!merged.hasPathOrNull("name")) return defaultName(source);
      ConfigValue v = value("name");
      if (v.valueType() == ConfigValueType.LIST || v.valueType() == ConfigValueType.NULL) {
        throw error("name", v, "expected a name, got " + describe(v));
      }
      String name = String.valueOf(v.unwrapped()).strip();
      if (name.isEmpty()) throw error("name", v, "must not be empty");
      return name;
    }

    private TopologySpec readTopology() {
      TopologyKind kind = enumValue("topology.kind", TopologyKind::fromConfigName,
          Arrays.stream(TopologyKind.values()).map(TopologyKind::configName).toList());
      int hosts = intValue("topology.hosts", 1, MAX_HOSTS);
      int hostsPerTor = intValue("topology.hosts-per-tor", 1, Integer.MAX_VALUE);
      int spines = intValue("topology.spines", 0, MAX_SPINES);
      LinkSpec hostLink = readLink("topology.host-link");
      LinkSpec spineLink = readLink("topology.spine-link");
      LinkSpec link = readLink("topology.link");
      if (kind == TopologyKind.LEAF_SPINE) {
        if (writtenByUser("topology.link")) {
          throw error("topology.link", "only used when kind is line, ring or full-mesh (leaf-spine uses host-link "
              + "and spine-link)");
        }
        // The last TOR may hold fewer hosts: ceil without the overflow of hosts + hostsPerTor - 1.
        int tors = (hosts - 1) / hostsPerTor + 1;
        if (tors > 1 && spines == 0) {
          throw error("topology.spines", "must be at least 1: " + hosts + " hosts at " + hostsPerTor
              + " per TOR need " + tors + " TORs, which reach each other only through spines");
        }
        long cables = (long) tors * spines;
        if (cables > MAX_TOR_SPINE_CABLES) {
          throw error("topology.spines", tors + " TORs x " + spines + " spines = " + cables
              + " TOR-spine cables is above the limit of " + MAX_TOR_SPINE_CABLES);
        }
      } else {
        if (kind == TopologyKind.FULL_MESH && hosts > MAX_FULL_MESH_HOSTS) {
          throw error("topology.hosts", hosts + " is above the limit of " + MAX_FULL_MESH_HOSTS
              + " for a full mesh (its cables grow as hosts squared)");
        }
        for (String key : LEAF_SPINE_ONLY_KEYS) {
          String path = "topology." + key;
          if (writtenByUser(path)) {
            throw error(path, "only used when kind = leaf-spine (this topology is " + kind.configName() + ")");
          }
        }
      }
      return new TopologySpec(kind, hosts, hostsPerTor, spines, hostLink, spineLink, link);
    }

    private LinkSpec readLink(String path) {
      long bandwidth = rateBitsPerSecond(path + ".bandwidth", true);
      long latency = durationPs(path + ".latency", true);
      return new LinkSpec(bandwidth, latency);
    }

    private DeviceSpec readDevices(TopologySpec topology) {
      HostSpec host = new HostSpec(
          durationPs("devices.host.send-overhead", false),
          durationPs("devices.host.recv-overhead", false),
          rateBytesPerSecond("devices.host.reduce-rate"),
          rateBytesPerSecond("devices.host.memory-bandwidth"),
          durationPs("devices.host.memory-latency", true),
          rateBitsPerSecond("devices.host.pcie-bandwidth", false),
          durationPs("devices.host.pcie-latency", true),
          intValue("devices.host.sockets-per-node", 1, MAX_SOCKETS),
          durationPs("devices.host.cross-socket-latency", false),
          durationPs("devices.host.shm-message-occupancy", false));
      ConfigValue segmentValue = value("devices.nic.segment-size");
      long segment = sizeBytes("devices.nic.segment-size", segmentValue, 1, MAX_PACKET_BYTES);
      long header = sizeBytes("devices.nic.header-bytes", value("devices.nic.header-bytes"), 0, MAX_HEADER_BYTES);
      if (segment + header > MAX_PACKET_BYTES) {
        throw error("devices.nic.segment-size", segmentValue, "'" + text(segmentValue) + "' plus header-bytes ("
            + Quantities.formatBytes(header) + ") is above the limit of " + Quantities.formatBytes(MAX_PACKET_BYTES)
            + " per packet");
      }
      NicSpec nic = new NicSpec((int) segment, (int) header,
          durationPs("devices.nic.per-message-overhead", false),
          durationPs("devices.nic.forwarding-latency", true));
      ForwardingMode forwarding = enumValue("devices.switch.forwarding", ForwardingMode::fromConfigName,
          Arrays.stream(ForwardingMode.values()).map(ForwardingMode::configName).toList());
      SwitchSpec switchSpec = new SwitchSpec(durationPs("devices.switch.pipeline-latency", true), forwarding);
      return new DeviceSpec(host, nic, switchSpec, readInc(topology));
    }

    /** The INC settings, or null when {@code devices.inc.enabled} is false (then the other INC keys are unused). */
    private IncSpec readInc(TopologySpec topology) {
      if (!boolValue("devices.inc.enabled")) return null;
      if (topology.kind() != TopologyKind.LEAF_SPINE) {
        throw error("devices.inc.enabled", "INC needs a leaf-spine topology (TOR and SPINE switches), not "
            + topology.kind().configName());
      }
      IncSwitchSpec tor = readIncUnit("devices.inc.tor");
      IncSwitchSpec spine = readIncUnit("devices.inc.spine");
      IncNicSpec nic = new IncNicSpec(
          (int) sizeBytes("devices.inc.nic.fragment-size", value("devices.inc.nic.fragment-size"), 1, 65535),
          durationPs("devices.inc.nic.engine-latency", false),
          durationPs("devices.inc.nic.retransmit-timeout", true),
          intValue("devices.inc.nic.max-retransmits", 0, 1_000_000));
      for (String tier : List.of("tor", "spine")) {
        IncSwitchSpec unit = tier.equals("tor") ? tor : spine;
        if (nic.fragmentBytes() > unit.maxPayloadBytes()) {
          throw error("devices.inc.nic.fragment-size", "'" + text(value("devices.inc.nic.fragment-size"))
              + "' is larger than the " + tier + "s' max-payload (" + Quantities.formatBytes(unit.maxPayloadBytes())
              + "): a fragment must fit one INC packet");
        }
      }
      Set<Integer> without = new java.util.TreeSet<>();
      for (String name : stringList("devices.inc.switches-without-inc")) {
        int vertex = vertexByName(topology, name);
        if (vertex < topology.hosts()) {
          throw error("devices.inc.switches-without-inc", "'" + name + "' is not a switch of this topology ("
              + switchNames(topology) + ")");
        }
        without.add(vertex);
      }
      return new IncSpec(tor, spine, without, nic);
    }

    private IncSwitchSpec readIncUnit(String path) {
      int maxPayload = (int) sizeBytes(path + ".max-payload", value(path + ".max-payload"), 1, 65535);
      int maxDataSize = (int) sizeBytes(path + ".max-data-size", value(path + ".max-data-size"), 1, 65535);
      List<ReduceOp> ops = new ArrayList<>();
      for (String name : stringList(path + ".operations")) {
        ReduceOp op = enumOf(path + ".operations", ConfigValueFactory.fromAnyRef(name), ReduceOp::fromConfigName,
            Arrays.stream(ReduceOp.values()).map(ReduceOp::configName).toList());
        ops.add(op);
      }
      List<DataType> types = new ArrayList<>();
      for (String name : stringList(path + ".datatypes")) {
        types.add(enumOf(path + ".datatypes", ConfigValueFactory.fromAnyRef(name), DataType::fromConfigName,
            Arrays.stream(DataType.values()).map(DataType::configName).toList()));
      }
      return new IncSwitchSpec(durationPs(path + ".unit-latency", false), rateBytesPerSecond(path + ".unit-rate"),
          intValue(path + ".aggregation-slots", 0, 1 << 24), intValue(path + ".max-groups", 0, 65535), maxPayload,
          maxDataSize, Set.copyOf(ops), Set.copyOf(types));
    }

    /** Injected loss: {@code faults.packet-drops}, a list of {from, to, probability} on existing links. */
    private List<PacketDropSpec> readPacketDrops(TopologySpec topology) {
      String path = "faults.packet-drops";
      ConfigValue v = value(path);
      if (!(v instanceof ConfigList list)) {
        throw error(path, v, "expected a list such as [{ from = \"tor0\", to = \"spine0\", probability = 0.05 }], "
            + "got " + describe(v));
      }
      List<PacketDropSpec> drops = new ArrayList<>();
      for (int i = 0; i < list.size(); i++) {
        String itemPath = path + "[" + i + "]";
        ConfigValue item = list.get(i);
        if (!(item instanceof ConfigObject object)) {
          throw error(itemPath, item, "expected { from = NAME, to = NAME, probability = P }, got " + describe(item));
        }
        for (String key : object.keySet()) {
          if (!List.of("from", "to", "probability").contains(key)) {
            throw error(itemPath + "." + key, object.get(key), "unknown key (use from, to, probability)");
          }
        }
        int[] ends = new int[2];
        String[] names = {"from", "to"};
        for (int e = 0; e < 2; e++) {
          ConfigValue end = object.get(names[e]);
          if (end == null || end.valueType() != ConfigValueType.STRING) {
            throw error(itemPath + "." + names[e], end == null ? item : end, "expected a device name such as "
                + "\"tor0\", \"spine1\" or \"host3\"");
          }
          ends[e] = vertexByName(topology, ((String) end.unwrapped()).strip());
          if (ends[e] < 0) {
            throw error(itemPath + "." + names[e], end, "'" + end.unwrapped() + "' is not a device of this topology ("
                + switchNames(topology) + ", host0..host" + (topology.hosts() - 1) + ")");
          }
        }
        if (!linked(topology, ends[0], ends[1])) {
          throw error(itemPath, item, "there is no link from " + object.get("from").unwrapped() + " to "
              + object.get("to").unwrapped());
        }
        ConfigValue p = object.get("probability");
        if (p == null || !(p.unwrapped() instanceof Number n) || !(n.doubleValue() >= 0 && n.doubleValue() < 1)) {
          throw error(itemPath + ".probability", p == null ? item : p, "expected a probability in [0, 1), got "
              + (p == null ? "nothing" : describe(p)));
        }
        drops.add(new PacketDropSpec(ends[0], ends[1], ((Number) p.unwrapped()).doubleValue()));
      }
      return drops;
    }

    /** The rules of the in-network algorithms: a leaf-spine, no hierarchical flag, the mode's rank placement. */
    private void checkInc(TopologySpec topology, DeviceSpec devices, WorkloadSpec workload) {
      List<Algorithm> algorithms = workload.algorithms();
      for (int i = 0; i < algorithms.size(); i++) {
        Algorithm a = algorithms.get(i);
        if (!a.inNetwork()) continue;
        String path = "workload.algorithms";
        if (topology.kind() != TopologyKind.LEAF_SPINE) {
          throw error(path, a.configName() + " needs a leaf-spine topology (TOR and SPINE switches), not "
              + topology.kind().configName());
        }
        if (workload.hierarchical()) {
          throw error("workload.hierarchical", a.configName() + " is hierarchical already (leaders reduce their "
              + "processes); set hierarchical = false");
        }
        IncMode mode = a == Algorithm.INC_NODE ? IncMode.NODE : IncMode.SOCKET;
        IncLayout layout;
        try {
          layout = IncLayout.of(mode, topology.hosts(), workload.ppn(), devices.host().socketsPerNode(),
              topology.hostsPerTor());
        } catch (IllegalArgumentException e) {
          throw error(path, e.getMessage());
        }
        // The control payload counts TORs and the leaders under one TOR in 16 bits (seed 001, table 2).
        if (layout.torCount() > 0xFFFF) {
          throw error(path, a.configName() + " counts TORs in 16 bits: " + layout.torCount() + " TORs is above "
              + 0xFFFF);
        }
        long leadersPerTor = (long) topology.hostsPerTor() * layout.groupCount();
        if (leadersPerTor > 0xFFFF) {
          throw error(path, a.configName() + " counts the leaders under a TOR in 16 bits: " + leadersPerTor
              + " (hosts-per-tor x groups) is above " + 0xFFFF);
        }
      }
    }

    private List<String> stringList(String path) {
      ConfigValue v = value(path);
      if (!(v instanceof ConfigList list)) throw error(path, v, "expected a list, got " + describe(v));
      List<String> out = new ArrayList<>();
      for (int i = 0; i < list.size(); i++) {
        ConfigValue item = list.get(i);
        if (item.valueType() != ConfigValueType.STRING) {
          throw error(path + "[" + i + "]", item, "expected a name, got " + describe(item));
        }
        out.add(((String) item.unwrapped()).strip());
      }
      return out;
    }

    /** A workload and the scenario echo with the size form the defaults chose. */
    private record SizedWorkload(WorkloadSpec workload, Config echo) {}

    private SizedWorkload readWorkload(TopologySpec topology) {
      Collective collective = enumValue("workload.collective", Collective::fromConfigName,
          Arrays.stream(Collective.values()).map(Collective::configName).toList());
      List<Algorithm> algorithms = readAlgorithms(collective);
      DataType dataType = enumValue("workload.datatype", DataType::fromConfigName,
          Arrays.stream(DataType.values()).map(DataType::configName).toList());
      ReduceOp op = enumValue("workload.op", ReduceOp::fromConfigName,
          Arrays.stream(ReduceOp.values()).map(ReduceOp::configName).toList());
      if (collective.reduces() && !op.isDefinedOn(dataType)) {
        throw error("workload.op", op.configName() + " is not defined on " + dataType.configName()
            + " (logical and bitwise ops need an integer datatype: "
            + Arrays.stream(DataType.values()).filter(t -> !t.isFloatingPoint()).map(DataType::configName)
                .collect(Collectors.joining(", ")) + ")");
      }
      int elementBytes = Schedules.elementBytes(collective, dataType, op);
      String elementName = element(collective, dataType, op);

      Config echo = merged;
      List<Long> sizes;
      boolean explicit = merged.hasPathOrNull("workload.sizes");
      boolean ranged = merged.hasPathOrNull("workload.min-size") || merged.hasPathOrNull("workload.max-size");
      if (explicit && ranged) {
        throw error("workload.sizes", "give either sizes or min-size/max-size, not both");
      }
      if (explicit) {
        sizes = readSizeList(collective, elementBytes, elementName);
      } else if (collective == Collective.BARRIER && !ranged) {
        sizes = List.of(0L);
        echo = echo.withValue("workload.sizes", ConfigValueFactory.fromIterable(List.of("0 B")));
      } else {
        // A barrier's only size is 0 B (checkedSize refuses others), so its defaults are 0 B too.
        boolean barrier = collective == Collective.BARRIER;
        long min = merged.hasPathOrNull("workload.min-size")
            ? checkedSize("workload.min-size", value("workload.min-size"), collective, elementBytes, elementName)
            : barrier ? 0 : elementBytes;
        long max = merged.hasPathOrNull("workload.max-size")
            ? checkedSize("workload.max-size", value("workload.max-size"), collective, 0, elementName)
            : barrier ? min : Math.max(DEFAULT_MAX_SIZE_BYTES, min);
        if (max < min) {
          throw error("workload.max-size", "'" + text(value("workload.max-size")) + "' is smaller than min-size ("
              + Quantities.formatBytes(min) + ")");
        }
        sizes = new ArrayList<>();
        // Like osu -m MIN:MAX: min, 2 min, 4 min, ... while not above max.
        for (long s = min; s <= max; s = s == 0 ? 1 : s * 2) {
          sizes.add(s);
          if (s > Long.MAX_VALUE / 2) break;
        }
        echo = echo.withValue("workload.min-size", ConfigValueFactory.fromAnyRef(Quantities.formatBytes(min)))
            .withValue("workload.max-size", ConfigValueFactory.fromAnyRef(Quantities.formatBytes(max)));
      }

      int iterations = intValue("workload.iterations", 1, Integer.MAX_VALUE);
      int warmup = intValue("workload.warmup", 0, Integer.MAX_VALUE);
      int ppn = intValue("workload.ppn", 1, MAX_PPN);
      long ranks = (long) topology.hosts() * ppn;
      if (ranks > MAX_RANKS) {
        throw error("workload.ppn", topology.hosts() + " hosts x " + ppn + " ppn = " + ranks
            + " ranks is above the limit of " + MAX_RANKS + " ranks");
      }
      if (ranks < 2) {
        throw error("topology.hosts", "the world has " + ranks + " rank (hosts " + topology.hosts() + " x ppn "
            + ppn + "); a collective needs at least 2");
      }
      checkBlockBuffers(collective, sizes, elementBytes, explicit, (int) ranks);
      boolean hierarchical = boolValue("workload.hierarchical");
      if (hierarchical && collective != Collective.ALLREDUCE) {
        throw error("workload.hierarchical", "only allreduce has a hierarchical form (collective is "
            + collective.configName() + ")");
      }
      int root = intValue("workload.root", 0, Integer.MAX_VALUE);
      if (root >= ranks) {
        throw error("workload.root", root + " is not a rank (ranks are 0.." + (ranks - 1) + ")");
      }
      boolean synthetic = enumValue("workload.payload", ScenarioLoader::syntheticPayload, PAYLOAD_NAMES);
      WorkloadSpec workload = new WorkloadSpec(collective, List.copyOf(algorithms), List.copyOf(sizes), iterations,
          warmup, ppn, dataType, op, hierarchical, root, synthetic);
      return new SizedWorkload(workload, echo);
    }

    private List<Algorithm> readAlgorithms(Collective collective) {
      String path = "workload.algorithms";
      ConfigValue v = value(path);
      List<ConfigValue> items;
      List<String> displayPaths = new ArrayList<>();
      if (v instanceof ConfigList list) {
        items = list;
        for (int i = 0; i < list.size(); i++) displayPaths.add(path + "[" + i + "]");
      } else if (v.valueType() == ConfigValueType.STRING) {
        items = List.of(v);
        displayPaths.add(path);
      } else {
        throw error(path, v, "expected a list of algorithms, got " + describe(v));
      }
      if (items.isEmpty()) throw error(path, v, "must list at least one algorithm");
      List<String> names = Arrays.stream(Algorithm.values()).map(Algorithm::configName).toList();
      String valid = Algorithm.validFor(collective).stream().map(Algorithm::configName)
          .collect(Collectors.joining(", "));
      Set<Algorithm> seen = new LinkedHashSet<>();
      for (int i = 0; i < items.size(); i++) {
        ConfigValue item = items.get(i);
        String itemPath = displayPaths.get(i);
        Algorithm a = enumOf(itemPath, item, Algorithm::fromConfigName, names);
        if (!Algorithm.validFor(collective).contains(a)) {
          throw error(itemPath, item, "'" + a.configName() + "' is not an algorithm of " + collective.configName()
              + " (use " + valid + ")");
        }
        if (!seen.add(a)) throw error(itemPath, item, "'" + a.configName() + "' is listed twice");
      }
      return new ArrayList<>(seen);
    }

    private List<Long> readSizeList(Collective collective, int elementBytes, String elementName) {
      String path = "workload.sizes";
      ConfigValue v = value(path);
      if (!(v instanceof ConfigList list)) {
        throw error(path, v, "expected a list of sizes such as [4 B, 1 MiB], got " + describe(v));
      }
      if (list.isEmpty()) throw error(path, v, "must list at least one size");
      List<Long> sizes = new ArrayList<>();
      for (int i = 0; i < list.size(); i++) {
        String itemPath = path + "[" + i + "]";
        long s = checkedSize(itemPath, list.get(i), collective, elementBytes, elementName);
        if (sizes.contains(s)) throw error(itemPath, list.get(i), "'" + text(list.get(i)) + "' is listed twice");
        sizes.add(s);
      }
      return sizes;
    }

    /**
     * A message size: a multiple of the element, at least one element, at most 1 GiB; for a barrier, which moves no
     * data, exactly 0 B. An {@code elementBytes} of 0 skips the element rules (max-size needs none).
     */
    private long checkedSize(String path, ConfigValue v, Collective collective, int elementBytes,
                             String element) {
      long s = sizeBytes(path, v, 0, MAX_SIZE_BYTES);
      if (collective == Collective.BARRIER) {
        if (s != 0) throw error(path, v, "'" + text(v) + "' is not 0 B: a barrier moves no data");
        return s;
      }
      if (elementBytes == 0) return s;
      if (s % elementBytes != 0) {
        throw error(path, v, "'" + text(v) + "' is not a multiple of the " + element);
      }
      if (s == 0) throw error(path, v, "'" + text(v) + "' is less than one element (the " + element + ")");
      return s;
    }

    /**
     * Collectives whose buffers hold one block per rank ({@link Collective#oneBlockPerRank()}): a block of every
     * size times the world must fit a Java array.
     */
    private void checkBlockBuffers(Collective collective, List<Long> sizes, int elementBytes, boolean explicit,
                                   int ranks) {
      if (!collective.oneBlockPerRank()) return;
      for (int i = 0; i < sizes.size(); i++) {
        long elements = sizes.get(i) / elementBytes * ranks;
        if (elements > Schedules.MAX_BUFFER_ELEMENTS) {
          String path = explicit ? "workload.sizes[" + i + "]" : "workload.max-size";
          ConfigValue v = explicit ? ((ConfigList) value("workload.sizes")).get(i) : null;
          String reason = Quantities.formatBytes(sizes.get(i)) + " per rank on " + ranks + " ranks needs a buffer of "
              + elements + " elements for " + collective.configName() + ", more than a Java array holds ("
              + Schedules.MAX_BUFFER_ELEMENTS + ")";
          throw v == null ? error(path, reason) : error(path, v, reason);
        }
      }
    }

    private void checkSegmentSize(NicSpec nic, WorkloadSpec w) {
      int elementBytes = Schedules.elementBytes(w.collective(), w.dataType(), w.op());
      if (nic.segmentBytes() < elementBytes) {
        ConfigValue v = value("devices.nic.segment-size");
        throw error("devices.nic.segment-size", v, "'" + text(v) + "' is smaller than the "
            + element(w.collective(), w.dataType(), w.op()));
      }
    }

    /** For messages: {@code float32 element size (4 B)}, {@code float32 maxloc element size (8 B: ...)}. */
    private static String element(Collective collective, DataType type, ReduceOp op) {
      int bytes = Schedules.elementBytes(collective, type, op);
      return Schedules.carriesLocation(collective, op)
          ? type.configName() + " " + op.configName() + " element size (" + Quantities.formatBytes(bytes) + ": "
              + type.sizeBytes() + " B value + " + (bytes - type.sizeBytes()) + " B location)"
          : type.configName() + " element size (" + Quantities.formatBytes(bytes) + ")";
    }

    // ---------------------------------------------------------------- typed values

    private ConfigValue value(String path) {
      ConfigValue v = navigate(merged.root(), path);
      if (v == null) throw new IllegalStateException("no default for " + path + " in " + DEFAULTS_RESOURCE);
      return v;
    }

    private boolean writtenByUser(String path) {
      try {
        return navigate(user.root(), path) != null;
      } catch (ConfigException e) {
        return false; // an unresolved merge in the user's tree: give it the benefit of the doubt
      }
    }

    private static ConfigValue navigate(ConfigObject root, String path) {
      ConfigValue current = root;
      for (String key : ConfigUtil.splitPath(path)) {
        if (!(current instanceof ConfigObject object)) return null;
        current = object.get(key);
        if (current == null) return null;
      }
      return current;
    }

    private long longValue(String path) {
      ConfigValue v = value(path);
      Long n = wholeNumber(v);
      if (n == null) throw error(path, v, "expected a whole number, got " + describe(v));
      return n;
    }

    private int intValue(String path, int min, int max) {
      ConfigValue v = value(path);
      Long n = wholeNumber(v);
      if (n == null) throw error(path, v, "expected a whole number, got " + describe(v));
      if (n < min) throw error(path, v, "must be at least " + min + ", got " + n);
      if (n > max) throw error(path, v, n + " is above the limit of " + max);
      return n.intValue();
    }

    private static Long wholeNumber(ConfigValue v) {
      Object raw = v.unwrapped();
      if (raw instanceof Integer || raw instanceof Long) return ((Number) raw).longValue();
      if (raw instanceof String s) {
        try {
          return Long.parseLong(s.strip());
        } catch (NumberFormatException e) {
          return null;
        }
      }
      return null;
    }

    private boolean boolValue(String path) {
      ConfigValue v = value(path);
      Object raw = v.unwrapped();
      if (raw instanceof Boolean b) return b;
      if (raw instanceof String s) {
        switch (s.strip()) {
          case "true", "yes", "on" -> {
            return true;
          }
          case "false", "no", "off" -> {
            return false;
          }
          default -> { }
        }
      }
      throw error(path, v, "expected true or false, got " + describe(v));
    }

    private <E> E enumValue(String path, Function<String, E> parser, List<String> names) {
      return enumOf(path, value(path), parser, names);
    }

    private <E> E enumOf(String path, ConfigValue v, Function<String, E> parser, List<String> names) {
      if (v.valueType() != ConfigValueType.STRING) {
        throw error(path, v, "expected one of " + String.join(", ", names) + ", got " + describe(v));
      }
      String s = ((String) v.unwrapped()).strip();
      E e = parser.apply(s);
      if (e == null) {
        String hint = Suggestions.closest(s, names).map(n -> " (did you mean '" + n + "'?)").orElse("");
        throw error(path, v, "'" + s + "' is not one of " + String.join(", ", names) + hint);
      }
      return e;
    }

    /** A duration in picoseconds, at most {@link #MAX_DURATION_PS}. */
    private long durationPs(String path, boolean positive) {
      ConfigValue v = value(path);
      long ps = quantity(path, v, Quantities::parseDurationPs);
      if (positive && ps == 0) throw error(path, v, "must be greater than 0");
      if (ps > MAX_DURATION_PS) {
        throw error(path, v, "'" + text(v) + "' is above the limit of 1 s (every duration is at most 1 s)");
      }
      return ps;
    }

    /** A rate in bits per second, at most {@link #MAX_RATE_BITS_PER_SECOND}. */
    private long rateBitsPerSecond(String path, boolean positive) {
      ConfigValue v = value(path);
      long bps = quantity(path, v, Quantities::parseBandwidthBitsPerSecond);
      if (positive && bps == 0) throw error(path, v, "must be greater than 0");
      if (bps > MAX_RATE_BITS_PER_SECOND) throw error(path, v, "'" + text(v) + "' is above the limit of 10 Tbps");
      return bps;
    }

    /** A host rate in bytes per second (0 means free); written like any bandwidth, e.g. {@code 10 GBps}. */
    private long rateBytesPerSecond(String path) {
      ConfigValue v = value(path);
      long bps = quantity(path, v, Quantities::parseBandwidthBitsPerSecond);
      if (bps > MAX_RATE_BITS_PER_SECOND) {
        throw error(path, v, "'" + text(v) + "' is above the limit of 10 Tbps (1.25 TBps)");
      }
      if (bps % 8 != 0) throw error(path, v, "'" + text(v) + "' is not a whole number of bytes per second");
      return bps / 8;
    }

    private long quantity(String path, ConfigValue v, Function<String, Long> parser) {
      if (v.valueType() != ConfigValueType.STRING && v.valueType() != ConfigValueType.NUMBER) {
        throw error(path, v, "expected a quantity with a unit, got " + describe(v));
      }
      try {
        return parser.apply(text(v));
      } catch (IllegalArgumentException e) {
        throw error(path, v, e.getMessage());
      }
    }

    private long sizeBytes(String path, ConfigValue v, long min, long max) {
      if (v.valueType() != ConfigValueType.STRING && v.valueType() != ConfigValueType.NUMBER) {
        throw error(path, v, "expected a byte size such as '4 KiB', got " + describe(v));
      }
      long bytes;
      try {
        bytes = Quantities.parseSizeBytes(text(v));
      } catch (IllegalArgumentException e) {
        throw error(path, v, e.getMessage());
      }
      if (bytes < min) throw error(path, v, "'" + text(v) + "' is less than " + Quantities.formatBytes(min));
      if (bytes > max) {
        throw error(path, v, "'" + text(v) + "' is above the limit of " + Quantities.formatBytes(max));
      }
      return bytes;
    }

    private static String text(ConfigValue v) {
      return String.valueOf(v.unwrapped()).strip();
    }

    private static String describe(ConfigValue v) {
      return switch (v.valueType()) {
        case OBJECT -> "an object";
        case LIST -> "a list";
        case NULL -> "null";
        case STRING -> "'" + v.unwrapped() + "'";
        default -> v.render(ConfigRenderOptions.concise());
      };
    }

    // ---------------------------------------------------------------- errors

    /** An error about a value: its line when the user wrote it. */
    private ScenarioException error(String path, ConfigValue v, String reason) {
      return new ScenarioException(source, lineOf(v, path), path, reason);
    }

    /** An error about a key, perhaps defaulted: its line when the user wrote it. */
    private ScenarioException error(String path, String reason) {
      ConfigValue v = navigate(merged.root(), path);
      return new ScenarioException(source, v == null ? lineInUserTree(path) : lineOf(v, path), path, reason);
    }

    private int lineOf(ConfigValue v, String path) {
      ConfigOrigin origin = v.origin();
      if (origin.resource() != null) return 0; // from the defaults
      if (v.valueType() == ConfigValueType.OBJECT) return lineInUserTree(path); // merged objects blend origins
      return origin.lineNumber();
    }

    private int lineInUserTree(String path) {
      try {
        ConfigValue v = navigate(user.root(), path.replaceAll("\\[\\d+]$", ""));
        return v == null ? 0 : v.origin().lineNumber();
      } catch (ConfigException e) {
        return 0;
      }
    }
  }

  /** {@code workload.payload}: true for {@code synthetic} (sizes only), false for {@code real}, null otherwise. */
  private static Boolean syntheticPayload(String name) {
    return switch (name) {
      case "real" -> Boolean.FALSE;
      case "synthetic" -> Boolean.TRUE;
      default -> null;
    };
  }

  /** {@code examples/quickstart.conf} gives {@code quickstart}. */
  /** Leaf-spine vertex ids by name: host0.. are 0.., then tor0.., then spine0..; other kinds have hosts only. */
  static int vertexByName(TopologySpec topology, String name) {
    int hosts = topology.hosts();
    boolean leafSpine = topology.kind() == TopologyKind.LEAF_SPINE;
    int tors = leafSpine ? (hosts - 1) / topology.hostsPerTor() + 1 : 0;
    int spines = leafSpine ? topology.spines() : 0;
    int index = indexAfter(name, "host");
    if (index >= 0) return index < hosts ? index : -1;
    index = indexAfter(name, "tor");
    if (index >= 0) return index < tors ? hosts + index : -1;
    index = indexAfter(name, "spine");
    if (index >= 0) return index < spines ? hosts + tors + index : -1;
    return -1;
  }

  private static int indexAfter(String name, String prefix) {
    if (!name.startsWith(prefix) || name.length() == prefix.length() || name.length() > prefix.length() + 9) {
      return -1;
    }
    String digits = name.substring(prefix.length());
    if (!digits.chars().allMatch(Character::isDigit) || (digits.length() > 1 && digits.charAt(0) == '0')) return -1;
    return Integer.parseInt(digits);
  }

  private static String switchNames(TopologySpec topology) {
    if (topology.kind() != TopologyKind.LEAF_SPINE) return "it has no switches";
    int tors = (topology.hosts() - 1) / topology.hostsPerTor() + 1;
    return "tor0..tor" + (tors - 1) + (topology.spines() > 0 ? ", spine0..spine" + (topology.spines() - 1) : "");
  }

  /** True when a cable joins vertices {@code a} and {@code b} (either direction). */
  private static boolean linked(TopologySpec topology, int a, int b) {
    int hosts = topology.hosts();
    if (topology.kind() != TopologyKind.LEAF_SPINE) {
      return switch (topology.kind()) {
        case LINE -> Math.abs(a - b) == 1;
        case RING -> Math.abs(a - b) == 1 || (hosts > 2 && Math.abs(a - b) == hosts - 1);
        case FULL_MESH -> a != b;
        default -> false;
      };
    }
    int tors = (hosts - 1) / topology.hostsPerTor() + 1;
    int lo = Math.min(a, b);
    int hi = Math.max(a, b);
    if (lo < hosts) return hi == hosts + lo / topology.hostsPerTor();
    return lo < hosts + tors && hi >= hosts + tors;
  }

  static String defaultName(String source) {
    String file = source.replace('\\', '/');
    file = file.substring(file.lastIndexOf('/') + 1);
    int dot = file.lastIndexOf('.');
    String name = dot > 0 ? file.substring(0, dot) : file;
    return name.isEmpty() ? "scenario" : name;
  }
}
