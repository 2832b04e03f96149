package io.fabemu.cluster.scenario;

import static io.fabemu.cluster.scenario.DocTableBounds.bytesRange;
import static io.fabemu.cluster.scenario.DocTableBounds.count;
import static io.fabemu.cluster.scenario.DocTableBounds.duration;
import static io.fabemu.cluster.scenario.DocTableBounds.powerOfTen;
import static io.fabemu.cluster.scenario.DocTableBounds.problems;
import static io.fabemu.cluster.scenario.DocTableBounds.range;
import static io.fabemu.cluster.scenario.DocTableBounds.rate;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabemu.cluster.scenario.DocTableBounds.Bound;
import io.fabemu.collectives.EmbeddedRings;
import io.fabemu.collectives.PipelineSpec;
import io.fabemu.collectives.Schedules;
import io.fabemu.collectives.WorkloadSpec;
import io.fabemu.core.ethernet.EthernetFrame;
import io.fabemu.core.ethernet.FramePayloads;
import io.fabemu.core.ethernet.MacAddress;
import io.fabemu.core.rings.RingEmbedding;
import io.fabemu.nic.IncNicSpec;
import io.fabemu.node.HostSpec;
import java.io.IOException;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Every bound the scenario loader enforces is stated in the docs (issue 34): docs/scenario-format.md, in the row of
 * its key and in its Limits table, and the global ones in docs/reliability.md's table of the loader's limits.
 *
 * <p>The bounds are a curated list, each written from the constant the loader checks against and formatted as the
 * docs write numbers ({@code 1,048,576}, {@code 1..65,536}, {@code 64 KiB}, {@code 1 s}, {@code 10⁹}), so a changed
 * constant fails this test until the docs follow. Every {@code MAX_*} and {@code MIN_*} constant of the loader's
 * package must be named by at least one bound, so a new limit fails it until it is documented.
 */
class DocumentedLimitsTest {
  private static final Path FORMAT = Path.of("../docs/scenario-format.md");
  private static final Path RELIABILITY = Path.of("../docs/reliability.md");
  private static final String LIMITS = "## Limits";
  private static final String RELIABILITY_LIMITS = "## Limits the loader enforces";

  @Test
  void shouldStateEveryBoundInTheRowOfItsKeyWhenReadingScenarioFormat() throws IOException {
    assertThat(problems(read(FORMAT), formatBounds())).isEmpty();
  }

  @Test
  void shouldStateTheGlobalBoundsWhenReadingReliability() throws IOException {
    assertThat(problems(read(RELIABILITY), reliabilityBounds())).isEmpty();
  }

  @Test
  void shouldNameEveryMaxAndMinConstantOfTheLoaderWhenListingBounds() throws Exception {
    Set<String> named = Stream.concat(formatBounds().stream(), reliabilityBounds().stream()).map(Bound::constant)
        .collect(Collectors.toSet());
    Set<String> constants = loaderLimitConstants();
    // The scan must see the loader's own limits, or it proves nothing.
    assertThat(constants).contains("ScenarioLoader.MAX_HOSTS", "EthernetSection.MAX_FRAMES",
        "ScenarioSource.MAX_FILE_BYTES", "Quantities.MIN_CYCLE_PS");
    assertThat(constants).allSatisfy(c -> assertThat(named).as("a documented bound from %s", c).contains(c));
  }

