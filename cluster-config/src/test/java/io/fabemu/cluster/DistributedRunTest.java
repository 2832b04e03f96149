package io.fabemu.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import io.fabemu.cluster.scenario.ScenarioLoader;
import io.fabemu.collectives.Algorithm;
import io.fabemu.core.fault.FaultAction;
import io.fabemu.core.fault.FaultEvent;
import io.fabemu.core.fault.FaultPlan;
import io.fabemu.core.fault.FaultSettings;
import io.fabemu.core.inc.IncCodes.FailCause;
import io.fabemu.core.placement.PlacementPlan;
import io.fabemu.core.protocol.DirectedLink;
import io.fabemu.core.sim.ProgressListener;
import io.fabemu.core.sim.WindowedEngine;
import io.fabemu.core.topology.Topology;
import io.fabemu.engine.EngineFailedException;
import io.fabemu.engine.EngineOutcome;
import io.fabemu.engine.MemberWatcher;
import io.fabemu.engine.PekkoWindowEngine;
import io.fabemu.fabric.Fabric;
import io.fabemu.fabric.ScenarioSpec;
import io.fabemu.fabric.result.FaultImpact;
import io.fabemu.fabric.result.RunResult;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * One run spread over 1, 2 and 3 Pekko cluster members, each its own ActorSystem in this JVM (Artery tcp on
 * 127.0.0.1): every message between members goes through Kryo, and the results must equal the plain engine's.
 */
class DistributedRunTest {
  private static final Duration START_TIMEOUT = Duration.ofSeconds(20);
  private static final Config CONFIG = ConfigFactory.parseString("""
      pekko.actor.serialize-messages = on
      pekko.actor.serialize-creators = off
      """);

  private static List<EmbeddedCluster> members;

  @BeforeAll
  static void startMembers() {
    members = TestMembers.start(CONFIG, 3);
  }

  @AfterAll
  static void stopMembers() {
    TestMembers.stop(members);
  }

  private static ScenarioSpec leafSpineAllreduce() {
    return ScenarioLoader.parse("""
        name = distributed-test
        seed = 11
        topology { kind = leaf-spine, hosts = 12, hosts-per-tor = 4, spines = 2 }
        workload {
          collective = allreduce, algorithms = [ring, recursive-doubling]
          sizes = [4 B, 4 KiB, 64 KiB], iterations = 2, warmup = 1, ppn = 2
        }
        """, "distributed-test.conf").spec();
  }

  @Test
  void shouldGiveThePlainEnginesDigestAndCasesWhenRunOnOneTwoAndThreeMembers() {
    ScenarioSpec spec = leafSpineAllreduce();
    RunResult plain = Fabric.build(spec).runOnPlainEngine();
    assertThat(plain.complete()).isTrue();
    assertThat(plain.wrongElements()).isZero();

    for (int n = 1; n <= 3; n++) {
      RunResult distributed = ScenarioRunner.runDistributed(members.get(0), spec, n, START_TIMEOUT, (d, t) -> {});

      assertThat(distributed.complete()).as("%d member(s): %s", n, distributed.incompleteReason()).isTrue();
      assertThat(distributed.wrongElements()).isZero();
      assertThat(distributed.digest()).as("digest on %d member(s)", n).isEqualTo(plain.digest());
      assertThat(distributed.cases()).isEqualTo(plain.cases());
      assertThat(distributed.links()).isEqualTo(plain.links());
      assertThat(distributed.virtualEndPs()).isEqualTo(plain.virtualEndPs());
      assertThat(distributed.events()).isEqualTo(plain.events());
      if (n == 1) {
        assertThat(distributed.windows()).isEqualTo(plain.windows());
      } else {
        // Global windows of spine-link latency + pipeline (1,100 ns) instead of the 250 ns lookahead.
        assertThat(distributed.windows()).as("global windows on %d members", n).isLessThan(plain.windows());
      }
    }
  }

