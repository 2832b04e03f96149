package io.fabemu.cluster.scenario;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.typesafe.config.ConfigRenderOptions;
import io.fabemu.core.router.RouterSpec;
import io.fabemu.core.router.Switching;
import io.fabemu.core.topology.GroupRingSpec;
import io.fabemu.core.topology.LinkSpec;
import io.fabemu.core.topology.MeshSpec;
import io.fabemu.core.topology.TorusSpec;
import io.fabemu.fabric.DeviceSpec;
import io.fabemu.fabric.ScenarioSpec;
import java.util.List;
import org.assertj.core.api.AbstractThrowableAssert;
import org.junit.jupiter.api.Test;

/** The router networks (mesh, torus, group-ring), devices.router, and their errors. */
class ScenarioLoaderRouterTest {
  /** The default router's channel: 16 B per 1 ns cycle (128 Gbps), one cycle of latency. */
  private static final LinkSpec DEFAULT_CHANNEL = new LinkSpec(128_000_000_000L, 1_000L);

  private static ScenarioSpec load(String text) {
    return ScenarioLoader.parse(text, "x.conf").spec();
  }

  private static AbstractThrowableAssert<?, ? extends Throwable> assertError(String text) {
    return assertThatThrownBy(() -> ScenarioLoader.parse(text, "x.conf")).isInstanceOf(ScenarioException.class);
  }

  // ------------------------------------------------------------------------------ kinds and hosts

  @Test
  void shouldReadEachKindAndDeriveHostsWhenHostsAreLeftOut() {
    assertThat(load("topology { kind = mesh, dimensions = [8, 8] }").topology())
        .isEqualTo(new MeshSpec(8, 8, 1, DEFAULT_CHANNEL));
    assertThat(load("topology { kind = mesh, dimensions = [4, 2, 3] }").topology())
        .isEqualTo(new MeshSpec(4, 2, 3, DEFAULT_CHANNEL));
    assertThat(load("topology { kind = torus, dimensions = [16, 4] }").topology())
        .isEqualTo(new TorusSpec(16, 4, 1, DEFAULT_CHANNEL));
    assertThat(load("topology { kind = torus, dimensions = [4, 4, 4] }").topology())
        .isEqualTo(new TorusSpec(4, 4, 4, DEFAULT_CHANNEL));
    assertThat(load("topology { kind = group-ring, groups = 6, nodes-per-group = 3 }").topology())
        .isEqualTo(new GroupRingSpec(6, 3, DEFAULT_CHANNEL));

    assertThat(load("topology { kind = mesh, dimensions = [8, 8] }").topology().hosts()).isEqualTo(64);
    assertThat(load("topology { kind = torus, dimensions = [4, 4, 4] }").topology().hosts()).isEqualTo(64);
    assertThat(load("topology { kind = group-ring, groups = 6, nodes-per-group = 3 }").topology().hosts())
        .isEqualTo(18);
    // The defaults' shapes: [4, 4] and 4 groups of 4.
    assertThat(load("topology.kind = torus").topology()).isEqualTo(new TorusSpec(4, 4, 1, DEFAULT_CHANNEL));
    assertThat(load("topology.kind = group-ring").topology()).isEqualTo(new GroupRingSpec(4, 4, DEFAULT_CHANNEL));
  }

  @Test
  void shouldAcceptHostsWhenTheyEqualTheShapesProduct() {
    assertThat(load("topology { kind = mesh, dimensions = [4, 4, 2], hosts = 32 }").topology().hosts())
        .isEqualTo(32);
    assertThat(load("topology { kind = group-ring, groups = 3, nodes-per-group = 5, hosts = 15 }").topology()
        .hosts()).isEqualTo(15);
  }

  @Test
  void shouldRejectHostsWhenTheyDifferFromTheShapesProduct() {
    assertError("""
        topology {
          kind = mesh
          dimensions = [8, 8]
          hosts = 60
        }
        """).hasMessage("x.conf:4: topology.hosts: 60 does not match dimensions [8, 8], which make 64 hosts (leave "
        + "hosts out: a mesh's host count follows from its dimensions)");
    assertError("topology { kind = torus, dimensions = [2, 3, 4], hosts = 16 }")
        .hasMessage("x.conf:1: topology.hosts: 16 does not match dimensions [2, 3, 4], which make 24 hosts (leave "
            + "hosts out: a torus's host count follows from its dimensions)");
    assertError("topology { kind = group-ring, groups = 4, nodes-per-group = 8, hosts = 16 }")
        .hasMessage("x.conf:1: topology.hosts: 16 does not match groups = 4 x nodes-per-group = 8, which make 32 "
            + "hosts (leave hosts out: a group-ring's host count follows from groups and nodes-per-group)");
  }

