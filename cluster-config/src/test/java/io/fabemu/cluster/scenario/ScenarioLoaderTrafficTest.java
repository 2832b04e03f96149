package io.fabemu.cluster.scenario;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import com.typesafe.config.ConfigFactory;
import com.typesafe.config.ConfigRenderOptions;
import io.fabemu.core.router.Switching;
import io.fabemu.core.traffic.HotSpot;
import io.fabemu.core.traffic.LoadSweep;
import io.fabemu.core.traffic.TrafficPattern;
import io.fabemu.core.traffic.TrafficSpec;
import io.fabemu.fabric.ScenarioSpec;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.assertj.core.api.AbstractThrowableAssert;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The {@code traffic} section: synthetic traffic on a router network, its defaults, errors and echo. */
class ScenarioLoaderTrafficTest {
  private static final String MESH_8X8 = "topology { kind = mesh, dimensions = [8, 8] }\n";
  private static final String MESH_4X4 = "topology.kind = mesh\n";

  private static ScenarioSpec load(String text) {
    return ScenarioLoader.parse(text, "x.conf").spec();
  }

  private static TrafficSpec traffic(String text) {
    return load(text).traffic();
  }

  private static AbstractThrowableAssert<?, ? extends Throwable> assertError(String text) {
    return assertThatThrownBy(() -> ScenarioLoader.parse(text, "x.conf")).isInstanceOf(ScenarioException.class);
  }

  // ------------------------------------------------------------------------------ keys and defaults

  @Test
  void shouldApplyTheWorkloadsRulesBesideATrafficSection() {
    // The traffic section decides what runs; the workload's rules still hold, as without it.
    for (String traffic : List.of("", "traffic {}\n")) {
      assertError(MESH_4X4 + "workload {\n  algorithms = [multi-ring]\n  ppn = 2\n}\n" + traffic)
          .hasMessage("x.conf:4: workload.ppn: multi-ring runs one rank per node on the embedded rings; set ppn = 1");
      assertError(MESH_4X4 + "workload {\n  algorithms = [single-ring]\n  hierarchical = true\n}\n" + traffic)
          .hasMessageStartingWith("x.conf:4: workload.hierarchical: single-ring runs on every rank");
    }
  }

  @Test
  void shouldReadEveryTrafficKeyWhenGiven() {
    TrafficSpec spec = traffic(MESH_8X8 + """
        traffic {
          pattern = transpose
          packet-flits = 8
          offered-loads = [0.05, 0.1, 0.3]
          warmup-cycles = 500
          measure-cycles = 2000
          drain-cycles = 3000
        }
        """);

    assertThat(spec).isEqualTo(new TrafficSpec(TrafficPattern.TRANSPOSE, null, 8, List.of(0.05, 0.1, 0.3), 500,
        2000, 3000));

    TrafficSpec hot = traffic(MESH_4X4 + """
        traffic {
          pattern = hot-spot
          hot-spot { nodes = [5, 0], fraction = 0.25 }
          offered-loads = ["0.5", 1]
        }
        """);
    assertThat(hot.pattern()).isEqualTo(TrafficPattern.HOT_SPOT);
    assertThat(hot.hotSpot()).isEqualTo(new HotSpot(List.of(5, 0), 0.25));
    assertThat(hot.offeredFlitsPerNodeCycle()).containsExactly(0.5, 1.0);
  }

  @Test
  void shouldReadEveryPatternByItsName() {
    for (TrafficPattern pattern : TrafficPattern.values()) {
      String hotSpot = pattern == TrafficPattern.HOT_SPOT ? ", hot-spot { nodes = [3], fraction = 1 }" : "";
      assertThat(traffic(MESH_4X4 + "traffic { pattern = " + pattern.configName() + hotSpot + " }").pattern())
          .isEqualTo(pattern);
    }
  }