  @Test
  void shouldGiveThePlainEnginesDigestWhenTheScenarioPlacesTheMembers() {
    // A placement the automatic plan would not choose: tor0 and tor2 with both spines apart from tor1.
    ScenarioSpec spec = ScenarioLoader.parse("""
        name = distributed-placement
        seed = 11
        topology { kind = leaf-spine, hosts = 12, hosts-per-tor = 4, spines = 2 }
        workload { collective = allreduce, algorithms = [ring], sizes = [4 B, 4 KiB], iterations = 2, ppn = 2 }
        cluster.placement = [["tor0", "host8", "spine*"], ["tor1"]]
        """, "distributed-placement.conf").spec();
    Fabric fabric = Fabric.build(spec);
    assertThat(MemberPlacement.plan(spec, fabric.topology(), fabric.devices().length, 2).memberOfDevices())
        .as("the scenario's placement, not the automatic one")
        .isNotEqualTo(PlacementPlan.compute(fabric.topology(), fabric.devices().length, 2).memberOfDevices());
    RunResult plain = fabric.runOnPlainEngine();

    RunResult distributed = ScenarioRunner.runDistributed(members.get(0), spec, 2, START_TIMEOUT, (d, t) -> {});

    assertThat(distributed.complete()).as(distributed.incompleteReason()).isTrue();
    assertThat(distributed.wrongElements()).isZero();
    assertThat(distributed.digest()).isEqualTo(plain.digest());
    assertThat(distributed.cases()).isEqualTo(plain.cases());
    assertThat(distributed.links()).isEqualTo(plain.links());
  }

  @Test
  void shouldGiveThePlainEnginesDigestWhenARouterNetworkRunsOnOneAndThreeMembers() {
    // Flits and credits cross members; every flit is its own event, so the run is kept small.
    ScenarioSpec spec = ScenarioLoader.parse("""
        name = distributed-torus
        seed = 3
        topology { kind = torus, dimensions = [3, 2] }
        devices.nic.segment-size = 256 B
        devices.router { flit-bytes = 64 B, link-latency-cycles = 2 }
        workload { collective = allreduce, algorithms = [dimension-ring, ring], sizes = [4 B, 2 KiB], iterations = 1 }
        """, "distributed-torus.conf").spec();
    RunResult plain = exactOnPlainEngine(spec);
    for (int n : new int[] {1, 3}) {
      assertThat(sameAsPlainOn(n, spec, plain).events()).isEqualTo(plain.events());
    }
  }

  @Test
  void shouldGiveThePlainEnginesDigestWhenTheEmbeddedRingAlgorithmsRunOnAPrismOnOneAndThreeMembers() {
    // The ring embedding travels to the members with the scenario; the rings' lanes ride in the tags.
    ScenarioSpec spec = ScenarioLoader.parse("""
        name = distributed-prism
        seed = 5
        topology { kind = prism, nodes-per-layer = 3, layers = 3 }
        workload {
          collective = allreduce, algorithms = [multi-ring, bidirectional-ring, line-both-ends]
          sizes = [4 B, 6 KiB], iterations = 1
        }
        """, "distributed-prism.conf").spec();
    assertThat(spec.rings().rings()).hasSize(6);
    RunResult plain = exactOnPlainEngine(spec);
    for (int n : new int[] {1, 3}) sameAsPlainOn(n, spec, plain);
  }

  @Test
  void shouldGiveThePlainEnginesDigestWhenAllreduceRunsOnAnOpticalClusterOnOneAndThreeMembers() {
    // The optical spec (its formula and intra-server kind) travels to the members with the scenario.
    ScenarioSpec spec = ScenarioLoader.parse("""
        name = distributed-optical
        seed = 9
        topology { kind = optical, servers = 4, npus-per-server = 3, intra-server.kind = switch }
        workload {
          collective = allreduce, algorithms = [ring, recursive-doubling], sizes = [4 B, 6 KiB], iterations = 1
        }
        """, "distributed-optical.conf").spec();
    RunResult plain = exactOnPlainEngine(spec);
    for (int n : new int[] {1, 3}) sameAsPlainOn(n, spec, plain);
  }

  @Test
  void shouldGiveThePlainEnginesDigestWhenAllreduceRunsOnAFatTreeOnOneAndThreeMembers() {
    // The fat-tree spec travels to the members with the scenario; its aggregations and cores are placed as spines.
    ScenarioSpec spec = ScenarioLoader.parse("""
        name = distributed-fat-tree
        seed = 7
        topology {
          kind = fat-tree, pods = 2, leaves-per-pod = 2, aggregations-per-pod = 2, cores = 2, hosts-per-leaf = 2
        }
        workload {
          collective = allreduce, algorithms = [ring, recursive-doubling], sizes = [4 B, 6 KiB], iterations = 1
        }
        """, "distributed-fat-tree.conf").spec();
    RunResult plain = exactOnPlainEngine(spec);
    for (int n : new int[] {1, 3}) sameAsPlainOn(n, spec, plain);
  }