  /** The bounds docs/scenario-format.md states, in the order of its sections. */
  static List<Bound> formatBounds() {
    List<Bound> b = new ArrayList<>();
    String units = "## Units";
    b.add(new Bound("Quantities.MIN_CYCLE_PS", units, "frequency", "below " + Quantities.MIN_CYCLE_PS + " ps"));
    b.add(new Bound("Quantities.MAX_CYCLE_ROUNDING", units, "frequency",
        "more than " + Quantities.MAX_CYCLE_ROUNDING.movePointRight(2).toPlainString() + " %"));

    String topology = "## `topology`";
    b.add(new Bound("ScenarioLoader.MAX_HOSTS", topology, "`hosts`", "≤ " + count(ScenarioLoader.MAX_HOSTS)));
    b.add(new Bound("ScenarioLoader.MAX_FULL_MESH_HOSTS", topology, "`hosts`",
        "full mesh: ≤ " + count(ScenarioLoader.MAX_FULL_MESH_HOSTS)));
    b.add(new Bound("ScenarioLoader.MAX_SPINES", topology, "`spines`", "≤ " + count(ScenarioLoader.MAX_SPINES)));
    b.add(new Bound("ScenarioLoader.MAX_TOR_SPINE_CABLES", topology, "`spines`",
        "TORs × spines ≤ " + count(ScenarioLoader.MAX_TOR_SPINE_CABLES)));
    b.add(new Bound("ScenarioLoader.MAX_HOSTS", topology, "`dimensions`", "≤ " + count(ScenarioLoader.MAX_HOSTS)));
    b.add(new Bound("ScenarioLoader.MAX_HOSTS", topology, "`nodes-per-group`",
        "≤ " + count(ScenarioLoader.MAX_HOSTS)));
    b.add(new Bound("PrismSection.MAX_PRISM_HOSTS", topology, "`layers`",
        "≤ " + count(PrismSection.MAX_PRISM_HOSTS)));
    b.add(new Bound("OpticalSection.MAX_OPTICAL_HOSTS", topology, "`npus-per-server`",
        "M × N ≤ " + count(OpticalSection.MAX_OPTICAL_HOSTS)));
    b.add(new Bound("RailLeafSpineSection.MAX_NICS_PER_SERVER", topology, "`nics-per-server`",
        range(1, RailLeafSpineSection.MAX_NICS_PER_SERVER)));
    b.add(new Bound("ScenarioLoader.MAX_FULL_MESH_HOSTS", topology, "`intra-server`",
        "N ≤ " + count(ScenarioLoader.MAX_FULL_MESH_HOSTS)));
    b.add(new Bound("ScenarioLoader.MAX_DURATION_PS", topology, "`ocs.reconfiguration-delay`",
        "≤ " + duration(ScenarioLoader.MAX_DURATION_PS)));
    b.add(new Bound("OpticalSection.MAX_POLICY_CHANGES", topology, "`ocs.reconfigure`",
        "at most " + count(OpticalSection.MAX_POLICY_CHANGES) + " changes"));
    b.add(new Bound("ScenarioLoader.MAX_HOSTS", topology, "`pods`", "≤ " + count(ScenarioLoader.MAX_HOSTS)));
    b.add(new Bound("ScenarioLoader.MAX_SPINES", topology, "`aggregations-per-pod`",
        "≤ " + count(ScenarioLoader.MAX_SPINES)));
    b.add(new Bound("ScenarioLoader.MAX_TOR_SPINE_CABLES", topology, "`aggregations-per-pod`",
        "pods × leaves × A ≤ " + count(ScenarioLoader.MAX_TOR_SPINE_CABLES)));
    b.add(new Bound("ScenarioLoader.MAX_SPINES", topology, "`cores`", "≤ " + count(ScenarioLoader.MAX_SPINES)));
    b.add(new Bound("ScenarioLoader.MAX_TOR_SPINE_CABLES", topology, "`cores`",
        "pods × C ≤ " + count(ScenarioLoader.MAX_TOR_SPINE_CABLES)));

    b.add(new Bound("ScenarioLoader.MAX_SOCKETS", "### `devices.host`", "`sockets-per-node`",
        range(1, ScenarioLoader.MAX_SOCKETS)));
    b.add(new Bound("HostSpec.MAX_ENGINES", "### `devices.host`", "`engines`", range(1, HostSpec.MAX_ENGINES)));
    String nic = "### `devices.nic`";
    b.add(new Bound("ScenarioLoader.MAX_PACKET_BYTES", nic, "`segment-size`",
        "`segment-size + header-bytes` ≤ " + Quantities.formatBytes(ScenarioLoader.MAX_PACKET_BYTES)));
    b.add(new Bound("ScenarioLoader.MAX_HEADER_BYTES", nic, "`header-bytes`",
        "≤ " + Quantities.formatBytes(ScenarioLoader.MAX_HEADER_BYTES)));

    String router = "### `devices.router`";
    b.add(new Bound("Quantities.MIN_CYCLE_PS", router, "`clock`", "cycle ≥ " + Quantities.MIN_CYCLE_PS + " ps"));
    b.add(new Bound("Quantities.MIN_CYCLE_PS", router, "`clock`", "≤ " + fastestClockGhz() + " GHz"));
    b.add(new Bound("ScenarioLoader.MAX_DURATION_PS", router, "`clock`",
        "≤ " + duration(ScenarioLoader.MAX_DURATION_PS)));
    b.add(new Bound("ScenarioLoader.MAX_FLIT_BYTES", router, "`flit-bytes`",
        bytesRange(1, ScenarioLoader.MAX_FLIT_BYTES)));
    b.add(new Bound("ScenarioLoader.MAX_VIRTUAL_CHANNELS", router, "`virtual-channels`",
        range(1, ScenarioLoader.MAX_VIRTUAL_CHANNELS)));
    b.add(new Bound("ScenarioLoader.MAX_BUFFER_DEPTH_FLITS", router, "`buffer-depth`",
        range(1, ScenarioLoader.MAX_BUFFER_DEPTH_FLITS)));
    for (String key : List.of("routing-cycles", "vc-allocation-cycles", "switch-allocation-cycles",
        "traversal-cycles")) {
      b.add(new Bound("ScenarioLoader.MAX_ROUTER_CYCLES", router, "`" + key + "`",
          range(0, ScenarioLoader.MAX_ROUTER_CYCLES)));
    }
    for (String key : List.of("link-latency-cycles", "credit-delay-cycles")) {
      b.add(new Bound("ScenarioLoader.MAX_ROUTER_CYCLES", router, "`" + key + "`",
          range(1, ScenarioLoader.MAX_ROUTER_CYCLES)));
    }
    b.add(new Bound("ScenarioLoader.MAX_DURATION_PS", router, "`stall-limit`",
        "≤ " + duration(ScenarioLoader.MAX_DURATION_PS)));

    String inc = "### `devices.inc`";
    b.add(new Bound("IncSection.MAX_INC_BYTES", inc, "`tor.max-payload`, …", bytesRange(1, IncSection.MAX_INC_BYTES)));
    b.add(new Bound("IncSection.MAX_INC_BYTES", inc, "`tor.max-data-size`, …",
        bytesRange(1, IncSection.MAX_INC_BYTES)));
    b.add(new Bound("IncSection.MAX_INC_BYTES", inc, "`nic.fragment-size`", bytesRange(1, IncSection.MAX_INC_BYTES)));
    b.add(new Bound("IncSection.MAX_AGGREGATION_SLOTS", inc, "`tor.aggregation-slots`, …",
        range(0, IncSection.MAX_AGGREGATION_SLOTS)));
    b.add(new Bound("IncSection.MAX_INC_GROUPS", inc, "`tor.max-groups`, …", range(0, IncSection.MAX_INC_GROUPS)));
    b.add(new Bound("IncSection.MAX_NIC_RETRANSMITS", inc, "`nic.max-retransmits`",
        range(0, IncSection.MAX_NIC_RETRANSMITS)));
    b.add(new Bound("IncNicSpec.MAX_STREAM_WINDOW", inc, "`nic.stream-window`",
        range(0, IncNicSpec.MAX_STREAM_WINDOW)));

    String faults = "## `faults`";
    b.add(new Bound("ScenarioLoader.MAX_HEARTBEAT_MISSES", faults, "`detection.misses`",
        "1 to " + count(ScenarioLoader.MAX_HEARTBEAT_MISSES)));
    b.add(new Bound("ScenarioLoader.MAX_RETRANSMISSIONS", faults, "`transport.max-retransmissions`",
        "0 to " + count(ScenarioLoader.MAX_RETRANSMISSIONS)));
    b.add(new Bound("ScenarioLoader.MAX_FAULT_EVENTS", faults, "`events`",
        "at most " + count(ScenarioLoader.MAX_FAULT_EVENTS)));
    String events = "### `faults.events`";
    b.add(new Bound("ScenarioLoader.MAX_DURATION_PS", events, "`at`",
        "0 to " + duration(ScenarioLoader.MAX_DURATION_PS)));
    b.add(new Bound("ScenarioLoader.MAX_FAULT_EVENTS", events, "`flap`",
        "1 to " + count(ScenarioLoader.MAX_FAULT_EVENTS / 2)));
    b.add(new Bound("ScenarioLoader.MAX_DURATION_PS", events, "`flap`",
        "at most " + duration(ScenarioLoader.MAX_DURATION_PS)));
    b.add(new Bound("ScenarioLoader.MAX_STRAGGLER_SLOWDOWN", events, "`straggler`",
        "1 to " + count((long) ScenarioLoader.MAX_STRAGGLER_SLOWDOWN)));
    b.add(new Bound("ScenarioLoader.MAX_DURATION_PS", "#### Placing an event in a case", "`offset`",
        "within " + duration(ScenarioLoader.MAX_DURATION_PS)));

    String ethernet = "## `ethernet`";
    b.add(new Bound("MacAddress.NUMBERED", ethernet, "`io-nodes`",
        "at most " + count(MacAddress.NUMBERED) + " nodes"));
    b.add(new Bound("EthernetSection.MAX_EXTERNAL_HOSTS", ethernet, "`external-hosts`",
        range(1, EthernetSection.MAX_EXTERNAL_HOSTS)));
    for (String key : List.of("traffic.inbound-frames", "traffic.outbound-frames", "traffic.unknown-mac-every")) {
      b.add(new Bound("EthernetSection.MAX_FRAMES", ethernet, "`" + key + "`", range(0, EthernetSection.MAX_FRAMES)));
    }
    b.add(new Bound("EthernetFrame.MAX_PAYLOAD_BYTES", ethernet, "`traffic.frame-bytes`",
        range(FramePayloads.MIN_BYTES, EthernetFrame.MAX_PAYLOAD_BYTES)));

    String workload = "## `workload`";
    b.add(new Bound("ScenarioLoader.MAX_PPN", workload, "`ppn`", "≤ " + count(ScenarioLoader.MAX_PPN)));
    b.add(new Bound("ScenarioLoader.MAX_WINDOW", workload, "`window`", range(1, ScenarioLoader.MAX_WINDOW)));
    b.add(new Bound("WorkloadSpec.MAX_CHANNELS", workload, "`channels`", range(1, WorkloadSpec.MAX_CHANNELS)));
    b.add(new Bound("ProtocolSection.MIN_RATE_BITS_PER_SECOND", workload, "`protocol-costs`",
        "at least `" + ProtocolSection.MIN_RATE_BITS_PER_SECOND / 1_000_000_000L + " Gbps`"));
    b.add(new Bound("ScenarioLoader.DEFAULT_MAX_SIZE_BYTES", workload, "`max-size`",
        "`" + Quantities.formatBytes(ScenarioLoader.DEFAULT_MAX_SIZE_BYTES) + "`"));

    String pipeline = "## `pipeline`";
    b.add(new Bound("PipelineSpec.MAX_MICRO_BATCHES", pipeline, "`micro-batches`",
        range(1, PipelineSpec.MAX_MICRO_BATCHES)));
    b.add(new Bound("ScenarioLoader.MAX_SIZE_BYTES", pipeline, "`global-allreduce-size`",
        "≤ " + Quantities.formatBytes(ScenarioLoader.MAX_SIZE_BYTES)));

    String rings = "## `rings`";
    b.add(new Bound("RingsSection.MAX_SEARCH_STEPS", rings, "`search-steps`",
        range(1, RingsSection.MAX_SEARCH_STEPS)));
    b.add(new Bound("RingsSection.MAX_RINGS", rings, "`max-rings`", range(0, RingsSection.MAX_RINGS)));
    b.add(new Bound("EmbeddedRings.MAX_LINE_FRAGMENTS", rings, "`line-fragments`",
        range(0, EmbeddedRings.MAX_LINE_FRAGMENTS)));

    String traffic = "## `traffic`";
    b.add(new Bound("ScenarioLoader.MAX_PACKET_FLITS", traffic, "`packet-flits`",
        range(1, ScenarioLoader.MAX_PACKET_FLITS)));
    b.add(new Bound("ScenarioLoader.MAX_TRAFFIC_LOADS", traffic, "`offered-loads`",
        "at most " + count(ScenarioLoader.MAX_TRAFFIC_LOADS)));
    b.add(new Bound("ScenarioLoader.MAX_TRAFFIC_LOADS", traffic, "`sweep.points`",
        range(1, ScenarioLoader.MAX_TRAFFIC_LOADS)));
    b.add(new Bound("ScenarioLoader.MAX_TRAFFIC_CYCLES", traffic, "`warmup-cycles`",
        "0.." + powerOfTen(ScenarioLoader.MAX_TRAFFIC_CYCLES)));
    b.add(new Bound("ScenarioLoader.MAX_TRAFFIC_CYCLES", traffic, "`measure-cycles`",
        "1.." + powerOfTen(ScenarioLoader.MAX_TRAFFIC_CYCLES)));
    b.add(new Bound("ScenarioLoader.MAX_TRAFFIC_CYCLES", traffic, "`drain-cycles`",
        "0.." + powerOfTen(ScenarioLoader.MAX_TRAFFIC_CYCLES)));

    b.addAll(limitsTable());
    return b;
  }