  @Test
  void shouldGiveBookSimLikeDefaultsWhenTheSectionIsWrittenEmpty() {
    TrafficSpec spec = traffic(MESH_8X8 + "traffic {}");

    assertThat(spec).isEqualTo(new TrafficSpec(TrafficPattern.UNIFORM, null, 4,
        LoadSweep.evenlySpacedLoads(0.02, 0.40, 20), 1000, 10000, 10000));
    List<Double> loads = spec.offeredFlitsPerNodeCycle();
    assertThat(loads).hasSize(20);
    for (int i = 0; i < loads.size(); i++) {
      assertThat(loads.get(i)).isCloseTo(0.02 * (i + 1), within(1e-12));
    }
    assertThat(loads.get(19)).isEqualTo(0.40);
  }

  @Test
  void shouldExpandTheSweepIntoEvenlySpacedLoads() {
    List<Double> loads = traffic(MESH_4X4 + "traffic.sweep { from = 0.1, to = 0.5, points = 5 }")
        .offeredFlitsPerNodeCycle();
    assertThat(loads).hasSize(5).isEqualTo(LoadSweep.evenlySpacedLoads(0.1, 0.5, 5));
    assertThat(loads.get(0)).isEqualTo(0.1);
    assertThat(loads.get(2)).isCloseTo(0.3, within(1e-12));
    assertThat(loads.get(4)).isEqualTo(0.5);
    // The keys left out keep the defaults' sweep: from 0.02 to 0.40.
    List<Double> threePoints = traffic(MESH_4X4 + "traffic.sweep.points = 3").offeredFlitsPerNodeCycle();
    assertThat(threePoints).isEqualTo(LoadSweep.evenlySpacedLoads(0.02, 0.40, 3));
    assertThat(threePoints.get(0)).isEqualTo(0.02);
    assertThat(threePoints.get(1)).isCloseTo(0.21, within(1e-12));
    assertThat(threePoints.get(2)).isEqualTo(0.40);
    // One point is from alone; to need only not be below it.
    assertThat(traffic(MESH_4X4 + "traffic.sweep { from = 0.3, points = 1 }").offeredFlitsPerNodeCycle())
        .containsExactly(0.3);
    assertThat(traffic(MESH_4X4 + "traffic.sweep { from = 1, to = 1, points = 1 }").offeredFlitsPerNodeCycle())
        .containsExactly(1.0);
  }

  @Test
  void shouldGiveNoTrafficAndAnUnchangedEchoWhenNoTrafficSectionIsWritten() {
    for (String text : List.of("", MESH_8X8, "topology { kind = torus, dimensions = [4, 4, 4] }",
        "topology { kind = ring, hosts = 4 }")) {
      LoadedScenario loaded = ScenarioLoader.parse(text, "x.conf");
      assertThat(loaded.spec().traffic()).as(text).isNull();
      assertThat(loaded.spec().runsTraffic()).as(text).isFalse();
      // The echo holds what it held before traffic existed: no traffic key at all.
      assertThat(loaded.config().root().keySet()).as(text)
          .containsExactlyInAnyOrder("name", "seed", "topology", "devices", "faults", "workload");
    }
  }

  @Test
  void shouldRunTrafficWhenTheSectionComesFromOverrides(@TempDir Path dir) throws Exception {
    Path file = dir.resolve("mesh.conf");
    Files.writeString(file, MESH_8X8);

    LoadedScenario plain = ScenarioLoader.load(file);
    LoadedScenario overridden = ScenarioLoader.load(file,
        ConfigFactory.parseString("traffic.pattern = bit-reverse"));

    assertThat(plain.spec().traffic()).isNull();
    assertThat(overridden.spec().traffic().pattern()).isEqualTo(TrafficPattern.BIT_REVERSE);
    assertThat(overridden.spec()).isEqualTo(plain.spec().withTraffic(overridden.spec().traffic()));
  }

  // ------------------------------------------------------------------------------ topology and pattern

  @Test
  void shouldRejectTrafficWhenTheTopologyHasNoRouters() {
    assertError("""
        topology.hosts = 8
        traffic {
          pattern = uniform
        }
        """).hasMessage("x.conf:2: traffic: only used when topology.kind is mesh, torus or group-ring (this topology "
        + "is leaf-spine, which has no routers to carry synthetic traffic)");
    // HOCON gives an empty object no line.
    assertError("topology { kind = ring, hosts = 4 }\ntraffic {}")
        .hasMessage("x.conf: traffic: only used when topology.kind is mesh, torus or group-ring (this topology is "
            + "ring, which has no routers to carry synthetic traffic)");
    // A bad value is named as such before the section is refused as unused.
    assertError("traffic.packet-flits = 0")
        .hasMessage("x.conf:1: traffic.packet-flits: must be at least 1, got 0");
  }