  @Test
  void shouldGiveThePlainEnginesDigestWhenAPipelineIterationRunsOnOneAndThreeMembers() {
    // The pipeline (its costs and stage collective) travels with the workload; the iteration's parts come back.
    ScenarioSpec spec = ScenarioLoader.parse("""
        name = distributed-pipeline
        seed = 9
        topology { kind = optical, servers = 4, npus-per-server = 3 }
        workload {
          collective = pipeline, algorithms = [auto, switch-send, allgather-send-scatter], sizes = [48 B, 3 KiB]
          iterations = 1
        }
        pipeline { micro-batches = 2, stage-collective = allreduce, global-allreduce-size = 1 KiB }
        """, "distributed-pipeline.conf").spec();
    RunResult plain = exactOnPlainEngine(spec);
    assertThat(plain.cases().get(0).algorithm()).isEqualTo(Algorithm.SEND_BROADCAST);
    assertThat(plain.cases().get(0).partEndsPs()).hasSize(2);
    for (int n : new int[] {1, 3}) {
      RunResult distributed = sameAsPlainOn(n, spec, plain);
      assertThat(distributed.cases().get(1).partEndsPs()).isEqualTo(plain.cases().get(1).partEndsPs());
    }
  }

  @Test
  void shouldGiveThePlainEnginesResultWhenTheOcsControllerSetsCircuitsUpOnOneAndThreeMembers() {
    // The controller (member 0) tells NICs on every member that their circuit is up (CircuitUp crosses members).
    ScenarioSpec spec = ScenarioLoader.parse("""
        name = distributed-ocs
        seed = 9
        topology { kind = optical, servers = 4, npus-per-server = 3, ocs.reconfiguration-delay = 5 us }
        workload {
          collective = allreduce, algorithms = [ring, recursive-doubling], sizes = [4 B, 6 KiB], iterations = 1
        }
        """, "distributed-ocs.conf").spec();
    RunResult plain = exactOnPlainEngine(spec);
    assertThat(plain.ocs().circuitsSetUp()).isEqualTo(6);
    assertThat(plain.ocs().heldPackets()).isPositive();
    for (int n : new int[] {1, 3}) {
      assertThat(sameAsPlainOn(n, spec, plain).ocs()).isEqualTo(plain.ocs());
    }
  }

  @Test
  void shouldGiveThePlainEnginesDigestWhenTheOcsPolicyChangesDuringTheRunOnOneAndThreeMembers() {
    // The controller (member 0) sends its whole schedule at time 0, teardowns and set-ups due far ahead, to NICs on
    // every member; NICs and server switches switch routes at each change's time on whatever member they are.
    ScenarioSpec spec = ScenarioLoader.parse("""
        name = distributed-ocs-reconfigure
        seed = 9
        topology {
          kind = optical, servers = 4, npus-per-server = 4, intra-server.kind = switch
          ocs {
            reconfiguration-delay = 5 us
            reconfigure = [{ at = 10 us, formula = formula-1 }, { at = 15 us, formula = formula-3 }]
          }
        }
        workload {
          collective = allreduce, algorithms = [ring, recursive-doubling], sizes = [4 B, 6 KiB], iterations = 1
        }
        """, "distributed-ocs-reconfigure.conf").spec();
    RunResult plain = exactOnPlainEngine(spec);
    assertThat(plain.ocs().changes()).hasSize(2).allSatisfy(c -> {
      assertThat(c.circuitsTornDown()).isEqualTo(6);
      assertThat(c.heldPackets()).isPositive();
    });
    for (int n : new int[] {1, 3}) {
      assertThat(sameAsPlainOn(n, spec, plain).ocs()).isEqualTo(plain.ocs());
    }
  }

