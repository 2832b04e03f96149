package io.fabemu.cluster.scenario;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigException;
import com.typesafe.config.ConfigFactory;
import com.typesafe.config.ConfigList;
import com.typesafe.config.ConfigObject;
import com.typesafe.config.ConfigOrigin;
import com.typesafe.config.ConfigParseOptions;
import com.typesafe.config.ConfigValue;
import com.typesafe.config.ConfigValueFactory;
import io.fabemu.fabric.ScenarioSpec;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads a scenario file (HOCON) into a checked, immutable {@link ScenarioSpec}.
 *
 * <p>Contract: the user's file is laid over the bundled {@value #DEFAULTS_RESOURCE} and resolved; then every key is
 * checked against the schema (the keys of the defaults plus those without a default, see {@link KeySchema}) and
 * every value for type, unit and range, and the cross-field rules are applied (see docs/scenario-format.md); a
 * {@code traffic} section counts only when the file (or its overrides) writes one. The first problem found (unknown
 * keys first, in file order; then values, section by section) is thrown as a {@link ScenarioException} whose
 * one-line message names the file, the line where known, the key path and the reason. Nothing here touches the
 * network or runs anything; loading the same text twice gives equal results.
 *
 * <p>Sources: the text is read by {@link ScenarioSource} (regular files of at most 4 MiB, UTF-8, bounded nesting,
 * includes relative to the including file and nothing else), so no file can hang, overflow the stack or be dropped
 * silently.
 *
 * <p>Structure: {@link KeySchema} checks the keys, then one {@link ScenarioSection} per part of the file reads and
 * checks its values through a shared {@link ScenarioReader} (units, ranges, lines, suggestions, messages).
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
  /**
   * Most messages of one window of the send/recv algorithm {@code window} (osu_bw's {@code -W}): every message of a
   * window is in flight at once, with its own copy of the payload.
   */
  public static final int MAX_WINDOW = 1 << 16;
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
  /** Widest flit of a router network, 64 KiB: a channel's rate (flit bytes per cycle) stays far from overflow. */
  public static final long MAX_FLIT_BYTES = 64L << 10;
  /** Most virtual channels per router input port. */
  public static final int MAX_VIRTUAL_CHANNELS = 256;
  /** Deepest virtual-channel buffer, in flits. */
  public static final int MAX_BUFFER_DEPTH_FLITS = 1 << 16;
  /** Most cycles of any one router stage, channel or credit delay. */
  public static final int MAX_ROUTER_CYCLES = 1 << 20;
  /** Longest traffic packet, in flits. */
  public static final int MAX_PACKET_FLITS = 1 << 16;
  /** Most offered loads of a traffic sweep: each is one emulation. */
  public static final int MAX_TRAFFIC_LOADS = 1000;
  /** Most cycles of any one traffic phase (warm-up, measurement, drain); all three also stay within 1 s. */
  public static final long MAX_TRAFFIC_CYCLES = 1_000_000_000L;
  /**
   * Most packets (on average) the measurement window of one offered load may create: each one's latency is kept
   * for the exact 99th percentile (8 B each, 1 GiB at this limit).
   */
  public static final long MAX_MEASURED_PACKETS = 1L << 27;

  /** Most fault events of a scenario, each flap counting as its downs and ups. */
  public static final int MAX_FAULT_EVENTS = 10_000;
  /** Most heartbeats missed before a failure is noticed: the detection delay stays within 1000 s of virtual time. */
  public static final int MAX_HEARTBEAT_MISSES = 1000;
  /** Most retransmissions of one message. */
  public static final int MAX_RETRANSMISSIONS = 1000;
  /** Largest slowdown of a straggling host: a slowed 1 s overhead still fits virtual time many times over. */
  public static final double MAX_STRAGGLER_SLOWDOWN = 1000.0;

  private static final Config DEFAULTS = loadDefaults();
  /** The sections in the order they are read and checked: a section may use what the sections before it read. */
  private static final List<ScenarioSection> SECTIONS = List.of(new NameAndSeedSection(), new TopologySection(),
      new DevicesSection(), new IncSection(), new WorkloadSection(), new TrafficSection(), new CrossSectionChecks(),
      new FaultsSection(), new FaultPlanSection(), new EthernetSection(), new RingsSection(),
      new PipelineSection(), new ClusterSection(), new CaseTimedFaultsSection());
  /** A key path inside an item of {@code faults.events}: the item's index and the path within it (if any). */
  private static final Pattern FAULT_EVENT_PATH = Pattern.compile(
      Pattern.quote(FaultPlanSection.EVENTS) + "\\[(\\d+)](?:\\.(.+))?");

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
    return load(file, overrides, List.of());
  }

  /**
   * Loads {@code file} with {@code overrides} laid over it and {@code faultEvents} appended to its
   * {@code faults.events} (the command line's {@code --fault}s), each checked exactly as an event written in the
   * file. A problem with an appended event names it by its origin description in place of the file, followed by
   * the key path inside the event ({@code --fault #2: at: ...}); a problem with the whole list when every event is
   * appended names the first one.
   *
   * @throws ScenarioException when the file cannot be read or the result is not a valid scenario
   */
  public static LoadedScenario load(Path file, Config overrides, List<? extends ConfigObject> faultEvents) {
    String source = file.toString();
    ScenarioSource.Parsed user = ScenarioSource.parseFile(file, source);
    // The sizes' list and range: the later layer's form wins (includes, then the file, then the overrides).
    Config own = SizeForms.overIncludes(user.config(), user.includedFiles());
    return check(overrides.withFallback(SizeForms.underOverrides(own, overrides)), user.includedFiles(), source,
        faultEvents);
  }

  /**
   * Checks a scenario given as text; {@code sourceName} (usually a file name) names it in messages and gives the
   * default {@code name}.
   *
   * @throws ScenarioException when the scenario is not valid
   */
  public static LoadedScenario parse(String text, String sourceName) {
    ScenarioSource.Parsed user = ScenarioSource.parseString(text, sourceName);
    return check(SizeForms.overIncludes(user.config(), user.includedFiles()), user.includedFiles(), sourceName,
        List.of());
  }

  /**
   * Checks HOCON text that a command parses itself (a {@code --set} value) against the rules the scenario's own text
   * keeps before parsing: no NUL character, nesting at most 64 levels deep, every bracket closed. {@code sourceName}
   * names the text in the message.
   *
   * @throws ScenarioException naming the first problem
   */
  public static void checkText(String text, String sourceName) {
    ScenarioSource.scan(ScenarioSource.normalize(text, sourceName), sourceName, 0);
  }

  /**
   * Checks that the substitutions of {@code config}, parsed but not resolved (e.g. a {@code --set} value), stay
   * within the bound a scenario's own do (see docs/scenario-format.md): resolving it cannot build text of more than
   * a scenario file's size limit. {@code sourceName} names it in the message.
   *
   * @throws ScenarioException naming the first value whose substitutions expand beyond the bound or form a cycle
   */
  public static void checkSubstitutions(Config config, String sourceName) {
    SubstitutionBound.check(config, ConfigFactory.empty(), sourceName, Set.of());
  }

  /**
   * {@code config} over {@code fallback} (resolved), resolved once its substitutions are known to stay within the
   * bound; an error names the file of {@code includedFiles} or {@code source} it concerns.
   */
  static Config resolve(Config config, Config fallback, String source, Set<String> includedFiles) {
    SubstitutionBound.check(config, fallback, source, includedFiles);
    try {
      return config.withFallback(fallback).resolve();
    } catch (ConfigException e) {
      throw fromHocon(source, e, includedFiles);
    }
  }

  /** The bundled defaults, resolved: what a scenario that sets no key at all gets (name and sizes aside). */
  public static Config defaults() {
    return DEFAULTS;
  }

  private static Config loadDefaults() {
    Config defaults = ConfigFactory.parseResources(ScenarioLoader.class.getClassLoader(), DEFAULTS_RESOURCE,
        ConfigParseOptions.defaults().setAllowMissing(false));
    return defaults.resolve();
  }

  private static LoadedScenario check(Config user, Set<String> includedFiles, String source,
                                      List<? extends ConfigObject> faultEvents) {
    Config merged = resolve(user, DEFAULTS, source, includedFiles);
    int ownEvents = 0;
    if (!faultEvents.isEmpty()) {
      ConfigValue events = eventsValue(merged);
      // Anything but a list is the scenario's own mistake, which its section reports.
      if (events instanceof ConfigList list) {
        ownEvents = list.size();
        List<ConfigValue> all = new ArrayList<>(list);
        all.addAll(faultEvents);
        // The list keeps its origin: the file's line when the file wrote it.
        merged = merged.withValue(FaultPlanSection.EVENTS, ConfigValueFactory.fromIterable(all)
            .withOrigin(list.origin()));
      }
    }
    try {
      ScenarioReader in = new ScenarioReader(source, user, merged, includedFiles);
      KeySchema.check(in);
      ScenarioDraft draft = new ScenarioDraft(merged);
      for (ScenarioSection section : SECTIONS) section.read(in, draft);
      return draft.toLoadedScenario(source);
    } catch (ScenarioException e) {
      throw faultEvents.isEmpty() ? e : nameAppendedEvent(e, ownEvents, faultEvents);
    }
  }

  private static ConfigValue eventsValue(Config merged) {
    try {
      return merged.hasPath(FaultPlanSection.EVENTS) ? merged.getValue(FaultPlanSection.EVENTS) : null;
    } catch (ConfigException e) {
      return null; // faults or faults.events is not what the schema wants: its section says so
    }
  }

  /**
   * {@code e} named after the appended event it concerns (the event at index {@code ownEvents + i} of the list is
   * appended event {@code i}); {@code e} itself when it concerns no appended event.
   */
  private static ScenarioException nameAppendedEvent(ScenarioException e, int ownEvents,
                                                     List<? extends ConfigObject> appended) {
    String path = e.keyPath();
    if (path == null) return e;
    if (path.equals(FaultPlanSection.EVENTS)) {
      return ownEvents > 0 ? e : new ScenarioException(appended.get(0).origin().description(), 0, null, e.reason());
    }
    Matcher m = FAULT_EVENT_PATH.matcher(path);
    if (!m.matches()) return e;
    int index = Integer.parseInt(m.group(1)) - ownEvents;
    if (index < 0 || index >= appended.size()) return e;
    return new ScenarioException(appended.get(index).origin().description(), 0, m.group(2), e.reason());
  }

  /** Turns an exception of the HOCON library (syntax, substitution, include) into our one-line form. */
  static ScenarioException fromHocon(String source, ConfigException e) {
    return fromHocon(source, e, Set.of());
  }

  /**
   * {@link #fromHocon(String, ConfigException)} of an error found while resolving: when its origin is one of
   * {@code includedFiles} (as origins describe them), that file is named, not the scenario.
   */
  static ScenarioException fromHocon(String source, ConfigException e, Set<String> includedFiles) {
    ConfigOrigin origin = e.origin();
    String message = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
    String file = source;
    int line = 0;
    if (origin != null) {
      String prefix = origin.description() + ": ";
      if (message.startsWith(prefix)) message = message.substring(prefix.length());
      line = origin.lineNumber();
      // An included file: name it rather than the scenario (parsed from text, its origin has a description only).
      String described = origin.description().replaceFirst(": \\d+(-\\d+)?$", "");
      if (includedFiles.contains(described)) {
        file = described;
      } else if (origin.filename() != null
          && !Path.of(origin.filename()).normalize().equals(Path.of(source).normalize())) {
        file = origin.filename();
      }
    }
    String kind = e instanceof ConfigException.Parse && !(e instanceof ConfigException.UnresolvedSubstitution)
        ? "HOCON syntax error: " : "";
    return new ScenarioException(file, line, null, kind + message);
  }

  /**
   * The default {@code name}: the file's name without its extension ({@code examples/quickstart.conf} gives
   * {@code quickstart}).
   */
  static String defaultName(String source) {
    String file = source.replace('\\', '/');
    file = file.substring(file.lastIndexOf('/') + 1);
    int dot = file.lastIndexOf('.');
    String name = dot > 0 ? file.substring(0, dot) : file;
    return name.isEmpty() ? "scenario" : name;
  }
}