  @Test
  void shouldRejectPatternWhenItDoesNotApplyToTheShape() {
    assertError("topology { kind = torus, dimensions = [4, 4, 4] }\ntraffic.pattern = transpose")
        .hasMessage("x.conf:2: traffic.pattern: transpose needs a square 2-D mesh or torus, got a 4x4x4 torus");
    assertError("topology { kind = mesh, dimensions = [4, 8] }\ntraffic.pattern = transpose")
        .hasMessage("x.conf:2: traffic.pattern: transpose needs a square 2-D mesh or torus, got a 4x8 mesh");
    assertError("topology.kind = group-ring\ntraffic.pattern = transpose")
        .hasMessage("x.conf:2: traffic.pattern: transpose needs a square 2-D mesh or torus, got a group-ring of 4 "
            + "groups x 4 nodes");
    assertError("topology { kind = mesh, dimensions = [4, 3] }\ntraffic.pattern = bit-complement")
        .hasMessage("x.conf:2: traffic.pattern: bit-complement needs a power-of-two node count, got 12 nodes (4x3 "
            + "mesh)");
    assertError("topology { kind = group-ring, groups = 3, nodes-per-group = 2 }\ntraffic.pattern = shuffle")
        .hasMessage("x.conf:2: traffic.pattern: shuffle needs a power-of-two node count, got 6 nodes (group-ring of "
            + "3 groups x 2 nodes)");
    // 2 nodes: bit-reverse and shuffle map each node to itself, so nobody sends.
    assertError("topology { kind = group-ring, groups = 2, nodes-per-group = 1 }\ntraffic.pattern = bit-reverse")
        .hasMessage("x.conf:2: traffic.pattern: bit-reverse sends nothing on 2 nodes (every node is its own "
            + "destination), so there is no traffic to measure");
    // The same patterns where they apply.
    assertThat(traffic("topology { kind = torus, dimensions = [4, 4] }\ntraffic.pattern = transpose").pattern())
        .isEqualTo(TrafficPattern.TRANSPOSE);
    assertThat(traffic("topology { kind = torus, dimensions = [4, 2, 2] }\ntraffic.pattern = bit-reverse")
        .pattern()).isEqualTo(TrafficPattern.BIT_REVERSE);
    assertThat(traffic("topology.kind = group-ring\ntraffic.pattern = shuffle").pattern())
        .isEqualTo(TrafficPattern.SHUFFLE);
  }

  @Test
  void shouldSuggestThePatternOrKeyWhenMisspelled() {
    assertError(MESH_4X4 + "traffic.pattern = hotspot")
        .hasMessage("x.conf:2: traffic.pattern: 'hotspot' is not one of uniform, transpose, bit-complement, "
            + "bit-reverse, shuffle, hot-spot, nearest-neighbour (did you mean 'hot-spot'?)");
    assertError(MESH_4X4 + "traffic.pattern = Uniform")
        .hasMessageEndingWith("(did you mean 'uniform'?)");
    assertError(MESH_4X4 + "traffic {\n  packet-flit = 4\n}")
        .hasMessage("x.conf:3: traffic.packet-flit: unknown key (did you mean 'packet-flits'?)");
    assertError(MESH_4X4 + "traffic.offered-load = [0.1]")
        .hasMessage("x.conf:2: traffic.offered-load: unknown key (did you mean 'offered-loads'?)");
    assertError(MESH_4X4 + "traffic.sweep.point = 4")
        .hasMessage("x.conf:2: traffic.sweep.point: unknown key (did you mean 'points'?)");
    assertError(MESH_4X4 + "traffic.hotspot.fraction = 0.5")
        .hasMessage("x.conf:2: traffic.hotspot: unknown key (did you mean 'hot-spot'?)");
    assertError(MESH_4X4 + "traffic { pattern = hot-spot, hot-spot.node = [1] }")
        .hasMessage("x.conf:2: traffic.hot-spot.node: unknown key (did you mean 'nodes'?)");
    assertError(MESH_4X4 + "traffic.warmup = 10")
        .hasMessage("x.conf:2: traffic.warmup: unknown key (did you mean 'warmup-cycles'?)");
    assertError(MESH_4X4 + "traffic = 5").hasMessage("x.conf:2: traffic: expected an object { ... }, got 5");
  }