  @Test
  void shouldKeepTheCrossMemberWindowWithinAnOcsDelayShorterThanEveryLinkBetweenMembers() {
    // Servers behind switches, one per member: only the 1 us circuits cross members, and the controller's word
    // (500 ns) is faster than all of them, so the global window must shrink to it.
    ScenarioSpec spec = ScenarioLoader.parse("""
        name = distributed-fast-ocs
        seed = 4
        topology {
          kind = optical, servers = 3, npus-per-server = 3, intra-server.kind = switch
          ocs.reconfiguration-delay = 500 ns
        }
        workload { collective = allreduce, algorithms = [ring], sizes = [4 KiB], iterations = 1 }
        """, "distributed-fast-ocs.conf").spec();
    RunResult plain = exactOnPlainEngine(spec);
    assertThat(sameAsPlainOn(3, spec, plain).ocs()).isEqualTo(plain.ocs());
  }

  @Test
  void shouldGiveThePlainEnginesDigestWhenASpineFailsAndRecoversOnOneAndThreeMembers() {
    // The management node (member 0) hears from TORs on every member and updates them across members.
    ScenarioSpec base = leafSpineAllreduce();
    Topology topology = base.topology().build();
    int spine0 = topology.vertices().stream().filter(v -> v.name().equals("spine0")).findFirst().orElseThrow().id();
    int tor1 = topology.vertices().stream().filter(v -> v.name().equals("tor1")).findFirst().orElseThrow().id();
    ScenarioSpec spec = base.withFaults(new FaultPlan(FaultSettings.DEFAULTS, List.of(
        FaultEvent.device(30_000_000L, FaultAction.DOWN, "switch spine0", spine0, topology),
        FaultEvent.device(90_000_000L, FaultAction.UP, "switch spine0", spine0, topology),
        FaultEvent.lossy(0, "link tor1-spine1", List.of(new DirectedLink(tor1, spine0 + 1),
            new DirectedLink(spine0 + 1, tor1)), 0.01, 0.01))));
    // The members also run the scenario without faults, to give each event its collectives' extra latency.
    RunResult plain = plainWithBaseline(spec);
    assertThat(plain.complete()).as(plain.incompleteReason()).isTrue();
    assertThat(plain.wrongElements()).isZero();
    assertThat(plain.faults().records()).hasSize(2);
    assertThat(plain.impactOf(0).collectivesTouched()).isPositive();
    for (int n : new int[] {1, 3}) {
      RunResult distributed = ScenarioRunner.runDistributed(members.get(0), spec, n, START_TIMEOUT, (d, t) -> {});
      assertThat(distributed.complete()).as("%d member(s): %s", n, distributed.incompleteReason()).isTrue();
      assertThat(distributed.digest()).as("digest on %d member(s)", n).isEqualTo(plain.digest());
      assertThat(distributed.faults()).isEqualTo(plain.faults());
      assertThat(distributed.faultImpacts()).isEqualTo(plain.faultImpacts());
      assertThat(distributed.events()).isEqualTo(plain.events());
    }
  }

  @Test
  void shouldGiveThePlainEnginesDigestWhenAMeshNodeFailsAndReturnsOnOneAndThreeMembers() {
    // Cut worms, credits, notices and detoured packets cross members.
    ScenarioSpec spec = ScenarioLoader.parse("""
        name = distributed-mesh-faults
        seed = 9
        topology { kind = mesh, dimensions = [3, 3] }
        devices.nic.segment-size = 256 B
        devices.router { flit-bytes = 64 B, link-latency-cycles = 2, virtual-channels = 2 }
        workload { collective = allreduce, algorithms = [recursive-doubling], sizes = [2 KiB], iterations = 1 }
        faults {
          transport.retransmit-timeout = 5 us
          events = [
            { at = 1 us, action = down, node = "host4" }
            { at = 9 us, action = up, node = "host4" }
            { at = 2 us, action = down, link = "router0-router1" }
          ]
        }
        """, "distributed-mesh-faults.conf").spec();
    RunResult plain = plainWithBaseline(spec);
    assertThat(plain.complete()).as(plain.incompleteReason()).isTrue();
    assertThat(plain.wrongElements()).isZero();
    assertThat(plain.faults().tally().totalLostPackets()).isPositive();
    for (int n : new int[] {1, 3}) {
      RunResult distributed = ScenarioRunner.runDistributed(members.get(0), spec, n, START_TIMEOUT, (d, t) -> {});
      assertThat(distributed.complete()).as("%d member(s): %s", n, distributed.incompleteReason()).isTrue();
      assertThat(distributed.digest()).as("digest on %d member(s)", n).isEqualTo(plain.digest());
      assertThat(distributed.faults()).isEqualTo(plain.faults());
      assertThat(distributed.events()).isEqualTo(plain.events());
    }
  }

