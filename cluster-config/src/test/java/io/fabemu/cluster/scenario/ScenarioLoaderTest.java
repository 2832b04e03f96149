package io.fabemu.cluster.scenario;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.typesafe.config.ConfigRenderOptions;
import io.fabemu.collectives.Algorithm;
import io.fabemu.collectives.BufferLayout;
import io.fabemu.collectives.Collective;
import io.fabemu.collectives.WorkloadSpec;
import io.fabemu.core.data.DataType;
import io.fabemu.core.data.ReduceOp;
import io.fabemu.core.link.ForwardingMode;
import io.fabemu.core.topology.FullMeshSpec;
import io.fabemu.core.topology.LeafSpineSpec;
import io.fabemu.core.topology.LinkSpec;
import io.fabemu.fabric.DeviceSpec;
import io.fabemu.fabric.ScenarioSpec;
import io.fabemu.nic.NicSpec;
import io.fabemu.node.HostSpec;
import io.fabemu.switching.SwitchSpec;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.LongStream;
import org.assertj.core.api.AbstractThrowableAssert;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The loader's general rules: every key read and defaulted, the echo, one-line errors with file, line and key, value
 * types, units and limits. Past 500 lines because these are the rules every section shares, one short test each;
 * the sections' own rules have classes of their own ({@code ScenarioLoaderFaultsTest}, {@code ...TrafficTest}, ...).
 */
class ScenarioLoaderTest {

  private static final String FULL = """
      name = full
      seed = 7
      topology {
        kind = leaf-spine
        hosts = 8
        hosts-per-tor = 4
        spines = 2
        host-link  { bandwidth = 25 Gbps,  latency = 1.2 us }
        spine-link { bandwidth = 100 Gb/s, latency = 300 ns }
      }
      devices {
        host   { send-overhead = 300 ns, recv-overhead = 200 ns, reduce-rate = 10 GBps,
                 memory-bandwidth = 20 GBps, memory-latency = 150 ns, pcie-bandwidth = 128 Gbps,
                 pcie-latency = 250 ns }
        nic    { segment-size = 4 KiB, header-bytes = 64 B, per-message-overhead = 100 ns,
                 forwarding-latency = 90 ns }
        switch { pipeline-latency = 600 ns, forwarding = store-and-forward }
      }
      workload {
        collective = allreduce
        algorithms = [ring, recursive-doubling]
        sizes = [4 B, 1 MiB]
        iterations = 5, warmup = 1, ppn = 2
        datatype = int32, op = bxor, hierarchical = true, root = 3
      }
      """;

  private static ScenarioSpec spec(String text) {
    return ScenarioLoader.parse(text, "x.conf").spec();
  }

  private static AbstractThrowableAssert<?, ? extends Throwable> assertError(String text) {
    return assertThatThrownBy(() -> ScenarioLoader.parse(text, "x.conf")).isInstanceOf(ScenarioException.class);
  }

  @Test
  void shouldReadEveryKeyWhenGivenAFullScenario() {
    ScenarioSpec spec = spec(FULL);

    assertThat(spec).isEqualTo(ScenarioSpec.builder("full", "x.conf", 7,
        new LeafSpineSpec(8, 4, 2, new LinkSpec(25_000_000_000L, 1_200_000L),
            new LinkSpec(100_000_000_000L, 300_000L)),
        new DeviceSpec(
            HostSpec.builder().sendOverheadPs(300_000L).recvOverheadPs(200_000L)
                .reduceBitsPerSecond(80_000_000_000L).memoryBitsPerSecond(160_000_000_000L).memoryLatencyPs(150_000L)
                .pcieBitsPerSecond(128_000_000_000L).pcieLatencyPs(250_000L).build(),
            new NicSpec(4096, 64, 100_000L, 90_000L), new SwitchSpec(600_000L, ForwardingMode.STORE_AND_FORWARD)),
        WorkloadSpec.builder(Collective.ALLREDUCE, List.of(Algorithm.RING, Algorithm.RECURSIVE_DOUBLING),
            List.of(4L, 1_048_576L)).iterations(5).warmup(1).ppn(2).dataType(DataType.INT32).op(ReduceOp.BXOR)
            .hierarchical(true).root(3).build()).build());
  }