  // ------------------------------------------------------------------------------ hot-spot

  @Test
  void shouldRejectHotSpotKeysWhenThePatternIsNotHotSpot() {
    assertError(MESH_4X4 + "traffic {\n  hot-spot { fraction = 0.5, nodes = [1] }\n}")
        .hasMessage("x.conf:3: traffic.hot-spot.fraction: only used when traffic.pattern = hot-spot (pattern is "
            + "uniform)");
    assertError(MESH_4X4 + "traffic { pattern = transpose, hot-spot {} }")
        .hasMessage("x.conf:2: traffic.hot-spot: only used when traffic.pattern = hot-spot (pattern is transpose)");
  }

  @Test
  void shouldRejectHotSpotWhenMissingOrOutOfRange() {
    String hot = MESH_4X4 + "traffic.pattern = hot-spot\n";
    assertError(hot).hasMessage("x.conf: traffic.hot-spot.nodes: missing: pattern hot-spot needs its hot nodes, "
        + "e.g. hot-spot { nodes = [0, 5], fraction = 0.25 } (no default)");
    assertError(hot + "traffic.hot-spot.nodes = [1]")
        .hasMessage("x.conf: traffic.hot-spot.fraction: missing: pattern hot-spot needs the fraction of packets "
            + "sent to the hot nodes, e.g. hot-spot { nodes = [0, 5], fraction = 0.25 } (no default)");
    String fraction = "traffic.hot-spot.fraction = 0.5\n";
    assertError(hot + fraction + "traffic.hot-spot.nodes = []")
        .hasMessage("x.conf:4: traffic.hot-spot.nodes: must name at least one node");
    assertError(hot + fraction + "traffic.hot-spot.nodes = 3")
        .hasMessage("x.conf:4: traffic.hot-spot.nodes: expected a list such as [0, 5], got 3");
    assertError(hot + fraction + "traffic.hot-spot.nodes = [2, -1]")
        .hasMessage("x.conf:4: traffic.hot-spot.nodes[1]: must be at least 0, got -1");
    assertError(hot + fraction + "traffic.hot-spot.nodes = [2, 7, 2]")
        .hasMessage("x.conf:4: traffic.hot-spot.nodes[2]: 2 is listed twice");
    assertError(hot + fraction + "traffic.hot-spot.nodes = [0, 16]")
        .hasMessage("x.conf:4: traffic.hot-spot.nodes[1]: 16 is not a node of the 4x4 mesh (nodes 0..15)");
    String nodes = "traffic.hot-spot.nodes = [15]\n";
    assertError(hot + nodes + "traffic.hot-spot.fraction = 0")
        .hasMessage("x.conf:4: traffic.hot-spot.fraction: must be in (0, 1], got 0");
    assertError(hot + nodes + "traffic.hot-spot.fraction = 1.5")
        .hasMessage("x.conf:4: traffic.hot-spot.fraction: must be in (0, 1], got 1.5");
    assertError(hot + nodes + "traffic.hot-spot.fraction = lots")
        .hasMessage("x.conf:4: traffic.hot-spot.fraction: expected a number, got 'lots'");
    assertThat(traffic(hot + nodes + "traffic.hot-spot.fraction = 1").hotSpot())
        .isEqualTo(new HotSpot(List.of(15), 1.0));
  }

  // ------------------------------------------------------------------------------ packets and loads