  @Test
  void shouldRejectDimensionsWhenNotTwoOrThreeSizesOfAtLeastTwo() {
    assertError("topology { kind = mesh, dimensions = [8] }")
        .hasMessage("x.conf:1: topology.dimensions: has 1 size; give 2 (x, y) or 3 (x, y, z), e.g. [8, 8] or "
            + "[4, 4, 4]");
    assertError("topology { kind = torus, dimensions = [2, 2, 2, 2] }")
        .hasMessage("x.conf:1: topology.dimensions: has 4 sizes; give 2 (x, y) or 3 (x, y, z), e.g. [8, 8] or "
            + "[4, 4, 4]");
    assertError("topology { kind = mesh, dimensions = [] }")
        .hasMessageStartingWith("x.conf:1: topology.dimensions: has 0 sizes;");
    assertError("""
        topology {
          kind = mesh
          dimensions = [8,
                        1]
        }
        """).hasMessage("x.conf:4: topology.dimensions[1]: must be at least 2, got 1");
    assertError("topology { kind = mesh, dimensions = [8, x] }")
        .hasMessage("x.conf:1: topology.dimensions[1]: expected a whole number, got 'x'");
    assertError("topology { kind = mesh, dimensions = [8, 2.5] }")
        .hasMessage("x.conf:1: topology.dimensions[1]: expected a whole number, got 2.5");
    assertError("topology { kind = mesh, dimensions = 8 }")
        .hasMessage("x.conf:1: topology.dimensions: expected a list such as [8, 8] or [4, 4, 4], got 8");
    assertError("topology { kind = torus, dimensions = [1024, 1024, 2] }")
        .hasMessage("x.conf:1: topology.dimensions: dimensions [1024, 1024, 2] make 2097152 hosts, above the limit "
            + "of 1048576");
  }

  @Test
  void shouldRejectGroupRingShapeWhenOutOfRange() {
    assertError("topology { kind = group-ring, groups = 1 }")
        .hasMessage("x.conf:1: topology.groups: must be at least 2, got 1");
    assertError("topology { kind = group-ring, nodes-per-group = 0 }")
        .hasMessage("x.conf:1: topology.nodes-per-group: must be at least 1, got 0");
    assertError("topology { kind = group-ring, groups = 2048, nodes-per-group = 1024 }")
        .hasMessage("x.conf:1: topology.nodes-per-group: 2048 groups x 1024 nodes per group = 2097152 hosts is "
            + "above the limit of 1048576");
  }

  @Test
  void shouldRejectKeysOfOtherKindsWhenWrittenOnARouterNetworkOrForOne() {
    assertError("topology { kind = mesh, link.latency = 1 us }")
        .hasMessage("x.conf:1: topology.link: only used when kind is line, ring or full-mesh (this topology is mesh, "
            + "whose channels come from devices.router)");
    assertError("topology { kind = mesh, groups = 2 }")
        .hasMessage("x.conf:1: topology.groups: only used when kind = group-ring (this topology is mesh, whose "
            + "channels come from devices.router)");
    assertError("topology { kind = ring, hosts = 4, dimensions = [2, 2] }")
        .hasMessage("x.conf:1: topology.dimensions: only used when kind is mesh or torus (this topology is ring)");
  }

  @Test
  void shouldEchoTheDerivedHostsAndLoadTheEchoToAnEqualSpec() {
    for (String text : List.of("topology { kind = mesh, dimensions = [8, 8] }",
        "topology { kind = torus, dimensions = [4, 4, 4], hosts = 64 }\n"
            + "devices.router { clock = 2.5 GHz, virtual-channels = 4, switching = store-and-forward }\n"
            + "devices.nic.segment-size = 64 B",
        "topology { kind = group-ring, groups = 3, nodes-per-group = 2 }", "", "topology { kind = ring, hosts = 4 }")) {
      LoadedScenario first = ScenarioLoader.parse(text, "x.conf");
      String echoed = first.config().root().render(ConfigRenderOptions.concise());
      LoadedScenario second = ScenarioLoader.parse(echoed, "x.conf");
      assertThat(second.spec()).as(text).isEqualTo(first.spec());
      assertThat(second.config()).as(text).isEqualTo(first.config());
    }
    LoadedScenario mesh = ScenarioLoader.parse("topology { kind = mesh, dimensions = [8, 8] }", "x.conf");
    assertThat(mesh.config().getInt("topology.hosts")).isEqualTo(64);
    assertThat(mesh.config().hasPath("topology.link")).isFalse();
    assertThat(mesh.config().hasPath("topology.groups")).isFalse();
    assertThat(mesh.config().hasPath("devices.switch")).isFalse();
    assertThat(mesh.config().getString("devices.router.clock")).isEqualTo("1 GHz");
    // The other kinds echo what they did before there were routers.
    LoadedScenario leafSpine = ScenarioLoader.parse("", "x.conf");
    assertThat(leafSpine.config().hasPath("devices.router")).isFalse();
    assertThat(leafSpine.config().hasPath("topology.dimensions")).isFalse();
    assertThat(leafSpine.config().getString("devices.switch.forwarding")).isEqualTo("cut-through");
  }