  @Test
  void shouldFillEveryDefaultWhenScenarioIsEmpty() {
    ScenarioSpec spec = ScenarioLoader.parse("", "dir/empty.conf").spec();

    assertThat(spec.name()).isEqualTo("empty");
    assertThat(spec.source()).isEqualTo("dir/empty.conf");
    assertThat(spec.seed()).isEqualTo(42L);
    assertThat(spec.topology()).isEqualTo(new LeafSpineSpec(16, 4, 2,
        new LinkSpec(25_000_000_000L, 500_000L), new LinkSpec(100_000_000_000L, 500_000L)));
    assertThat(spec.devices()).isEqualTo(new DeviceSpec(
        HostSpec.builder().sendOverheadPs(300_000L).recvOverheadPs(300_000L)
            .reduceBitsPerSecond(80_000_000_000L).memoryBitsPerSecond(160_000_000_000L).memoryLatencyPs(150_000L)
            .pcieBitsPerSecond(128_000_000_000L).pcieLatencyPs(250_000L).build(),
        new NicSpec(4096, 64, 100_000L, 100_000L),
        new SwitchSpec(600_000L, ForwardingMode.CUT_THROUGH)));
    List<Long> powersOfTwo = LongStream.rangeClosed(2, 20).map(i -> 1L << i).boxed().toList();
    assertThat(spec.workload()).isEqualTo(WorkloadSpec.builder(Collective.ALLREDUCE, List.of(Algorithm.AUTO),
        powersOfTwo).iterations(10).warmup(2).build());
  }

  @Test
  void shouldGiveTheSameSpecWhenTheEchoedConfigIsLoadedAgain() {
    for (String text : List.of(FULL, "", "workload { min-size = 0 B, max-size = 0 B, collective = barrier }",
        "workload { min-size = 0 B, collective = barrier }",
        "workload.payload = synthetic",
        "workload.collective = barrier", "topology { kind = ring, hosts = 4, link.latency = 1 us }")) {
      LoadedScenario first = ScenarioLoader.parse(text, "x.conf");
      String echoed = first.config().root().render(ConfigRenderOptions.concise());
      LoadedScenario second = ScenarioLoader.parse(echoed, "x.conf");
      assertThat(second.spec()).as(text).isEqualTo(first.spec());
      assertThat(second.config()).isEqualTo(first.config());
    }
  }

  @Test
  void shouldEchoDefaultsAndChosenSizeFormWhenKeysAreOmitted() {
    LoadedScenario loaded = ScenarioLoader.parse("workload.datatype = float64", "a/b.conf");

    assertThat(loaded.config().getString("name")).isEqualTo("b");
    assertThat(loaded.config().getString("workload.min-size")).isEqualTo("8 B");
    assertThat(loaded.config().getString("workload.max-size")).isEqualTo("1 MiB");
    assertThat(loaded.config().getString("devices.switch.forwarding")).isEqualTo("cut-through");
    assertThat(loaded.config().hasPath("workload.sizes")).isFalse();
  }

  @Test
  void shouldLoadTheBundledExamplesWhenReadFromFiles() {
    LoadedScenario quickstart = ScenarioLoader.load(Path.of("../examples/quickstart.conf"));

    assertThat(quickstart.spec().name()).isEqualTo("quickstart");
    assertThat(quickstart.spec().topology().hosts()).isEqualTo(16);
    assertThat(quickstart.spec().workload().algorithms()).containsExactly(Algorithm.RING,
        Algorithm.RECURSIVE_DOUBLING);
    assertThat(quickstart.spec().workload().sizesBytes()).hasSize(19);
    assertThatThrownBy(() -> ScenarioLoader.load(Path.of("../examples/bad-misspelled-key.conf")))
        .isInstanceOf(ScenarioException.class)
        .hasMessageMatching("\\.\\./examples/bad-misspelled-key\\.conf:\\d+: [a-z.-]+: unknown key \\(did you mean "
            + "'[a-z-]+'\\?\\)");
  }

  // ------------------------------------------------------------------------------ unknown keys

  @Test
  void shouldNameFileLineAndKeyWithSuggestionWhenKeyIsMisspelled() {
    assertError("""
        topology {
          hosts-per-torr = 4
        }
        """).hasMessage("x.conf:2: topology.hosts-per-torr: unknown key (did you mean 'hosts-per-tor'?)");
  }

  @Test
  void shouldReportTheFirstUnknownKeyInFileOrderWhenThereAreSeveral() {
    assertError("""
        workload.iteratoins = 3
        topology.hots = 4
        zzz = 1
        """).hasMessage("x.conf:1: workload.iteratoins: unknown key (did you mean 'iterations'?)");
  }

  @Test
  void shouldSuggestTheFullPathWhenKeyIsInTheWrongSection() {
    assertError("workload { segment-size = 4 KiB }")
        .hasMessage("x.conf:1: workload.segment-size: unknown key (did you mean 'devices.nic.segment-size'?)");
  }

  @Test
  void shouldListKnownKeysWhenNothingIsClose() {
    assertError("metrics = []")
        .hasMessage("x.conf:1: metrics: unknown key (known keys: seed, topology, devices, faults, workload, traffic, "
            + "ethernet, rings, pipeline, cluster, name)");
  }

  @Test
  void shouldRejectObjectAndValueMismatchWhenShapeIsWrong() {
    assertError("topology = 5").hasMessage("x.conf:1: topology: expected an object { ... }, got 5");
    assertError("topology.hosts { a = 1 }").hasMessage("x.conf:1: topology.hosts: expected a value, got an object");
  }

  // ------------------------------------------------------------------------------ values