  @Test
  void shouldGiveThePlainEnginesDigestAndEthernetFiguresWhenIoNodesSwitchOnOneAndThreeMembers() {
    // Frames cross members inside flits, on the cables to the external Ethernet (member 0) and in its controls.
    ScenarioSpec spec = ScenarioLoader.parse("""
        name = distributed-mesh-ethernet
        seed = 9
        topology { kind = mesh, dimensions = [3, 3] }
        devices.nic.segment-size = 256 B
        devices.router { flit-bytes = 64 B, link-latency-cycles = 2, virtual-channels = 2 }
        workload { collective = allreduce, algorithms = [recursive-doubling], sizes = [2 KiB], iterations = 1 }
        faults {
          transport.retransmit-timeout = 5 us
          events = [
            { at = 3 us, action = down, node = "host8" }
            { at = 12 us, action = up, node = "host8" }
          ]
        }
        ethernet {
          io-nodes = ["host2", "host8"]
          standby = ["host2"]
          corrupt = 0.1
          link.latency = 500 ns
          traffic { inbound-frames = 8, outbound-frames = 4, interval = 1 us, unknown-mac-every = 3 }
        }
        """, "distributed-mesh-ethernet.conf").spec();
    RunResult plain = plainWithBaseline(spec);
    assertThat(plain.complete()).as(plain.incompleteReason()).isTrue();
    assertThat(plain.ethernet().changes())
        .containsExactly("Ethernet NIC of host8 disabled (node host8 down at 3.000 us), host2 enabled");
    for (int n : new int[] {1, 3}) {
      RunResult distributed = ScenarioRunner.runDistributed(members.get(0), spec, n, START_TIMEOUT, (d, t) -> {});
      assertThat(distributed.digest()).as("digest on %d member(s)", n).isEqualTo(plain.digest());
      assertThat(distributed.ethernet()).isEqualTo(plain.ethernet());
    }
  }

  /** What the members give for a scenario with faults: its plain-engine run compared with its baseline's. */
  /** {@code spec} on the plain engine, checked complete and exact. */
  private static RunResult exactOnPlainEngine(ScenarioSpec spec) {
    RunResult plain = Fabric.build(spec).runOnPlainEngine();
    assertThat(plain.complete()).isTrue();
    assertThat(plain.wrongElements()).isZero();
    return plain;
  }

  /**
   * {@code spec} on {@code n} members, checked complete, exact, with the plain run's digest and link counters;
   * returned for the figures a test compares besides.
   */
  private static RunResult sameAsPlainOn(int n, ScenarioSpec spec, RunResult plain) {
    RunResult distributed = ScenarioRunner.runDistributed(members.get(0), spec, n, START_TIMEOUT, (d, t) -> {});
    assertThat(distributed.complete()).as("%d member(s): %s", n, distributed.incompleteReason()).isTrue();
    assertThat(distributed.wrongElements()).isZero();
    assertThat(distributed.digest()).as("digest on %d member(s)", n).isEqualTo(plain.digest());
    assertThat(distributed.links()).isEqualTo(plain.links());
    return distributed;
  }

  private static RunResult plainWithBaseline(ScenarioSpec spec) {
    return FaultImpact.compare(Fabric.build(spec).runOnPlainEngine(), Fabric.build(spec.baseline()).runOnPlainEngine());
  }

  /** In-network Allreduce (and a host ring) with loss on a link between members, so retransmissions cross too. */
  private static ScenarioSpec incAllreduce() {
    return ScenarioLoader.parse("""
        name = distributed-inc
        seed = 5
        topology { kind = leaf-spine, hosts = 12, hosts-per-tor = 4, spines = 2 }
        devices.inc.enabled = true
        faults.packet-drops = [
          { from = "tor0", to = "spine0", probability = 0.2 }, { from = "tor0", to = "spine1", probability = 0.2 }
          { from = "spine0", to = "tor1", probability = 0.2 }, { from = "spine1", to = "tor1", probability = 0.2 }
        ]
        workload {
          collective = allreduce, algorithms = [inc-node, ring]
          sizes = [4 B, 1 KiB], iterations = 2, warmup = 1, ppn = 2
        }
        """, "distributed-inc.conf").spec();
  }