  // ------------------------------------------------------------------------------ devices.router

  @Test
  void shouldReadEveryRouterKeyWithItsUnitWhenGiven() {
    ScenarioSpec spec = load("""
        topology { kind = mesh, dimensions = [4, 4] }
        devices.router {
          clock = 2.5 GHz
          flit-bytes = 32 B
          virtual-channels = 4
          buffer-depth = 16
          routing-cycles = 2
          vc-allocation-cycles = 0
          switch-allocation-cycles = 1
          traversal-cycles = 1
          link-latency-cycles = 3
          credit-delay-cycles = 2
          switching = virtual-cut-through
          stall-limit = 50 us
        }
        devices.nic.segment-size = 256 B
        """);

    assertThat(spec.devices().router()).isEqualTo(
        new RouterSpec(400L, 32, 4, 16, 2, 0, 1, 1, 3, 2, Switching.VIRTUAL_CUT_THROUGH));
    assertThat(spec.devices().routerStallLimitPs()).isEqualTo(50_000_000L);
    // 256 bits per 400 ps cycle, 3 cycles of latency.
    assertThat(spec.topology()).isEqualTo(new MeshSpec(4, 4, 1, new LinkSpec(640_000_000_000L, 1_200L)));
    assertThat(load("devices.router.clock = 500 MHz\ntopology.kind = mesh").devices().router().cyclePs())
        .isEqualTo(2_000L);
    assertThat(load("devices.router.flit-bytes = 1 KiB\ntopology.kind = mesh").devices().router().flitBytes())
        .isEqualTo(1024);
  }

  @Test
  void shouldGiveBookSimsDefaultsWhenNoRouterKeyIsWritten() {
    RouterSpec expected = new RouterSpec(1_000L, 16, 2, 8, 1, 1, 1, 1, 1, 1, Switching.WORMHOLE);

    ScenarioSpec mesh = load("topology.kind = mesh");
    assertThat(mesh.devices().router()).isEqualTo(expected).isEqualTo(DeviceSpec.DEFAULT_ROUTER);
    assertThat(mesh.devices().routerStallLimitPs()).isEqualTo(1_000_000_000L)
        .isEqualTo(DeviceSpec.DEFAULT_ROUTER_STALL_LIMIT_PS);
    // A topology without routers keeps them too, so its spec equals one built without naming a router.
    ScenarioSpec leafSpine = load("");
    assertThat(leafSpine.devices().router()).isEqualTo(expected);
    assertThat(leafSpine.devices()).isEqualTo(new DeviceSpec(leafSpine.devices().host(), leafSpine.devices().nic(),
        leafSpine.devices().switchSpec()));
  }

  @Test
  void shouldRejectClockWhenUnitIsWrongOrItsCycleIsNotAWholePicosecond() {
    String mesh = "topology.kind = mesh\n";
    assertError(mesh + "devices.router.clock = 1000")
        .hasMessage("x.conf:2: devices.router.clock: '1000' has no unit (use Hz, kHz, MHz, GHz or THz, e.g. "
            + "'1 GHz')");
    assertError(mesh + "devices.router.clock = 1 Ghz")
        .hasMessage("x.conf:2: devices.router.clock: '1 Ghz' has an unknown unit 'Ghz' (use Hz, kHz, MHz, GHz or "
            + "THz, e.g. '1 GHz', did you mean 'GHz'?)");
    assertError(mesh + "devices.router.clock = 0 GHz")
        .hasMessage("x.conf:2: devices.router.clock: '0 GHz' is not a clock: a frequency must be greater than 0");
    assertError(mesh + "devices.router.clock = 600 GHz")
        .hasMessage("x.conf:2: devices.router.clock: '600 GHz' has a cycle of 1.667 ps, below the shortest of 2 ps: "
            + "virtual time counts whole picoseconds, too coarse for a faster clock");
    assertError(mesh + "devices.router.clock = 300 GHz")
        .hasMessage("x.conf:2: devices.router.clock: '300 GHz' has a cycle of 3.333 ps, which rounds to 3 ps, 10 % "
            + "off: virtual time counts whole picoseconds, so a cycle must round within 0.5 % (choose a clock whose "
            + "cycle is closer to a whole number of ps)");
    assertError(mesh + "devices.router.clock = 0.5 Hz")
        .hasMessage("x.conf:2: devices.router.clock: '0.5 Hz' is too slow: its cycle is above the limit of 1 s "
            + "(every duration is at most 1 s)");
  }