  @Test
  void shouldRejectUnknownUnitWhenDurationIsMisspelled() {
    assertError("topology.host-link.latency = 500 nsec")
        .hasMessageStartingWith("x.conf:1: topology.host-link.latency: '500 nsec' has an unknown unit 'nsec'");
    assertError("devices.host.send-overhead = 300")
        .hasMessage("x.conf:1: devices.host.send-overhead: '300' has no unit (use ps, ns, us, ms or s, "
            + "e.g. '500 ns')");
    assertError("topology.spine-link.bandwidth = 100 GiB")
        .hasMessageStartingWith("x.conf:1: topology.spine-link.bandwidth: '100 GiB' has an unknown unit 'GiB'");
  }

  @Test
  void shouldListAllowedValuesWhenEnumIsWrong() {
    assertError("""
        devices {
          switch { forwarding = cut-thru }
        }
        """).hasMessage("x.conf:2: devices.switch.forwarding: 'cut-thru' is not one of store-and-forward, "
        + "cut-through");
    assertError("topology.kind = dragonfly")
        .hasMessage("x.conf:1: topology.kind: 'dragonfly' is not one of leaf-spine, line, ring, full-mesh, mesh, "
            + "torus, group-ring, prism, optical, rail-leaf-spine, fat-tree");
    assertError("workload.algorithms = [ring, rign]")
        .hasMessageStartingWith("x.conf:1: workload.algorithms[1]: 'rign' is not one of auto, ring,")
        .hasMessageEndingWith("(did you mean 'ring'?)");
  }

  @Test
  void shouldAcceptZeroBytesForSendRecvOnlyAndDoubleFromOneElementAfterIt() {
    WorkloadSpec listed = ScenarioLoader.parse("workload { collective = sendrecv, algorithms = [ping-pong], "
        + "sizes = [0 B, 8 B] }\ntopology.hosts = 2", "x.conf").spec().workload();
    assertThat(listed.sizesBytes()).containsExactly(0L, 8L);
    WorkloadSpec ranged = ScenarioLoader.parse("workload { collective = sendrecv, algorithms = [ping-pong], "
        + "min-size = 0, max-size = 16 B }\ntopology.hosts = 2", "x.conf").spec().workload();
    assertThat(ranged.sizesBytes()).containsExactly(0L, 4L, 8L, 16L);
    WorkloadSpec bytes = ScenarioLoader.parse("workload { collective = sendrecv, algorithms = [ping-pong], "
        + "datatype = int8, min-size = 0, max-size = 4 B }\ntopology.hosts = 2", "x.conf").spec().workload();
    assertThat(bytes.sizesBytes()).containsExactly(0L, 1L, 2L, 4L);
    assertError("workload { sizes = [0 B, 8 B] }")
        .hasMessage("x.conf:1: workload.sizes[0]: '0 B' is less than one element (the float32 element size (4 B))");
  }

  @Test
  void shouldListOnlyTheAlgorithmsOfTheCollectiveWhenAnAlgorithmIsUnknown() {
    assertError("workload { collective = broadcast, algorithms = [binomal] }")
        .hasMessage("x.conf:1: workload.algorithms[0]: 'binomal' is not one of auto, binomial, linear "
            + "(did you mean 'binomial'?)");
    assertError("workload { collective = allreduce, algorithms = [rign] }")
        .hasMessage("x.conf:1: workload.algorithms[0]: 'rign' is not one of " + Algorithm.namesFor(Collective.ALLREDUCE)
            + " (did you mean 'ring'?)")
        .hasMessageNotContaining("send-broadcast").hasMessageNotContaining("dissemination")
        .hasMessageNotContaining("ping-pong");
    // A name of another collective's algorithm: the collective's own, as before.
    assertError("workload { collective = broadcast, algorithms = [ring] }")
        .hasMessage("x.conf:1: workload.algorithms[0]: 'ring' is not an algorithm of broadcast (use auto, binomial, "
            + "linear)");
  }

  @Test
  void shouldRejectWrongTypesWhenNumbersOrBooleansAreExpected() {
    assertError("topology.hosts = many").hasMessage("x.conf:1: topology.hosts: expected a whole number, got 'many'");
    assertError("topology.hosts = 2.5").hasMessage("x.conf:1: topology.hosts: expected a whole number, got 2.5");
    assertError("workload.iterations = 0").hasMessage("x.conf:1: workload.iterations: must be at least 1, got 0");
    assertError("workload.hierarchical = maybe")
        .hasMessage("x.conf:1: workload.hierarchical: expected true or false, got 'maybe'");
    assertError("workload.sizes = 4 B")
        .hasMessage("x.conf:1: workload.sizes: expected a list of sizes such as [4 B, 1 MiB], got '4 B'");
  }