  /** The rows of docs/scenario-format.md's Limits table. */
  private static List<Bound> limitsTable() {
    List<Bound> b = new ArrayList<>();
    b.add(limit("ScenarioSource.MAX_FILE_BYTES", "the scenario file, each file it includes, a `pipeline.costs` file",
        Quantities.formatBytes(ScenarioSource.MAX_FILE_BYTES)));
    b.add(limit("ScenarioSource.MAX_NESTING", "the scenario file, each file it includes, a `pipeline.costs` file",
        "nesting " + ScenarioSource.MAX_NESTING + " levels deep"));
    b.add(limit("ScenarioSource.MAX_INCLUDE_DEPTH", "the scenario file, each file it includes, a `pipeline.costs` file",
        "includes " + ScenarioSource.MAX_INCLUDE_DEPTH + " files deep"));
    b.add(limit("KeySchema.MAX_KEY_CHARS", "a key; a text value", count(KeySchema.MAX_KEY_CHARS) + " characters;"));
    b.add(limit("KeySchema.MAX_TEXT_CHARS", "a key; a text value", count(KeySchema.MAX_TEXT_CHARS) + " characters"));
    String substitutions = "text added by substitutions (`${path}`), per value and in all; substitutions chained";
    b.add(limit("SubstitutionBound.MAX_EXPANSION_CHARS", substitutions,
        count(SubstitutionBound.MAX_EXPANSION_CHARS) + " characters"));
    b.add(limit("SubstitutionBound.MAX_CHAIN", substitutions, SubstitutionBound.MAX_CHAIN + " deep"));
    b.add(limit("ScenarioLoader.MAX_HOSTS", "`topology.hosts`", count(ScenarioLoader.MAX_HOSTS)));
    long fullMesh = ScenarioLoader.MAX_FULL_MESH_HOSTS;
    b.add(limit("ScenarioLoader.MAX_FULL_MESH_HOSTS", "`topology.hosts` with `kind = full-mesh`", count(fullMesh)));
    b.add(limit("ScenarioLoader.MAX_FULL_MESH_HOSTS", "`topology.hosts` with `kind = full-mesh`",
        count(fullMesh * (fullMesh - 1) / 2) + " at the limit"));
    b.add(limit("ScenarioLoader.MAX_SPINES", "`topology.spines`", count(ScenarioLoader.MAX_SPINES)));
    b.add(limit("ScenarioLoader.MAX_TOR_SPINE_CABLES", "`topology.spines`",
        "TORs × spines ≤ " + count(ScenarioLoader.MAX_TOR_SPINE_CABLES)));
    b.add(limit("ScenarioLoader.MAX_HOSTS", "router networks: product of `dimensions`, `groups × nodes-per-group`",
        count(ScenarioLoader.MAX_HOSTS)));
    b.add(limit("PrismSection.MAX_PRISM_HOSTS", "prism: `nodes-per-layer × layers`",
        count(PrismSection.MAX_PRISM_HOSTS)));
    b.add(limit("OpticalSection.MAX_OPTICAL_HOSTS", "optical: `servers × npus-per-server`",
        count(OpticalSection.MAX_OPTICAL_HOSTS)));
    b.add(limit("RailLeafSpineSection.MAX_NICS_PER_SERVER", "rail-leaf-spine: `nics-per-server`",
        count(RailLeafSpineSection.MAX_NICS_PER_SERVER)));
    b.add(limit("ScenarioLoader.MAX_FULL_MESH_HOSTS", "optical: `npus-per-server` with `intra-server.kind = full-mesh`",
        count(fullMesh)));
    b.add(limit("OpticalSection.MAX_POLICY_CHANGES", "optical: `ocs.reconfigure`",
        count(OpticalSection.MAX_POLICY_CHANGES) + " changes"));
    b.add(limit("ScenarioLoader.MAX_FLIT_BYTES", "`devices.router.flit-bytes`",
        Quantities.formatBytes(ScenarioLoader.MAX_FLIT_BYTES)));
    b.add(limit("ScenarioLoader.MAX_VIRTUAL_CHANNELS", "`devices.router.virtual-channels`",
        count(ScenarioLoader.MAX_VIRTUAL_CHANNELS)));
    b.add(limit("ScenarioLoader.MAX_BUFFER_DEPTH_FLITS", "`devices.router.buffer-depth`",
        count(ScenarioLoader.MAX_BUFFER_DEPTH_FLITS) + " flits"));
    b.add(limit("ScenarioLoader.MAX_ROUTER_CYCLES", "every `devices.router.*-cycles`",
        count(ScenarioLoader.MAX_ROUTER_CYCLES)));
    b.add(limit("Quantities.MIN_CYCLE_PS", "`devices.router.clock`", "cycle ≥ " + Quantities.MIN_CYCLE_PS + " ps"));
    b.add(limit("Quantities.MIN_CYCLE_PS", "`devices.router.clock`", "≤ " + fastestClockGhz() + " GHz"));
    b.add(limit("ScenarioLoader.MAX_DURATION_PS", "`devices.router.clock`",
        "≤ " + duration(ScenarioLoader.MAX_DURATION_PS)));
    b.add(limit("ScenarioLoader.MAX_SOCKETS", "`devices.host.sockets-per-node`", count(ScenarioLoader.MAX_SOCKETS)));
    b.add(limit("IncSection.MAX_INC_BYTES",
        "`devices.inc.*.max-payload`, `devices.inc.*.max-data-size`, `devices.inc.nic.fragment-size`",
        Quantities.formatBytes(IncSection.MAX_INC_BYTES)));
    b.add(limit("IncSection.MAX_AGGREGATION_SLOTS", "`devices.inc.*.aggregation-slots`",
        count(IncSection.MAX_AGGREGATION_SLOTS)));
    b.add(limit("IncSection.MAX_INC_GROUPS", "`devices.inc.*.max-groups`", count(IncSection.MAX_INC_GROUPS)));
    b.add(limit("IncSection.MAX_NIC_RETRANSMITS", "`devices.inc.nic.max-retransmits`",
        count(IncSection.MAX_NIC_RETRANSMITS)));
    b.add(limit("IncNicSpec.MAX_STREAM_WINDOW", "`devices.inc.nic.stream-window`",
        count(IncNicSpec.MAX_STREAM_WINDOW)));
    b.add(limit("LeafSpineSection.MAX_INC_COUNT",
        "`inc-node`, `inc-socket`: TORs; leaders under one TOR (`hosts-per-tor` × INC groups)",
        count(LeafSpineSection.MAX_INC_COUNT) + " each"));
    b.add(limit("ScenarioLoader.MAX_PPN", "`workload.ppn`", count(ScenarioLoader.MAX_PPN)));
    b.add(limit("ScenarioLoader.MAX_RANKS", "ranks, `hosts × ppn`", count(ScenarioLoader.MAX_RANKS)));
    b.add(limit("ScenarioLoader.MAX_HEADER_BYTES", "`devices.nic.header-bytes`",
        Quantities.formatBytes(ScenarioLoader.MAX_HEADER_BYTES)));
    b.add(limit("ScenarioLoader.MAX_PACKET_BYTES", "`segment-size + header-bytes`",
        Quantities.formatBytes(ScenarioLoader.MAX_PACKET_BYTES)));
    b.add(limit("ScenarioLoader.MAX_DURATION_PS", "every duration (`*-latency`, `*-overhead`)",
        duration(ScenarioLoader.MAX_DURATION_PS)));
    b.add(limit("ScenarioLoader.MAX_RATE_BITS_PER_SECOND", "every rate (`bandwidth`, `*-rate`, `*-bandwidth`)",
        rate(ScenarioLoader.MAX_RATE_BITS_PER_SECOND)));
    b.add(limit("ScenarioLoader.MAX_SIZE_BYTES", "message size (`sizes`, `min-size`, `max-size`)",
        Quantities.formatBytes(ScenarioLoader.MAX_SIZE_BYTES) + " per rank"));
    b.add(limit("ScenarioLoader.MAX_WINDOW", "`workload.window`", count(ScenarioLoader.MAX_WINDOW)));
    b.add(limit("ScenarioLoader.MAX_PACKET_FLITS", "`traffic.packet-flits`", count(ScenarioLoader.MAX_PACKET_FLITS)));
    b.add(limit("ScenarioLoader.MAX_TRAFFIC_LOADS", "traffic loads (`offered-loads`, `sweep.points`)",
        count(ScenarioLoader.MAX_TRAFFIC_LOADS)));
    b.add(limit("ScenarioLoader.MAX_TRAFFIC_CYCLES", "each `traffic.*-cycles`",
        powerOfTen(ScenarioLoader.MAX_TRAFFIC_CYCLES)));
    b.add(limit("ScenarioLoader.MAX_DURATION_PS", "each `traffic.*-cycles`",
        "≤ " + duration(ScenarioLoader.MAX_DURATION_PS)));
    b.add(limit("ScenarioLoader.MAX_MEASURED_PACKETS",
        "packets measured per load: nodes × `measure-cycles` × highest load / `packet-flits`",
        count(ScenarioLoader.MAX_MEASURED_PACKETS)));
    b.add(limit("ScenarioLoader.MAX_FAULT_EVENTS", "`faults.events`, each flap counting as `2 × count`",
        count(ScenarioLoader.MAX_FAULT_EVENTS)));
    String detection = "`faults.detection.misses`, `faults.transport.max-retransmissions`";
    b.add(limit("ScenarioLoader.MAX_HEARTBEAT_MISSES", detection, count(ScenarioLoader.MAX_HEARTBEAT_MISSES)));
    b.add(limit("ScenarioLoader.MAX_RETRANSMISSIONS", detection, count(ScenarioLoader.MAX_RETRANSMISSIONS)));
    b.add(limit("ScenarioLoader.MAX_STRAGGLER_SLOWDOWN", "straggler `slowdown`",
        count((long) ScenarioLoader.MAX_STRAGGLER_SLOWDOWN)));
    b.add(limit("EthernetSection.MAX_FRAMES",
        "`ethernet.traffic.inbound-frames`, `outbound-frames`, `unknown-mac-every`",
        count(EthernetSection.MAX_FRAMES)));
    b.add(limit("EthernetSection.MAX_EXTERNAL_HOSTS", "`ethernet.external-hosts`; nodes of a topology with I/O nodes",
        count(EthernetSection.MAX_EXTERNAL_HOSTS)));
    b.add(limit("MacAddress.NUMBERED", "`ethernet.external-hosts`; nodes of a topology with I/O nodes",
        count(MacAddress.NUMBERED)));
    b.add(limit("EthernetFrame.MAX_PAYLOAD_BYTES", "`ethernet.traffic.frame-bytes`",
        range(FramePayloads.MIN_BYTES, EthernetFrame.MAX_PAYLOAD_BYTES)));
    b.add(limit("RingsSection.MAX_SEARCH_STEPS", "`rings.search-steps`", powerOfTen(RingsSection.MAX_SEARCH_STEPS)));
    b.add(limit("RingsSection.MAX_RINGS", "`rings.max-rings`", count(RingsSection.MAX_RINGS)));
    b.add(limit("EmbeddedRings.MAX_LINE_FRAGMENTS", "`rings.line-fragments`",
        count(EmbeddedRings.MAX_LINE_FRAGMENTS)));
    b.add(limit("RingEmbedding.MAX_HOSTS", "hosts of an embedding of rings", count(RingEmbedding.MAX_HOSTS)));
    b.add(limit("EmbeddedRings.MAX_RINGS_PER_HOP", "`multi-ring`: rings using one hop",
        count(EmbeddedRings.MAX_RINGS_PER_HOP)));
    b.add(limit("PipelineSpec.MAX_MICRO_BATCHES", "`pipeline.micro-batches`", count(PipelineSpec.MAX_MICRO_BATCHES)));
    b.add(limit("ScenarioLoader.MAX_SIZE_BYTES", "`pipeline.global-allreduce-size`",
        Quantities.formatBytes(ScenarioLoader.MAX_SIZE_BYTES)));
    b.add(limit("Integer.MAX_VALUE",
        "any other whole number (`iterations`, `warmup`, `root`, `hosts-per-tor`, `at.case`, …)",
        count(Integer.MAX_VALUE)));
    return b;
  }