  @Test
  void shouldSuggestTheClosestSwitchingWhenMisspelled() {
    assertError("topology.kind = torus\ndevices.router.switching = wormhol")
        .hasMessage("x.conf:2: devices.router.switching: 'wormhol' is not one of wormhole, virtual-cut-through, "
            + "store-and-forward (did you mean 'wormhole'?)");
    assertError("topology.kind = torus\ndevices.router.switching = virtual-cut-thru")
        .hasMessageEndingWith("(did you mean 'virtual-cut-through'?)");
  }

  @Test
  void shouldRejectRouterValuesWhenOutOfRange() {
    String mesh = "topology.kind = mesh\n";
    assertError(mesh + "devices.router.link-latency-cycles = 0")
        .hasMessage("x.conf:2: devices.router.link-latency-cycles: must be at least 1, got 0");
    assertError(mesh + "devices.router.credit-delay-cycles = 0")
        .hasMessage("x.conf:2: devices.router.credit-delay-cycles: must be at least 1, got 0");
    assertError(mesh + "devices.router.routing-cycles = -1")
        .hasMessage("x.conf:2: devices.router.routing-cycles: must be at least 0, got -1");
    assertError(mesh + "devices.router.virtual-channels = 0")
        .hasMessage("x.conf:2: devices.router.virtual-channels: must be at least 1, got 0");
    assertError(mesh + "devices.router.buffer-depth = 0")
        .hasMessage("x.conf:2: devices.router.buffer-depth: must be at least 1, got 0");
    assertError(mesh + "devices.router.flit-bytes = 0 B")
        .hasMessage("x.conf:2: devices.router.flit-bytes: '0 B' is less than 1 B");
    assertError(mesh + "devices.router.flit-bytes = 128 KiB")
        .hasMessage("x.conf:2: devices.router.flit-bytes: '128 KiB' is above the limit of 64 KiB");
    assertError(mesh + "devices.router.flit-bytes = 4 KiB")
        .hasMessage("x.conf:2: devices.router.flit-bytes: '4 KiB' per cycle at '1 GHz' makes channels of 32.77 Tbps, "
            + "above the limit of 10 Tbps");
    assertError(mesh + "devices.router { clock = 1 kHz, routing-cycles = 1000 }")
        .hasMessage("x.conf:2: devices.router.clock: at '1 kHz' a head flit's hop (routing + vc-allocation + "
            + "switch-allocation + traversal + link-latency cycles) of 1004 cycles takes 1.004 s, above the limit of "
            + "1 s (every duration is at most 1 s)");
    // One hop (4 router cycles + 1 channel cycle) and its credit (1 cycle) take 6 ns at 1 GHz.
    assertError(mesh + "devices.router.stall-limit = 5 ns")
        .hasMessage("x.conf:2: devices.router.stall-limit: '5 ns' is shorter than one hop and its credit's return "
            + "(6 cycles = 6 ns), in which even a healthy network may move no flit");
    assertThat(load(mesh + "devices.router.stall-limit = 6 ns").devices().routerStallLimitPs()).isEqualTo(6_000L);
  }

  @Test
  void shouldRejectVirtualChannelsWhenTheKindsClassesCannotShareThem() {
    assertError("topology.kind = torus\ndevices.router.virtual-channels = 3")
        .hasMessage("x.conf:2: devices.router.virtual-channels: 3 is not a multiple of 2: a torus routes with 2 "
            + "virtual-channel classes, split at a dateline on every ring so that routes around the wrap-around "
            + "cannot deadlock, each class taking an equal share of the virtual channels");
    assertError("topology.kind = group-ring\ndevices.router.virtual-channels = 1")
        .hasMessageStartingWith("x.conf:2: devices.router.virtual-channels: 1 is not a multiple of 2: a group-ring "
            + "routes with 2 virtual-channel classes, split at a dateline on every ring joining its groups");
    assertThat(load("topology.kind = torus\ndevices.router.virtual-channels = 4").devices().router()
        .virtualChannels()).isEqualTo(4);
    // A mesh's dimension-order routes need one class: any count will do.
    assertThat(load("topology.kind = mesh\ndevices.router.virtual-channels = 3").devices().router()
        .virtualChannels()).isEqualTo(3);
  }