  @Test
  void shouldRejectPacketWhenItDoesNotFitABufferUnderCutThroughOrStoreAndForward() {
    String router = "devices.router { buffer-depth = 4, switching = %s }\n";
    assertError(MESH_4X4 + router.formatted("virtual-cut-through") + "traffic.packet-flits = 8")
        .hasMessage("x.conf:3: traffic.packet-flits: 8 flits is more than a buffer of 4 flits "
            + "(devices.router.buffer-depth), which virtual-cut-through needs a packet to fit in (lower packet-flits "
            + "or raise buffer-depth)");
    assertError(MESH_4X4 + "devices.router { buffer-depth = 1, switching = store-and-forward }\n"
        + "traffic.packet-flits = 2")
        .hasMessage("x.conf:3: traffic.packet-flits: 2 flits is more than a buffer of 1 flit "
            + "(devices.router.buffer-depth), which store-and-forward needs a packet to fit in (lower packet-flits "
            + "or raise buffer-depth)");
    assertThat(traffic(MESH_4X4 + router.formatted("store-and-forward") + "traffic.packet-flits = 4").packetFlits())
        .isEqualTo(4);
    // Wormhole streams a packet through buffers shorter than it.
    assertThat(traffic(MESH_4X4 + router.formatted("wormhole") + "traffic.packet-flits = 64").packetFlits())
        .isEqualTo(64);
  }

  @Test
  void shouldCheckTrafficPacketsInsteadOfNicSegmentsWhenTheScenarioRunsTraffic() {
    // The default NIC segment (4 KiB + 64 B header: 260 flits) fits no buffer of 8 flits; traffic sends none.
    String vct = MESH_4X4 + "devices.router.switching = virtual-cut-through\n";
    assertError(vct).hasMessageContaining("devices.router.buffer-depth: a NIC segment of 4096 B");
    ScenarioSpec spec = load(vct + "traffic.packet-flits = 8");
    assertThat(spec.devices().router().switching()).isEqualTo(Switching.VIRTUAL_CUT_THROUGH);
    assertThat(spec.traffic().packetFlits()).isEqualTo(8);
  }

  @Test
  void shouldRejectPacketFlitsWhenOutOfRange() {
    assertError(MESH_4X4 + "traffic.packet-flits = 0")
        .hasMessage("x.conf:2: traffic.packet-flits: must be at least 1, got 0");
    assertError(MESH_4X4 + "traffic.packet-flits = 65537")
        .hasMessage("x.conf:2: traffic.packet-flits: 65537 is above the limit of 65536");
    assertError(MESH_4X4 + "traffic.packet-flits = 2.5")
        .hasMessage("x.conf:2: traffic.packet-flits: expected a whole number, got 2.5");
  }

  @Test
  void shouldRejectBothLoadFormsWhenGivenTogether() {
    assertError(MESH_4X4 + "traffic {\n  sweep.points = 4\n  offered-loads = [0.1]\n}")
        .hasMessage("x.conf:4: traffic.offered-loads: give either offered-loads or sweep, not both");
    assertError(MESH_4X4 + "traffic {\n  offered-loads = [0.1]\n  sweep {}\n}")
        .hasMessage("x.conf:3: traffic.offered-loads: give either offered-loads or sweep, not both");
  }

  @Test
  void shouldRejectOfferedLoadsWhenNotIncreasingLoadsInRange() {
    assertError(MESH_4X4 + "traffic.offered-loads = []")
        .hasMessage("x.conf:2: traffic.offered-loads: must list at least one load");
    assertError(MESH_4X4 + "traffic.offered-loads = 0.3")
        .hasMessage("x.conf:2: traffic.offered-loads: expected a list such as [0.1, 0.2, 0.3], got 0.3");
    assertError(MESH_4X4 + "traffic.offered-loads = [0.1, 0]")
        .hasMessage("x.conf:2: traffic.offered-loads[1]: must be in (0, 1] flits per node per cycle, got 0");
    assertError(MESH_4X4 + "traffic.offered-loads = [0.1, 1.5]")
        .hasMessage("x.conf:2: traffic.offered-loads[1]: must be in (0, 1] flits per node per cycle, got 1.5");
    assertError(MESH_4X4 + "traffic.offered-loads = [-0.1]")
        .hasMessage("x.conf:2: traffic.offered-loads[0]: must be in (0, 1] flits per node per cycle, got -0.1");
    assertError(MESH_4X4 + "traffic.offered-loads = [0.1, half]")
        .hasMessage("x.conf:2: traffic.offered-loads[1]: expected a number, got 'half'");
    assertError(MESH_4X4 + "traffic.offered-loads = [0.2, 0.1]")
        .hasMessage("x.conf:2: traffic.offered-loads[1]: 0.1 is not above the load before it (0.2): offered loads "
            + "must be strictly increasing");
    assertError(MESH_4X4 + "traffic.offered-loads = [0.2, 0.2]")
        .hasMessage("x.conf:2: traffic.offered-loads[1]: 0.2 is not above the load before it (0.2): offered loads "
            + "must be strictly increasing");
    String tooMany = IntStream.rangeClosed(1, 1001).mapToObj(i -> "0." + String.format("%04d", i))
        .collect(Collectors.joining(", ", "[", "]"));
    assertError(MESH_4X4 + "traffic.offered-loads = " + tooMany)
        .hasMessage("x.conf:2: traffic.offered-loads: lists 1001 loads, above the limit of 1000 (one emulation "
            + "each)");
  }

