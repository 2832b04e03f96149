package io.fabemu.app.output;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.typesafe.config.Config;
import com.typesafe.config.ConfigRenderOptions;
import io.fabemu.app.report.CaseFigures;
import io.fabemu.app.report.CaseLinkLoad;
import io.fabemu.app.report.FaultCases;
import io.fabemu.app.report.LinkTable;
import io.fabemu.app.report.OcsFigures;
import io.fabemu.app.report.PipelineTable;
import io.fabemu.app.report.PrismDrawing;
import io.fabemu.app.report.RingUsage;
import io.fabemu.app.report.RunReport;
import io.fabemu.collectives.Algorithm;
import io.fabemu.collectives.WorkloadSpec;
import io.fabemu.core.ethernet.AddressTable;
import io.fabemu.core.ethernet.EthernetReport;
import io.fabemu.core.ethernet.MacAddress;
import io.fabemu.core.inc.IncCodes.FailCause;
import io.fabemu.core.optical.OcsReport;
import io.fabemu.core.rings.RingEmbedding;
import io.fabemu.core.routing.DetourTable;
import io.fabemu.core.sim.DeviceReport.LinkCounters;
import io.fabemu.core.time.Units;
import io.fabemu.core.topology.Topology;
import io.fabemu.fabric.ScenarioSpec;
import io.fabemu.fabric.result.CaseResult;
import io.fabemu.fabric.result.RunResult;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Machine-readable results of a run: {@code results.json} (every figure, per-link counters with each link's port and
 * place among its parallel links ({@link LinkTable}), with a ring embedding the rings and the links each
 * embedded-ring algorithm uses and leaves idle ({@link RingUsage}), in a run with faults
 * what they did ({@code faults}), the scenario as run, the {@code payload} mode and per case whether its outputs were
 * {@code checked}) and {@code results.csv} (one row per case, with the run's identity in every row); next to them
 * the latency plot ({@value #PLOT_SVG_FILE}, {@value #PLOT_PNG_FILE}, drawn by {@link LatencyPlot}) and the HTML
 * report ({@value #REPORT_FILE}, {@link io.fabemu.app.report.RunReport}).
 *
 * <p>Contract: the text is a pure function of the arguments; {@link #writeAtomically} never leaves a half-written
 * file under the target name (it writes a temporary file in the same folder and moves it into place).
 */
public final class ResultsWriter {

  /** File names inside the {@code --out} folder. */
  public static final String JSON_FILE = "results.json";
  public static final String CSV_FILE = "results.csv";
  public static final String PLOT_SVG_FILE = "latency.svg";
  public static final String PLOT_PNG_FILE = "latency.png";
  public static final String REPORT_FILE = "report.html";
  /** The drawing of a prism's links coloured by busy share, written for prism topologies ({@link PrismDrawing}). */
  public static final String LINKS_PRISM_FILE = "links-prism.svg";
  /** What {@code results.json}'s {@code links} entries say, written beside them. */
  static final String LINKS_NOTE = "one entry per directed link, parallel links separate: device from sends to "
      + "device to through its port 'port' (null where the topology does not say), link 'parallel' (0-based, port "
      + "order) of the 'parallelLinks' links from -> to; bytes and packets put on the wire (headers included), "
      + "busyPs the time the port spent serializing, utilization = busyPs / virtualEndPs; whole run, every case "
      + "(each case's share: cases[i].links)";
  /** The first line of {@value #CSV_FILE}: {@link CaseFigures#CSV_HEADER}. */
  public static final String CSV_HEADER = String.join(",", CaseFigures.CSV_HEADER);

  private static final ObjectMapper MAPPER = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

  private ResultsWriter() {}

  /**
   * The JSON document.
   *
   * @param result   what the run produced
   * @param scenario the scenario as run, defaults filled in ({@code LoadedScenario.config()}, seed as run)
   * @param topology the fabric, for device names of links and the description; may be null
   */
  public static String toJson(RunResult result, Config scenario, Topology topology) {
    ScenarioSpec spec = result.scenario();
    int ranks = ReportFormatter.ranks(spec);
    ObjectNode root = MAPPER.createObjectNode();
    root.put("tool", "fabemu");
    root.put("name", spec.name());
    root.put("source", spec.source());
    root.put("seed", spec.seed());
    root.put("topology", topology == null ? spec.topology().configName() : topology.description());
    root.put("ranks", ranks);
    root.put("payload", spec.workload().payloadName());
    root.put("complete", result.complete());
    root.put("incompleteReason", result.incompleteReason());
    root.put("wrongElements", result.wrongElements());
    root.put("virtualEndPs", result.virtualEndPs());
    root.put("virtualEnd", Units.format(result.virtualEndPs()));
    root.put("windows", result.windows());
    root.put("events", result.events());
    root.put("wallSeconds", result.wallSeconds());
    if (result.wallSeconds() > 0) root.put("eventsPerWallSecond", result.events() / result.wallSeconds());
    else root.putNull("eventsPerWallSecond");
    root.put("digest", result.digest());

    ArrayNode cases = root.putArray("cases");
    // The bandwidths as results.csv and the report have them (caseFigures), one computation for every file.
    List<CaseFigures> figures = caseFigures(result, topology);
    Map<Integer, CaseLinkLoad> caseLinks = new HashMap<>();
    for (CaseLinkLoad load : CaseLinkLoad.of(result, topology)) caseLinks.put(load.caseIndex(), load);
    for (int i = 0; i < result.cases().size(); i++) {
      CaseResult c = result.cases().get(i);
      ObjectNode n = cases.addObject();
      n.put("caseIndex", c.caseIndex());
      n.put("workloadAlgorithm", spec.workload().algorithmOfCase(c.caseIndex()).configName());
      n.put("bufferLayout", spec.workload().bufferLayoutOfCase(c.caseIndex()).configName());
      n.put("algorithm", c.algorithm().configName());
      // NCCL's protocol the case's messages travelled by (simple unless the workload sets workload.protocol).
      n.put("protocol", spec.workload().protocolOfCase(c.caseIndex(), ReportFormatter.ranks(spec),
          spec.topology().hostsPerServer() * spec.workload().ppn()).configName());
      n.put("sizeBytes", c.sizeBytes());
      n.put("count", c.count());
      n.put("iterations", c.iterations());
      n.put("avgLatencyPs", c.avgLatencyPs());
      n.put("minLatencyPs", c.minLatencyPs());
      n.put("maxLatencyPs", c.maxLatencyPs());
      n.put("avgLatencyUs", c.avgLatencyPs() / Units.PS_PER_US);
      n.put("minLatencyUs", c.minLatencyPs() / Units.PS_PER_US);
      n.put("maxLatencyUs", c.maxLatencyPs() / Units.PS_PER_US);
      // nccl-tests' figures: over the whole buffer for collectives whose size is one block per rank.
      n.put("algBandwidthGBps", figures.get(i).algBwGBps());
      n.put("busBandwidthGBps", figures.get(i).busBwGBps());
      n.put("wrongElements", c.wrongElements());
      n.put("checked", c.checked());
      if (c.incOutcome() != null) {
        // In-network cases say whether the switches aggregated, and if not, why the host algorithm ran.
        ObjectNode inc = n.putObject("inc");
        inc.put("used", c.incOutcome() == FailCause.NONE);
        inc.put("outcome", c.incOutcome().name().toLowerCase(Locale.ROOT).replace('_', '-'));
        inc.put("reason", c.incOutcome().description());
      }
      putCaseInterval(n, c);
      // How busy the links were within the case's interval (cut from each port's busy periods).
      CaseLinkLoad load = caseLinks.get(c.caseIndex());
      if (load != null) load.json(n.putObject("links"));
    }

    root.put("linksNote", LINKS_NOTE);
    ArrayNode links = root.putArray("links");
    for (LinkTable.Row row : LinkTable.of(result.links(), topology, result.virtualEndPs())) {
      LinkCounters l = row.counters();
      ObjectNode n = links.addObject();
      n.put("fromDevice", l.fromDevice());
      n.put("toDevice", l.toDevice());
      if (l.droppedPackets() > 0) n.put("droppedPackets", l.droppedPackets());
      if (topology != null) {
        n.put("from", deviceName(topology, l.fromDevice()));
        n.put("to", deviceName(topology, l.toDevice()));
      }
      putOrNull(n, "port", row.port());
      n.put("parallel", row.parallelIndex());
      n.put("parallelLinks", row.parallelLinks());
      n.put("bytes", l.bytes());
      n.put("packets", l.packets());
      n.put("busyPs", l.busyPs());
      n.put("utilization", row.busyShare());
    }

    if (spec.rings() != null) root.set("rings", ringsJson(spec, topology));
    if (spec.hasFaults()) {
      ObjectNode faults = FaultsJson.of(result, topology, MAPPER.createObjectNode());
      FaultCases.of(result).json(faults);
      root.set("faults", faults);
    }
    if (result.ethernet() != null) root.set("ethernet", ethernetJson(result.ethernet(), topology));
    PipelineTable pipeline = PipelineTable.of(result);
    if (pipeline != null) pipeline.json(root.putObject("pipeline"));
    if (result.ocs() != null) {
      // The OCS controller's figures (docs/optical.md, "The OCS controller").
      ObjectNode ocs = root.putObject("ocs");
      ocs.put("circuitsSetUp", result.ocs().circuitsSetUp());
      ocs.put("lastCircuitUpPs", result.ocs().lastCircuitUpPs());
      ocs.put("heldPackets", result.ocs().heldPackets());
      ocs.put("totalWaitPs", result.ocs().totalWaitPs());
      ocs.put("worstWaitPs", result.ocs().worstWaitPs());
      // Each connection-policy change's cost, in time order (empty without changes).
      ArrayNode changes = ocs.putArray("changes");
      for (OcsReport.ChangeCost c : result.ocs().changes()) {
        ObjectNode change = changes.addObject();
        change.put("atPs", c.atPs());
        change.put("formula", OcsFigures.formulaAt(result, c.atPs()).orElse(null));
        change.put("circuitsTornDown", c.circuitsTornDown());
        change.put("circuitsSetUp", c.circuitsSetUp());
        change.put("lastCircuitUpPs", c.lastCircuitUpPs());
        change.put("heldPackets", c.heldPackets());
        change.put("totalWaitPs", c.totalWaitPs());
        change.put("worstWaitPs", c.worstWaitPs());
      }
    }
    root.set("scenario", scenarioJson(scenario));
    try {
      return MAPPER.writeValueAsString(root) + "\n";
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("cannot render results as JSON", e);
    }
  }

  /**
   * The case's interval in virtual time, warm-up included ({@link CaseResult#startPs()}): {@code startPs},
   * {@code endPs} and the same as text, {@code start} and {@code end}; null when the ranks did not report it.
   */
  static void putCaseInterval(ObjectNode n, CaseResult c) {
    if (!c.caseTimed()) {
      n.putNull("startPs");
      n.putNull("endPs");
      n.putNull("start");
      n.putNull("end");
      return;
    }
    n.put("startPs", c.startPs());
    n.put("endPs", c.endPs());
    n.put("start", Units.format(c.startPs()));
    n.put("end", Units.format(c.endPs()));
  }

  /**
   * The CSV document: {@value #CSV_HEADER}, one row per case in workload order ({@link CaseFigures#csvFields()}):
   * latencies in microseconds, algbw and busbw in GB/s as nccl-tests computes them (over the whole buffer for the
   * collectives whose size is one block per rank, like the nccl table), {@code checked} false for a synthetic
   * payload (whose {@code wrong} is then 0 without meaning), {@code inc_used} and {@code inc_reason} empty unless
   * the algorithm is in-network. Fields are quoted as RFC 4180 says (the topology's description holds commas).
   */
  public static String toCsv(RunResult result, Topology topology) {
    return Csv.table(CaseFigures.CSV_HEADER, caseFigures(result, topology).stream().map(CaseFigures::csvFields)
        .toList());
  }

  /**
   * The figures of each finished case of {@code result}, in workload order, as {@code results.csv} and the report
   * show them; {@code topology} (may be null) gives the topology's description.
   */
  public static List<CaseFigures> caseFigures(RunResult result, Topology topology) {
    ScenarioSpec spec = result.scenario();
    WorkloadSpec w = spec.workload();
    int ranks = ReportFormatter.ranks(spec);
    double factor = ReportFormatter.busBandwidthFactor(w.collective(), ranks);
    String topologyText = topology == null ? spec.topology().configName() : topology.description();
    String op = w.collective().reduces() ? w.op().configName() : "none";
    List<CaseFigures> figures = new ArrayList<>();
    for (CaseResult c : result.cases()) {
      Algorithm asked = w.algorithmOfCase(c.caseIndex());
      double algBw = ReportFormatter.algBandwidthGBps(ReportFormatter.algorithmBytes(w, c, ranks), c.avgLatencyPs());
      figures.add(new CaseFigures(c.caseIndex(), spec.name(), topologyText, ranks, spec.topology().hosts(), w.ppn(),
          w.collective().configName(), c.algorithm().configName(), asked.configName(), asked.inNetwork(),
          w.bufferLayoutOfCase(c.caseIndex()).configName(), c.sizeBytes(), c.count(), w.dataType().configName(), op,
          c.iterations(),
          c.avgLatencyPs() / Units.PS_PER_US, c.minLatencyPs() / Units.PS_PER_US, c.maxLatencyPs() / Units.PS_PER_US,
          algBw, algBw * factor, c.wrongElements(), c.checked(),
          c.incOutcome() == null ? null : c.incOutcome() == FailCause.NONE,
          c.incOutcome() == null ? null : c.incOutcome().description(),
          c.caseTimed() ? c.startPs() / (double) Units.PS_PER_US : Double.NaN,
          c.caseTimed() ? c.endPs() / (double) Units.PS_PER_US : Double.NaN));
    }
    return figures;
  }

  /**
   * Writes {@code content} to {@code file} through a temporary file in the same folder and an atomic move (a plain
   * replacing move where the file system cannot move atomically). On failure the temporary file is removed and
   * {@code file} is untouched.
   */
  public static void writeAtomically(Path file, String content) throws IOException {
    writeAtomically(file, content.getBytes(StandardCharsets.UTF_8));
  }

  /** {@link #writeAtomically(Path, String)} for bytes (the plot images). */
  public static void writeAtomically(Path file, byte[] content) throws IOException {
    Path dir = file.toAbsolutePath().getParent();
    Path tmp = Files.createTempFile(dir, "." + file.getFileName(), ".tmp");
    try {
      Files.write(tmp, content);
      // A temporary file is created owner-only; results are ordinary files, readable like any other output.
      if (tmp.getFileSystem().supportedFileAttributeViews().contains("posix")) {
        Files.setPosixFilePermissions(tmp, PosixFilePermissions.fromString("rw-r--r--"));
      }
      try {
        Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
      } catch (AtomicMoveNotSupportedException e) {
        Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING);
      }
    } finally {
      Files.deleteIfExists(tmp);
    }
  }

  /**
   * The {@code rings} object: where the scenario's rings came from, its summary and warnings, the rings (host ids in
   * ring order), and per embedded-ring algorithm of the workload the directed links its rings take (with the rings
   * on each) and the links none of them takes ({@link RingUsage}).
   */
  private static ObjectNode ringsJson(ScenarioSpec spec, Topology topology) {
    RingEmbedding embedding = spec.rings();
    ObjectNode rings = MAPPER.createObjectNode();
    rings.put("source", embedding.source().configName());
    rings.put("summary", embedding.summary());
    ArrayNode warnings = rings.putArray("warnings");
    embedding.warnings().forEach(warnings::add);
    ArrayNode list = rings.putArray("rings");
    for (List<Integer> ring : embedding.rings()) {
      ArrayNode hosts = list.addArray();
      ring.forEach(hosts::add);
    }
    ArrayNode algorithms = rings.putArray("algorithms");
    for (RingUsage usage : RingUsage.of(spec, topology)) {
      ObjectNode a = algorithms.addObject();
      a.put("algorithm", usage.algorithm().configName());
      ArrayNode labels = a.putArray("rings");
      usage.rings().forEach(labels::add);
      a.put("usedLinks", usage.used().size());
      a.put("idleLinks", usage.idle().size());
      arcsJson(a.putArray("used"), usage.used(), topology);
      arcsJson(a.putArray("idle"), usage.idle(), topology);
    }
    return rings;
  }

  private static void arcsJson(ArrayNode out, List<RingUsage.Arc> arcs, Topology topology) {
    for (RingUsage.Arc arc : arcs) {
      ObjectNode n = out.addObject();
      n.put("from", deviceName(topology, arc.from()));
      n.put("to", deviceName(topology, arc.to()));
      n.put("fromDevice", arc.from());
      n.put("toDevice", arc.to());
      n.put("port", arc.port());
      n.put("parallel", arc.parallelIndex());
      n.put("parallelLinks", arc.parallelLinks());
      if (!arc.rings().isEmpty()) {
        ArrayNode on = n.putArray("rings");
        arc.rings().forEach(on::add);
      }
    }
  }

  /**
   * The {@code ethernet} object: per I/O NIC its counters and final address table (MAC, node, via node or null for
   * the direct route, "cut off"), per external host its frames, the nodes' frames, the frames lost and the
   * management node's changes.
   */
  private static ObjectNode ethernetJson(EthernetReport report, Topology topology) {
    ObjectNode ethernet = MAPPER.createObjectNode();
    ArrayNode nics = ethernet.putArray("ioNics");
    for (EthernetReport.IoNicCounters n : report.ioNics()) {
      ObjectNode nic = nics.addObject();
      nic.put("node", topology.vertexName(n.host()));
      nic.put("enabled", n.enabled());
      nic.put("framesIn", n.framesIn());
      nic.put("fcsDrops", n.fcsDrops());
      nic.put("tableHits", n.tableHits());
      nic.put("broadcasts", n.broadcasts());
      nic.put("framesOut", n.framesOut());
      nic.put("disabledDrops", n.disabledDrops());
      ArrayNode table = nic.putArray("table");
      for (AddressTable.Entry e : n.table()) {
        ObjectNode entry = table.addObject();
        entry.put("mac", MacAddress.format(e.mac()));
        entry.put("node", topology.vertexName(e.node()));
        if (e.via() >= 0) {
          entry.put("via", topology.vertexName(e.via()));
        } else if (e.via() == DetourTable.CUT_OFF) {
          entry.put("via", "cut off");
        } else {
          entry.putNull("via");
        }
      }
    }
    ArrayNode hosts = ethernet.putArray("externalHosts");
    for (EthernetReport.ExternalHostCounters h : report.externalHosts()) {
      ObjectNode host = hosts.addObject();
      host.put("mac", MacAddress.format(MacAddress.ofExternalHost(h.index())));
      host.put("sent", h.sent());
      host.put("received", h.received());
      host.put("wrong", h.wrong());
    }
    ObjectNode nodes = ethernet.putObject("nodes");
    nodes.put("framesKept", report.framesKept());
    nodes.put("framesDiscarded", report.framesDiscarded());
    nodes.put("framesWrong", report.framesWrong());
    ethernet.put("corruptedSent", report.corruptedSent());
    ethernet.put("framesLost", report.framesLost());
    ethernet.put("noCableDrops", report.noCableDrops());
    ArrayNode changes = ethernet.putArray("changes");
    report.changes().forEach(changes::add);
    return ethernet;
  }

  /** {@code value}, or null where it is negative (the fault records' "none"). */
  static void putOrNull(ObjectNode n, String key, long value) {
    if (value < 0) n.putNull(key);
    else n.put(key, value);
  }

  private static JsonNode scenarioJson(Config scenario) {
    if (scenario == null) return MAPPER.nullNode();
    try {
      return MAPPER.readTree(scenario.root().render(ConfigRenderOptions.concise()));
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("cannot render the scenario as JSON", e);
    }
  }

  static String deviceName(Topology topology, int id) {
    return id >= 0 && id < topology.vertexCount() ? topology.vertex(id).name() : "device" + id;
  }
}