  // ------------------------------------------------------------------------------ devices of other kinds

  @Test
  void shouldRejectRouterKeysWhenTheTopologyHasNoRouters() {
    assertError("""
        devices.router {
          switching = wormhole
        }
        devices.router.clock = 2 GHz
        """).hasMessage("x.conf:2: devices.router.switching: only used when topology.kind is mesh, torus or "
        + "group-ring (this topology is leaf-spine, which has no routers)");
    assertError("topology { kind = ring, hosts = 4 }\ndevices.router.buffer-depth = 4")
        .hasMessage("x.conf:2: devices.router.buffer-depth: only used when topology.kind is mesh, torus or "
            + "group-ring (this topology is ring, which has no routers)");
    // A bad value is named as such before it is refused as unused.
    assertError("devices.router.clock = 1 Ghz").hasMessageStartingWith("x.conf:1: devices.router.clock: '1 Ghz' has "
        + "an unknown unit");
  }

  @Test
  void shouldRejectSwitchKeysWhenTheTopologyIsARouterNetwork() {
    assertError("topology.kind = torus\ndevices.switch.pipeline-latency = 300 ns")
        .hasMessage("x.conf:2: devices.switch.pipeline-latency: not used: a torus has a router in every node and no "
            + "switches (set the routers under devices.router)");
    // The direct networks without routers took devices.switch before routers existed, and still do.
    assertThat(load("topology { kind = ring, hosts = 4 }\ndevices.switch.pipeline-latency = 300 ns").devices()
        .switchSpec().pipelineLatencyPs()).isEqualTo(300_000L);
  }

  @Test
  void shouldRejectIncWhenTheTopologyIsARouterNetwork() {
    assertError("topology.kind = mesh\ndevices.inc.enabled = true")
        .hasMessage("x.conf:2: devices.inc.enabled: INC needs a leaf-spine topology (TOR and SPINE switches), not "
            + "mesh");
    assertError("topology.kind = torus\nworkload { algorithms = [inc-node], sizes = [4 B] }")
        .hasMessage("x.conf:2: workload.algorithms: inc-node needs a leaf-spine topology (TOR and SPINE switches), "
            + "not torus");
  }

  @Test
  void shouldRejectDimensionRingWhenTheTopologyHasNoGridOrItIsHierarchical() {
    assertThat(load("topology.kind = torus\nworkload { algorithms = [dimension-ring], sizes = [4 B] }").workload()
        .algorithms()).hasSize(1);
    assertError("topology.kind = group-ring\nworkload { algorithms = [dimension-ring], sizes = [4 B] }")
        .hasMessage("x.conf:2: workload.algorithms: dimension-ring needs a mesh or torus (its rings run along the "
            + "dimensions), not group-ring");
    assertError("topology { kind = leaf-spine, hosts = 4 }\nworkload { algorithms = [dimension-ring], sizes = [4 B] }")
        .hasMessageContaining("dimension-ring needs a mesh or torus (its rings run along the dimensions), not "
            + "leaf-spine");
    assertError("topology.kind = mesh\nworkload { algorithms = [dimension-ring], sizes = [4 B], hierarchical = true, "
        + "ppn = 2 }").hasMessageContaining("workload.hierarchical: dimension-ring runs on every rank");
  }

  @Test
  void shouldRejectSegmentWhenItDoesNotFitABufferUnderCutThroughOrStoreAndForward() {
    String base = "topology.kind = mesh\ndevices.nic { segment-size = 200 B, header-bytes = 56 B }\n";
    // 256 B is 16 flits of 16 B: it fits a buffer of 16, not one of 8.
    assertThat(load(base + "devices.router { switching = virtual-cut-through, buffer-depth = 16 }").devices()
        .router().bufferDepthFlits()).isEqualTo(16);
    assertThat(load(base + "devices.router { switching = wormhole, buffer-depth = 8 }").devices().router()
        .switching()).isEqualTo(Switching.WORMHOLE);
    assertError(base + "devices.router { switching = store-and-forward, buffer-depth = 8 }")
        .hasMessageContaining("devices.router.buffer-depth: a NIC segment of 200 B with its 56 B header is 16 flits "
            + "of 16 B, more than a buffer of 8 flits, which store-and-forward needs it to fit in");
  }
}