  @Test
  void shouldRejectZeroWhenLatencyOrLinkBandwidthMustBePositive() {
    assertError("topology.host-link.latency = 0 ns")
        .hasMessage("x.conf:1: topology.host-link.latency: must be greater than 0");
    assertError("topology.spine-link.bandwidth = 0 Gbps")
        .hasMessage("x.conf:1: topology.spine-link.bandwidth: must be greater than 0");
    assertError("devices.switch.pipeline-latency = 0 ns")
        .hasMessage("x.conf:1: devices.switch.pipeline-latency: must be greater than 0");
  }

  @Test
  void shouldAcceptZeroWhenHostRateOrOverheadIsFree() {
    ScenarioSpec spec = spec("devices.host { reduce-rate = 0 GBps, send-overhead = 0 ns }");

    assertThat(spec.devices().host().reduceBitsPerSecond()).isZero();
    assertThat(spec.devices().host().sendOverheadPs()).isZero();
  }

  // ------------------------------------------------------------------------------ cross-field rules

  @Test
  void shouldRejectSizeWhenNotAMultipleOfTheElement() {
    assertError("""
        workload {
          sizes = [4 B,
                   3 B]
        }
        """).hasMessage("x.conf:3: workload.sizes[1]: '3 B' is not a multiple of the float32 element size (4 B)");
  }

  @Test
  void shouldCountTheLocationWhenOpIsMaxloc() {
    assertError("workload { op = maxloc, sizes = [4 B] }")
        .hasMessage("x.conf:1: workload.sizes[0]: '4 B' is not a multiple of the float32 maxloc element size "
            + "(8 B: 4 B value + 4 B location)");
    assertError("workload { op = minloc, datatype = int16, sizes = [6 B, 8 B] }")
        .hasMessage("x.conf:1: workload.sizes[1]: '8 B' is not a multiple of the int16 minloc element size "
            + "(6 B: 2 B value + 4 B location)");
    assertError("workload { sizes = [0 B] }")
        .hasMessage("x.conf:1: workload.sizes[0]: '0 B' is less than one element (the float32 element size (4 B))");
    assertThat(spec("workload { op = maxloc, sizes = [8 B, 16 B] }").workload().sizesBytes()).containsExactly(8L,
        16L);
  }

  @Test
  void shouldRejectOpWhenNotDefinedOnDatatype() {
    assertError("workload { datatype = float64, op = band }")
        .hasMessage("x.conf:1: workload.op: band is not defined on float64 (logical and bitwise ops need an "
            + "integer datatype: int8, int16, int32, int64)");
    assertThat(spec("workload { collective = broadcast, datatype = float64, op = band }").workload().op())
        .isEqualTo(ReduceOp.BAND);
  }

  @Test
  void shouldReadBufferLayoutsInOrderWhenGivenAndOutOfPlaceByDefault() {
    assertThat(spec("workload.sizes = [4 B]").workload().buffers()).containsExactly(BufferLayout.OUT_OF_PLACE);
    WorkloadSpec both = spec("workload { sizes = [4 B, 8 B], buffers = [in-place, out-of-place] }").workload();
    assertThat(both.buffers()).containsExactly(BufferLayout.IN_PLACE, BufferLayout.OUT_OF_PLACE);
    assertThat(both.caseCount()).isEqualTo(4);
    assertThat(both.inPlaceOfCase(1)).isTrue();
    assertThat(both.inPlaceOfCase(2)).isFalse();
  }

  @Test
  void shouldRejectBufferLayoutsWhenUnknownRepeatedEmptyOrNotAList() {
    assertError("workload.buffers = [out-of-place, inplace]")
        .hasMessage("x.conf:1: workload.buffers[1]: 'inplace' is not one of out-of-place, in-place (did you mean "
            + "'in-place'?)");
    assertError("workload.buffers = [in-place, in-place]")
        .hasMessage("x.conf:1: workload.buffers[1]: 'in-place' is listed twice");
    assertError("workload.buffers = []").hasMessage("x.conf:1: workload.buffers: must list at least one buffer "
        + "layout");
    assertError("workload.buffers = in-place").hasMessage("x.conf:1: workload.buffers: expected a list such as "
        + "[out-of-place, in-place], got 'in-place'");
  }

  @Test
  void shouldRejectAlgorithmWhenCollectiveDoesNotOfferIt() {
    assertError("workload { collective = broadcast, algorithms = [binomial, ring] }")
        .hasMessage("x.conf:1: workload.algorithms[1]: 'ring' is not an algorithm of broadcast (use auto, binomial, "
            + "linear)");
    assertError("workload.algorithms = [ring, ring]")
        .hasMessage("x.conf:1: workload.algorithms[1]: 'ring' is listed twice");
    assertError("workload.algorithms = []").hasMessage("x.conf:1: workload.algorithms: must list at least one "
        + "algorithm");
    assertThat(spec("workload.algorithms = ring").workload().algorithms()).containsExactly(Algorithm.RING);
  }