  /** The bounds of docs/reliability.md's table of the loader's limits: those that hold for a whole scenario. */
  static List<Bound> reliabilityBounds() {
    String h = RELIABILITY_LIMITS;
    String file = "a scenario file, each file it includes, a `pipeline.costs` file";
    String substitutions = "text added by substitutions, per value and in all; substitutions chained";
    return List.of(
        new Bound("ScenarioSource.MAX_FILE_BYTES", h, file, Quantities.formatBytes(ScenarioSource.MAX_FILE_BYTES)),
        new Bound("ScenarioSource.MAX_NESTING", h, "nesting of objects, lists and dotted key paths",
            ScenarioSource.MAX_NESTING + " levels"),
        new Bound("ScenarioSource.MAX_INCLUDE_DEPTH", h, "a chain of includes",
            ScenarioSource.MAX_INCLUDE_DEPTH + " files"),
        new Bound("KeySchema.MAX_KEY_CHARS", h, "a key; a text value", count(KeySchema.MAX_KEY_CHARS) + " characters"),
        new Bound("KeySchema.MAX_TEXT_CHARS", h, "a key; a text value",
            count(KeySchema.MAX_TEXT_CHARS) + " characters"),
        new Bound("SubstitutionBound.MAX_EXPANSION_CHARS", h, substitutions,
            count(SubstitutionBound.MAX_EXPANSION_CHARS) + " characters"),
        new Bound("SubstitutionBound.MAX_CHAIN", h, substitutions, SubstitutionBound.MAX_CHAIN + " deep"),
        new Bound("ScenarioLoader.MAX_HOSTS", h, "hosts", count(ScenarioLoader.MAX_HOSTS)),
        new Bound("ScenarioLoader.MAX_FULL_MESH_HOSTS", h, "hosts",
            "full mesh " + count(ScenarioLoader.MAX_FULL_MESH_HOSTS)),
        new Bound("PrismSection.MAX_PRISM_HOSTS", h, "hosts", "prism and optical "
            + count(PrismSection.MAX_PRISM_HOSTS)),
        new Bound("OpticalSection.MAX_OPTICAL_HOSTS", h, "hosts", "prism and optical "
            + count(OpticalSection.MAX_OPTICAL_HOSTS)),
        new Bound("ScenarioLoader.MAX_RANKS", h, "ranks, `hosts × ppn`", count(ScenarioLoader.MAX_RANKS)),
        new Bound("ScenarioLoader.MAX_PPN", h, "ranks, `hosts × ppn`", "`ppn` ≤ " + count(ScenarioLoader.MAX_PPN)),
        new Bound("ScenarioLoader.MAX_SIZE_BYTES", h, "message size",
            Quantities.formatBytes(ScenarioLoader.MAX_SIZE_BYTES) + " per rank"),
        new Bound("Schedules.MAX_BUFFER_ELEMENTS", h, "message size",
            count(Schedules.MAX_BUFFER_ELEMENTS) + " elements"),
        new Bound("ScenarioLoader.MAX_DURATION_PS", h, "every duration; every rate",
            duration(ScenarioLoader.MAX_DURATION_PS) + ";"),
        new Bound("ScenarioLoader.MAX_RATE_BITS_PER_SECOND", h, "every duration; every rate",
            rate(ScenarioLoader.MAX_RATE_BITS_PER_SECOND)),
        new Bound("Quantities.MIN_CYCLE_PS", h, "a router clock's cycle", "≥ " + Quantities.MIN_CYCLE_PS + " ps"),
        new Bound("ScenarioLoader.MAX_FAULT_EVENTS", h, "fault events, a flap counting as `2 × count`",
            count(ScenarioLoader.MAX_FAULT_EVENTS)),
        new Bound("ScenarioLoader.MAX_TRAFFIC_LOADS", h, "traffic loads; packets measured per load",
            count(ScenarioLoader.MAX_TRAFFIC_LOADS) + ";"),
        new Bound("ScenarioLoader.MAX_MEASURED_PACKETS", h, "traffic loads; packets measured per load",
            count(ScenarioLoader.MAX_MEASURED_PACKETS)),
        new Bound("Integer.MAX_VALUE", h, "any other whole number", count(Integer.MAX_VALUE)));
  }