  @Test
  void shouldRejectSweepWhenOutOfRange() {
    assertError(MESH_4X4 + "traffic.sweep.points = 0")
        .hasMessage("x.conf:2: traffic.sweep.points: must be at least 1, got 0");
    assertError(MESH_4X4 + "traffic.sweep.points = 1001")
        .hasMessage("x.conf:2: traffic.sweep.points: 1001 is above the limit of 1000");
    assertError(MESH_4X4 + "traffic.sweep.from = 0")
        .hasMessage("x.conf:2: traffic.sweep.from: must be in (0, 1] flits per node per cycle, got 0");
    assertError(MESH_4X4 + "traffic.sweep.to = 1.2")
        .hasMessage("x.conf:2: traffic.sweep.to: must be in (0, 1] flits per node per cycle, got 1.2");
    assertError(MESH_4X4 + "traffic.sweep { from = 0.5, to = 0.25 }")
        .hasMessage("x.conf:2: traffic.sweep.to: 0.25 is below from (0.5)");
    assertError(MESH_4X4 + "traffic.sweep { from = 0.5, to = 0.5, points = 3 }")
        .hasMessage("x.conf:2: traffic.sweep.to: 0.5 is not above from (0.5): a sweep of 3 points needs from < to "
            + "(points = 1 runs from alone)");
    assertError(MESH_4X4 + "traffic.sweep { from = 0.5, to = 0.5000000000000001, points = 3 }")
        .hasMessage("x.conf:2: traffic.sweep.points: 3 points from 0.5 to 0.5000000000000001 are too close together "
            + "to be distinct loads");
  }

  // ------------------------------------------------------------------------------ phases and limits

  @Test
  void shouldRejectPhasesWhenOutOfRange() {
    assertError(MESH_4X4 + "traffic.warmup-cycles = -1")
        .hasMessage("x.conf:2: traffic.warmup-cycles: must be at least 0, got -1");
    assertError(MESH_4X4 + "traffic.measure-cycles = 0")
        .hasMessage("x.conf:2: traffic.measure-cycles: must be at least 1, got 0");
    assertError(MESH_4X4 + "traffic.drain-cycles = 2000000000")
        .hasMessage("x.conf:2: traffic.drain-cycles: 2000000000 is above the limit of 1000000000");
    assertError(MESH_4X4 + "traffic.drain-cycles = forever")
        .hasMessage("x.conf:2: traffic.drain-cycles: expected a whole number, got 'forever'");
    TrafficSpec noWarmupNoDrain = traffic(MESH_4X4 + "traffic { warmup-cycles = 0, measure-cycles = 1, "
        + "drain-cycles = 0 }");
    assertThat(noWarmupNoDrain.drainEndCycle()).isEqualTo(1);
  }

  @Test
  void shouldRejectPhasesWhenTheyTakeLongerThanOneSecond() {
    // At 1 MHz a cycle is 1 us: 1,000,000 cycles are 1 s.
    String slow = MESH_4X4 + "devices.router.clock = 1 MHz\n";
    assertError(slow + "traffic.drain-cycles = 989001")
        .hasMessage("x.conf:3: traffic.drain-cycles: warmup-cycles + measure-cycles + drain-cycles = 1000001 cycles, "
            + "above the limit of 1000000 cycles at '1 MHz' (1 s: every duration is at most 1 s)");
    assertError(slow + "traffic { warmup-cycles = 2000000, measure-cycles = 5 }")
        .hasMessage("x.conf:3: traffic.warmup-cycles: warmup-cycles + measure-cycles + drain-cycles = 2010005 cycles, "
            + "above the limit of 1000000 cycles at '1 MHz' (1 s: every duration is at most 1 s)");
    assertThat(traffic(slow + "traffic.drain-cycles = 989000").drainEndCycle()).isEqualTo(1_000_000L);
  }