  @Test
  void shouldReadTheWindowOfTheWindowedSendRecvWhenGivenAndDefaultToOsuBwsSixtyFour() {
    assertThat(spec("workload { collective = sendrecv }").workload().window()).isEqualTo(64);
    WorkloadSpec windowed = spec("workload { collective = sendrecv, algorithms = [window], window = 8 }").workload();
    assertThat(windowed.algorithms()).containsExactly(Algorithm.WINDOW);
    assertThat(windowed.window()).isEqualTo(8);
    assertError("workload.window = 0").hasMessage("x.conf:1: workload.window: must be at least 1, got 0");
    assertError("workload.window = 65537").hasMessage("x.conf:1: workload.window: 65537 is above the limit of 65536");
  }

  @Test
  void shouldTakeChannelsAndEnginesWithinTheirLimits() {
    assertThat(spec("workload.channels = 8").workload().channels()).isEqualTo(8);
    assertThat(spec("devices.host.engines = 8").devices().host().engines()).isEqualTo(8);
    assertThat(spec("").workload().channels()).isEqualTo(1);
    assertThat(spec("").devices().host().engines()).isEqualTo(1);
    assertError("workload.channels = 17").hasMessage("x.conf:1: workload.channels: 17 is above the limit of 16");
    assertError("devices.host.engines = 0").hasMessage("x.conf:1: devices.host.engines: must be at least 1, got 0");
    // A profile's setting: the other collectives take the profile as it is and ignore it.
    assertThat(spec("workload { collective = allgather, channels = 2 }").workload().channels()).isEqualTo(2);
  }

  @Test
  void shouldRejectRootWhenNotARank() {
    assertError("topology.hosts = 4\nworkload { collective = reduce, ppn = 2, root = 8 }")
        .hasMessage("x.conf:2: workload.root: 8 is not a rank (ranks are 0..7)");
    assertThat(spec("topology.hosts = 4\nworkload { collective = reduce, ppn = 2, root = 7 }").workload().root())
        .isEqualTo(7);
  }

  @Test
  void shouldRejectWorldWhenFewerThanTwoRanks() {
    assertError("topology { hosts = 1 }")
        .hasMessage("x.conf:1: topology.hosts: the world has 1 rank (hosts 1 x ppn 1); a collective needs at "
            + "least 2");
    assertThat(spec("topology { hosts = 1 }\nworkload.ppn = 2").topology().hosts()).isEqualTo(1);
  }

  @Test
  void shouldRequireSpinesWhenThereIsMoreThanOneTor() {
    assertError("topology { hosts = 8, hosts-per-tor = 4, spines = 0 }")
        .hasMessage("x.conf:1: topology.spines: must be at least 1: 8 hosts at 4 per TOR need 2 TORs, which reach "
            + "each other only through spines");
    assertThat(spec("topology { hosts = 4, hosts-per-tor = 4, spines = 0 }").topology())
        .isEqualTo(new LeafSpineSpec(4, 4, 0, new LinkSpec(25_000_000_000L, 500_000L),
            new LinkSpec(100_000_000_000L, 500_000L)));
  }

  @Test
  void shouldRejectKeysOfAnotherTopologyKindWhenWritten() {
    assertError("topology { kind = ring\n spines = 2 }")
        .hasMessage("x.conf:2: topology.spines: only used when kind is leaf-spine or rail-leaf-spine (this topology "
            + "is ring)");
    assertError("topology { link { latency = 1 us } }")
        .hasMessage("x.conf:1: topology.link: only used when kind is line, ring or full-mesh (leaf-spine uses "
            + "host-link and spine-link)");
    assertThat(spec("topology { kind = full-mesh, hosts = 4, link.bandwidth = 100 Gbps }").topology())
        .isEqualTo(new FullMeshSpec(4, new LinkSpec(100_000_000_000L, 500_000L)));
  }

  @Test
  void shouldRejectSegmentWhenSmallerThanOneElement() {
    assertError("devices.nic.segment-size = 4 B\nworkload.datatype = float64")
        .hasMessage("x.conf:1: devices.nic.segment-size: '4 B' is smaller than the float64 element size (8 B)");
  }

  @Test
  void shouldReadPayloadModeWhenGivenAndDefaultToReal() {
    WorkloadSpec synthetic = spec("workload {\n  collective = alltoall\n  payload = synthetic\n}").workload();

    assertThat(synthetic.syntheticPayload()).isTrue();
    assertThat(synthetic.payloadName()).isEqualTo("synthetic");
    assertThat(synthetic.collective()).isEqualTo(Collective.ALLTOALL);
    assertThat(spec("workload.payload = real").workload().syntheticPayload()).isFalse();
    assertThat(spec("").workload().syntheticPayload()).isFalse();
    assertThat(ScenarioLoader.parse("", "x.conf").config().getString("workload.payload")).isEqualTo("real");
  }