  private static Bound limit(String constant, String firstCell, String text) {
    return new Bound(constant, LIMITS, firstCell, text);
  }

  /**
   * The {@code MAX_*} and {@code MIN_*} numeric constants of the loader's package, as {@code Class.FIELD}: every
   * bound a section of the loader declares.
   */
  private static Set<String> loaderLimitConstants() throws URISyntaxException, IOException, ClassNotFoundException {
    Path classes = Path.of(ScenarioLoader.class.getProtectionDomain().getCodeSource().getLocation().toURI());
    String pkg = ScenarioLoader.class.getPackageName();
    Path dir = classes.resolve(pkg.replace('.', '/'));
    Set<String> out = new TreeSet<>();
    List<Path> files;
    try (Stream<Path> list = Files.list(dir)) {
      files = list.filter(p -> p.getFileName().toString().endsWith(".class")).toList();
    }
    for (Path file : files) {
      String name = file.getFileName().toString().replaceFirst("\\.class$", "");
      Class<?> c = Class.forName(pkg + "." + name, false, ScenarioLoader.class.getClassLoader());
      for (Field f : c.getDeclaredFields()) {
        boolean limit = f.getName().startsWith("MAX_") || f.getName().startsWith("MIN_");
        boolean numeric = f.getType().isPrimitive() || Number.class.isAssignableFrom(f.getType());
        if (limit && numeric && Modifier.isStatic(f.getModifiers())) out.add(c.getSimpleName() + "." + f.getName());
      }
    }
    return out;
  }

  private static String read(Path file) throws IOException {
    return Files.readString(file, StandardCharsets.UTF_8);
  }

  /** The fastest router clock, whose cycle is the shortest the loader takes: {@code 500} (GHz) for 2 ps. */
  private static long fastestClockGhz() {
    return 1_000L / Quantities.MIN_CYCLE_PS;
  }
}