  @Test
  void shouldRejectMeasurementWhenItWouldKeepTooManyLatencies() {
    assertError("topology { kind = torus, dimensions = [512, 512] }\n"
        + "traffic { packet-flits = 1, offered-loads = [0.5, 1], measure-cycles = 1000 }")
        .hasMessage("x.conf:2: traffic.measure-cycles: 1000 cycles at the highest offered load (1.0 flits per node "
            + "per cycle) on 262144 nodes create about 262144000 measured packets of 1 flit, above the limit of "
            + "134217728 (the latency of each is kept for the exact p99)");
    assertThat(traffic("topology { kind = torus, dimensions = [512, 512] }\n"
        + "traffic { packet-flits = 1, offered-loads = [0.5], measure-cycles = 1000 }").measureCycles())
        .isEqualTo(1000);
  }

  // ------------------------------------------------------------------------------ echo

  @Test
  void shouldLoadTheEchoOfATrafficScenarioToAnEqualSpec() {
    for (String text : List.of(MESH_8X8 + "traffic {}",
        MESH_8X8 + "traffic { pattern = transpose, offered-loads = [0.05, 0.1], warmup-cycles = 7 }",
        MESH_4X4 + "traffic { sweep { to = 0.9, points = 4 }, packet-flits = 2, drain-cycles = 0 }",
        MESH_4X4 + "traffic { pattern = hot-spot, hot-spot { nodes = [3, 1], fraction = 0.75 } }",
        "topology { kind = torus, dimensions = [4, 4, 4] }\n"
            + "devices.router { switching = virtual-cut-through, virtual-channels = 4 }\n"
            + "traffic { pattern = nearest-neighbour, offered-loads = [\"0.25\", 1] }",
        "topology.kind = group-ring\ntraffic { pattern = bit-complement, sweep.points = 1 }")) {
      LoadedScenario first = ScenarioLoader.parse(text, "x.conf");
      String echoed = first.config().root().render(ConfigRenderOptions.concise());
      LoadedScenario second = ScenarioLoader.parse(echoed, "x.conf");
      assertThat(first.spec().traffic()).as(text).isNotNull();
      assertThat(second.spec()).as(text).isEqualTo(first.spec());
      assertThat(second.config()).as(text).isEqualTo(first.config());
    }
  }

  @Test
  void shouldEchoTheLoadFormUsedWithTheDefaultsFilledIn() {
    LoadedScenario swept = ScenarioLoader.parse(MESH_8X8 + "traffic.pattern = bit-reverse", "x.conf");
    assertThat(swept.config().getString("traffic.pattern")).isEqualTo("bit-reverse");
    assertThat(swept.config().getInt("traffic.packet-flits")).isEqualTo(4);
    assertThat(swept.config().getDouble("traffic.sweep.from")).isEqualTo(0.02);
    assertThat(swept.config().getDouble("traffic.sweep.to")).isEqualTo(0.40);
    assertThat(swept.config().getInt("traffic.sweep.points")).isEqualTo(20);
    assertThat(swept.config().getLong("traffic.warmup-cycles")).isEqualTo(1000L);
    assertThat(swept.config().getLong("traffic.measure-cycles")).isEqualTo(10000L);
    assertThat(swept.config().getLong("traffic.drain-cycles")).isEqualTo(10000L);
    assertThat(swept.config().hasPath("traffic.offered-loads")).isFalse();
    assertThat(swept.config().hasPath("traffic.hot-spot")).isFalse();

    LoadedScenario listed = ScenarioLoader.parse(MESH_8X8 + "traffic.offered-loads = [0.1, 0.2]", "x.conf");
    assertThat(listed.config().getDoubleList("traffic.offered-loads")).containsExactly(0.1, 0.2);
    assertThat(listed.config().hasPath("traffic.sweep")).isFalse();
  }
}