  @Test
  void shouldRejectPayloadModeWhenNotRealOrSynthetic() {
    assertError("workload {\n  payload = x\n}")
        .hasMessage("x.conf:2: workload.payload: 'x' is not one of real, synthetic");
    assertError("workload.payload = synthtic")
        .hasMessage("x.conf:1: workload.payload: 'synthtic' is not one of real, synthetic (did you mean "
            + "'synthetic'?)");
    assertError("workload.payload = true")
        .hasMessage("x.conf:1: workload.payload: expected one of real, synthetic, got true");
    assertError("workload.payloads = real")
        .hasMessage("x.conf:1: workload.payloads: unknown key (did you mean 'payload'?)");
  }

  @Test
  void shouldRejectHierarchicalWhenCollectiveIsNotAllreduce() {
    assertError("workload { collective = allgather, hierarchical = true }")
        .hasMessage("x.conf:1: workload.hierarchical: only allreduce has a hierarchical form (collective is "
            + "allgather)");
  }

  @Test
  void shouldRejectAHierarchicalTreeWhichChainsEachNodeItself() {
    assertError("workload { algorithms = [ring, tree], hierarchical = true }")
        .hasMessage("x.conf:1: workload.hierarchical: tree chains the ranks of each node itself; set hierarchical = "
            + "false");
  }

  @Test
  void shouldRejectBothSizeFormsWhenGivenTogether() {
    assertError("workload { sizes = [4 B], max-size = 1 MiB }")
        .hasMessage("x.conf:1: workload.sizes: give either sizes or min-size/max-size, not both");
  }

  @Test
  void shouldExpandDoublingsWhenGivenMinAndMaxSize() {
    assertThat(spec("workload { min-size = 4 B, max-size = 100 B }").workload().sizesBytes())
        .containsExactly(4L, 8L, 16L, 32L, 64L);
    assertThat(spec("workload { max-size = 16 B, datatype = int64 }").workload().sizesBytes())
        .containsExactly(8L, 16L);
    assertError("workload { min-size = 64 B, max-size = 4 B }")
        .hasMessage("x.conf:1: workload.max-size: '4 B' is smaller than min-size (64 B)");
    assertError("workload { min-size = 6 B }")
        .hasMessage("x.conf:1: workload.min-size: '6 B' is not a multiple of the float32 element size (4 B)");
    assertError("workload { sizes = [2 GiB] }")
        .hasMessage("x.conf:1: workload.sizes[0]: '2 GiB' is above the limit of 1 GiB");
  }

  @Test
  void shouldRejectSizeWhenBlocksOfAllRanksOverflowAJavaArray() {
    assertError("topology.hosts = 16\nworkload { collective = allgather, datatype = int16, sizes = [4 B, 512 MiB] }")
        .hasMessage("x.conf:2: workload.sizes[1]: 512 MiB per rank on 16 ranks needs a buffer of 4294967296 "
            + "elements for allgather, more than a Java array holds (2147483639)");
    assertThat(spec("workload { collective = allreduce, datatype = int16, sizes = [512 MiB] }").workload()
        .sizesBytes()).containsExactly(512L << 20);
  }

  @Test
  void shouldRejectSizeWhenEveryBlockOfGatherOrAlltoallOverflowsAJavaArray() {
    assertError("topology.hosts = 16\nworkload { collective = gather, datatype = int16, sizes = [512 MiB] }")
        .hasMessageStartingWith("x.conf:2: workload.sizes[0]: 512 MiB per rank on 16 ranks needs a buffer of "
            + "4294967296 elements for gather");
    assertError("topology.hosts = 16\nworkload { collective = alltoall, datatype = int16, max-size = 512 MiB }")
        .hasMessageStartingWith("x.conf:2: workload.max-size: 256 MiB per rank on 16 ranks needs a buffer of "
            + "2147483648 elements for alltoall");
    assertThat(spec("topology.hosts = 16\nworkload { collective = reduce, datatype = int16, sizes = [512 MiB] }")
        .workload().sizesBytes()).containsExactly(512L << 20);
  }

  @Test
  void shouldUseSizeZeroWhenCollectiveIsBarrier() {
    assertThat(spec("workload.collective = barrier").workload().sizesBytes()).containsExactly(0L);
    assertThat(spec("workload { collective = barrier, sizes = [0 B] }").workload().sizesBytes()).containsExactly(0L);
    assertThat(spec("workload { collective = barrier, max-size = 0 B }").workload().sizesBytes())
        .containsExactly(0L);
  }

  @Test
  void shouldRejectNonZeroSizeWhenCollectiveIsBarrier() {
    assertError("workload { collective = barrier, sizes = [0 B, 4 B] }")
        .hasMessage("x.conf:1: workload.sizes[1]: '4 B' is not 0 B: a barrier moves no data");
    assertError("workload {\n  collective = barrier\n  min-size = 8 B\n}")
        .hasMessage("x.conf:3: workload.min-size: '8 B' is not 0 B: a barrier moves no data");
    assertError("workload { collective = barrier, max-size = 1 MiB }")
        .hasMessage("x.conf:1: workload.max-size: '1 MiB' is not 0 B: a barrier moves no data");
  }