  @Test
  void shouldGiveThePlainEnginesReportsAndDigestWithFewerBarriersWhenInNetworkAllreduceRunsInSubWindows() {
    ScenarioSpec spec = incAllreduce();
    Fabric plainFabric = Fabric.build(spec);
    WindowedEngine plain = new WindowedEngine(plainFabric.devices(), plainFabric.lookaheadPs());
    plainFabric.startEvents().forEach(plain::inject);
    plain.run();
    RunResult plainResult = Fabric.build(spec).runOnPlainEngine();
    assertThat(plainResult.complete()).as(plainResult.incompleteReason()).isTrue();
    assertThat(plainResult.wrongElements()).isZero();
    assertThat(plainResult.cases().get(0).incOutcome()).as("the INC cases ran in the switches")
        .isEqualTo(FailCause.NONE);
    assertThat(plainResult.links()).as("the lossy link lost INC packets")
        .anyMatch(l -> l.droppedPackets() > 0);

    long oneMemberWindows = 0;
    for (int n : new int[] {1, 3}) {
      Fabric fabric = Fabric.build(spec);
      PlacementPlan plan = PlacementPlan.compute(fabric.topology(), fabric.devices().length, n);
      long windowPs = ScenarioRunner.crossLookaheadPs(fabric, plan);
      assertThat(windowPs).isEqualTo(n == 1 ? fabric.lookaheadPs() : 500_000L + 600_000L);

      EngineOutcome outcome = PekkoWindowEngine.runDistributed(members.get(0).system(), n, spec,
          plan.memberOfDevices(), fabric.lookaheadPs(), windowPs, fabric.startEvents(), ProgressListener.NONE,
          START_TIMEOUT, MemberWatcher.NONE);

      assertThat(outcome.reports()).as("every device's report (per-rank results, links) on %d member(s)", n)
          .isEqualTo(plain.reports());
      assertThat(outcome.events()).isEqualTo(plain.eventsHandled());
      assertThat(outcome.lastEventTimePs()).isEqualTo(plain.lastEventTimePs());
      if (n == 1) {
        assertThat(outcome.windows()).isEqualTo(plain.windows());
        oneMemberWindows = outcome.windows();
      } else {
        assertThat(outcome.windows()).as("global barriers on 3 members").isLessThan(oneMemberWindows);
      }

      RunResult result = ScenarioRunner.runDistributed(members.get(0), spec, n, START_TIMEOUT, (d, t) -> {});
      assertThat(result.digest()).as("digest on %d member(s)", n).isEqualTo(plainResult.digest());
      assertThat(result.cases()).isEqualTo(plainResult.cases());
      assertThat(result.virtualEndPs()).isEqualTo(plainResult.virtualEndPs()).isEqualTo(plain.lastEventTimePs());
    }
  }

  @Test
  void shouldFailWithTheNumberFoundWhenFewerMembersThanAskedShowUp() {
    // A line of 8 hosts can be spread over 8 members, but only 3 serve runs.
    ScenarioSpec spec = ScenarioLoader.parse("""
        name = too-many
        topology { kind = line, hosts = 8 }
        workload { collective = allreduce, sizes = [4 B], iterations = 1, warmup = 0 }
        """, "too-many.conf").spec();

    assertThatThrownBy(() -> ScenarioRunner.runDistributed(members.get(0), spec, 8, Duration.ofSeconds(3),
        (d, t) -> {}))
        .isInstanceOf(EngineFailedException.class)
        .hasMessageContaining("found 3 of 8 member(s)");
  }

  @Test
  void shouldRejectWhenMembersOutnumberTheTors() {
    assertThatThrownBy(() -> ScenarioRunner.runDistributed(members.get(0), leafSpineAllreduce(), 4, START_TIMEOUT,
        (d, t) -> {}))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("at most 3");
  }
}