  // ------------------------------------------------------------------------------ names are case-sensitive

  @Test
  void shouldRejectNamesWhenNotLowerCase() {
    assertError("workload.datatype = Float32")
        .hasMessage("x.conf:1: workload.datatype: 'Float32' is not one of int8, int16, int32, int64, float32, float64 "
            + "(did you mean 'float32'?)");
    assertError("workload.op = SUM")
        .hasMessageStartingWith("x.conf:1: workload.op: 'SUM' is not one of sum, prod, max, min,")
        .hasMessageEndingWith("(did you mean 'sum'?)");
    assertError("workload.collective = AllReduce")
        .hasMessageStartingWith("x.conf:1: workload.collective: 'AllReduce' is not one of allreduce,");
    assertError("workload.algorithms = [Ring]")
        .hasMessageStartingWith("x.conf:1: workload.algorithms[0]: 'Ring' is not one of auto, ring,");
    assertError("topology.kind = Ring")
        .hasMessageStartingWith("x.conf:1: topology.kind: 'Ring' is not one of leaf-spine, line, ring, full-mesh");
    assertError("devices.switch.forwarding = Cut-Through")
        .hasMessageStartingWith("x.conf:1: devices.switch.forwarding: 'Cut-Through' is not one of");
    assertError("workload.payload = Real")
        .hasMessageStartingWith("x.conf:1: workload.payload: 'Real' is not one of real, synthetic");
    assertThat(DataType.fromConfigName("FLOAT64")).isNull();
    assertThat(ReduceOp.fromConfigName("Max")).isNull();
    assertThat(DataType.fromConfigName("float64")).isEqualTo(DataType.FLOAT64);
    assertThat(ReduceOp.fromConfigName("max")).isEqualTo(ReduceOp.MAX);
  }

  // ------------------------------------------------------------------------------ limits

  @Test
  void shouldRejectHostsWhenAboveTheLimit() {
    assertError("topology {\n  kind = ring\n  hosts = 2000000000\n}")
        .hasMessage("x.conf:3: topology.hosts: 2000000000 is above the limit of 1048576");
    assertError("topology.hosts = 5000000000")
        .hasMessage("x.conf:1: topology.hosts: 5000000000 is above the limit of 1048576");
    assertThat(spec("topology { kind = line, hosts = 1048576 }").topology().hosts()).isEqualTo(1_048_576);
  }

  @Test
  void shouldRejectFullMeshWhenAboveTheLimitOfItsOwn() {
    assertError("topology { kind = full-mesh, hosts = 2049 }")
        .hasMessage("x.conf:1: topology.hosts: 2049 is above the limit of 2048 for a full mesh (its cables grow as "
            + "hosts squared)");
    assertThat(spec("topology { kind = full-mesh, hosts = 2048 }").topology().hosts()).isEqualTo(2048);
    assertThat(spec("topology { kind = ring, hosts = 4096 }").topology().hosts()).isEqualTo(4096);
  }

  @Test
  void shouldRejectSpinesWhenTheyOrTheirCablesAreAboveTheLimit() {
    assertError("topology.spines = 2000000000")
        .hasMessage("x.conf:1: topology.spines: 2000000000 is above the limit of 4096");
    assertError("topology { hosts = 1048576, hosts-per-tor = 1, spines = 8 }")
        .hasMessage("x.conf:1: topology.spines: 1048576 TORs x 8 spines = 8388608 TOR-spine cables is above the "
            + "limit of 4194304");
    assertThat(spec("topology { hosts = 1048576, hosts-per-tor = 32, spines = 64 }").topology())
        .isInstanceOfSatisfying(LeafSpineSpec.class, t -> assertThat(t.spines()).isEqualTo(64));
  }

  @Test
  void shouldRejectPpnAndRanksWhenAboveTheLimit() {
    assertError("workload.ppn = 4097").hasMessage("x.conf:1: workload.ppn: 4097 is above the limit of 4096");
    assertError("topology { kind = line, hosts = 2048 }\nworkload.ppn = 4096")
        .hasMessage("x.conf:2: workload.ppn: 2048 hosts x 4096 ppn = 8388608 ranks is above the limit of 4194304 "
            + "ranks");
    ScenarioSpec largest = spec("topology { kind = line, hosts = 1024 }\nworkload.ppn = 4096");
    assertThat((long) largest.topology().hosts() * largest.workload().ppn()).isEqualTo(4_194_304L);
  }

  @Test
  void shouldRejectHeaderAndPacketWhenAboveTheLimit() {
    assertError("devices.nic.header-bytes = 128 KiB")
        .hasMessage("x.conf:1: devices.nic.header-bytes: '128 KiB' is above the limit of 64 KiB");
    assertError("devices.nic.segment-size = 2 GiB")
        .hasMessage("x.conf:1: devices.nic.segment-size: '2 GiB' is above the limit of 1 GiB");
    assertError("devices.nic {\n  segment-size = 1 GiB\n}")
        .hasMessage("x.conf:2: devices.nic.segment-size: '1 GiB' plus header-bytes (64 B) is above the limit of "
            + "1 GiB per packet");
    assertThat(spec("devices.nic { segment-size = 1048512 KiB, header-bytes = 64 KiB }").devices().nic())
        .satisfies(nic -> assertThat((long) nic.segmentBytes() + nic.headerBytes()).isEqualTo(1L << 30));
  }

  @Test
  void shouldRejectDurationWhenLongerThanOneSecond() {
    assertError("devices.host.send-overhead = 1.5 s")
        .hasMessage("x.conf:1: devices.host.send-overhead: '1.5 s' is above the limit of 1 s (every duration is at "
            + "most 1 s)");
    assertError("topology.host-link.latency = 9000000 s")
        .hasMessageContaining("topology.host-link.latency: '9000000 s' is above the limit of 1 s")
        .hasMessageContaining("at most 1 s");
    for (String key : List.of("devices.host.recv-overhead", "devices.host.memory-latency",
        "devices.host.pcie-latency", "devices.nic.per-message-overhead", "devices.nic.forwarding-latency",
        "devices.switch.pipeline-latency", "topology.spine-link.latency")) {
      assertError(key + " = 1000000000001 ps").hasMessageContaining(key + ": '1000000000001 ps' is above the limit "
          + "of 1 s");
    }
    assertError("topology { kind = ring, link.latency = 2 s }")
        .hasMessageContaining("topology.link.latency: '2 s' is above the limit of 1 s");
    assertThat(spec("devices.host.send-overhead = 1 s").devices().host().sendOverheadPs())
        .isEqualTo(1_000_000_000_000L);
  }

  @Test
  void shouldRejectRateWhenAboveTenTbps() {
    assertError("topology.spine-link.bandwidth = 20 Tbps")
        .hasMessage("x.conf:1: topology.spine-link.bandwidth: '20 Tbps' is above the limit of 10 Tbps");
    assertError("devices.host.pcie-bandwidth = 10000000000001 bps")
        .hasMessage("x.conf:1: devices.host.pcie-bandwidth: '10000000000001 bps' is above the limit of 10 Tbps");
    assertError("devices.host.reduce-rate = 2 TBps")
        .hasMessage("x.conf:1: devices.host.reduce-rate: '2 TBps' is above the limit of 10 Tbps (1.25 TBps)");
    assertError("devices.host.memory-bandwidth = 1.5 TBps")
        .hasMessageContaining("devices.host.memory-bandwidth: '1.5 TBps' is above the limit of 10 Tbps");
    assertError("topology { kind = line, link.bandwidth = 11 Tbps }")
        .hasMessageContaining("topology.link.bandwidth: '11 Tbps' is above the limit of 10 Tbps");
    assertThat(spec("topology.host-link.bandwidth = 10 Tbps\ndevices.host.reduce-rate = 1.25 TBps").devices().host()
        .reduceBitsPerSecond()).isEqualTo(10_000_000_000_000L);
  }

  // ------------------------------------------------------------------------------ file-level errors

  @Test
  void shouldGiveOneLineWithFileAndLineWhenHoconIsMalformed() {
    Throwable e = org.assertj.core.api.Assertions.catchThrowable(() ->
        ScenarioLoader.parse("topology {\n  hosts = 4\n  spines = [1,,]\n}\n", "x.conf"));

    assertThat(e).isInstanceOf(ScenarioException.class);
    assertThat(e.getMessage()).startsWith("x.conf:").contains("HOCON syntax error").doesNotContain("\n");
    assertThat(((ScenarioException) e).line()).isPositive();
  }

  @Test
  void shouldNameTheSubstitutionWhenItCannotBeResolved() {
    assertError("topology.hosts = ${nowhere}")
        .hasMessage("x.conf:1: Could not resolve substitution to a value: ${nowhere}");
  }

  @Test
  void shouldSayNoSuchFileWhenScenarioIsMissing(@TempDir Path dir) {
    Path missing = dir.resolve("nope.conf");
    assertThatThrownBy(() -> ScenarioLoader.load(missing)).isInstanceOf(ScenarioException.class)
        .hasMessage(missing + ": no such file");
  }

  @Test
  void shouldNameTheFileAsGivenWhenLoadingFromDisk(@TempDir Path dir) throws Exception {
    Path file = dir.resolve("s.conf");
    Files.writeString(file, "seed = 1\nworkload.collective = allreduse\n");
    assertThatThrownBy(() -> ScenarioLoader.load(file)).isInstanceOf(ScenarioException.class)
        .hasMessage(file + ":2: workload.collective: 'allreduse' is not one of allreduce, reduce, broadcast, "
            + "allgather, reduce-scatter, gather, scatter, alltoall, barrier, sendrecv, pipeline (did you mean "
            + "'allreduce'?)");
  }
}
