package io.fabemu.fabric;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabemu.collectives.Algorithm;
import io.fabemu.collectives.Collective;
import io.fabemu.collectives.WorkloadSpec;
import io.fabemu.core.data.DataType;
import io.fabemu.core.link.ForwardingMode;
import io.fabemu.core.rings.RingEmbedding;
import io.fabemu.core.topology.PrismSpec;
import io.fabemu.fabric.result.CaseResult;
import io.fabemu.fabric.result.RunResult;
import io.fabemu.nic.NicSpec;
import io.fabemu.switching.SwitchSpec;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The embedded-ring algorithms through real NICs and parallel links on prisms of 3 to 6 nodes per layer and 2 to
 * 16 layers, on the face rule's rings (arc-disjoint in both directions on 3 and 4 per layer; one direction sharing
 * intra-layer links on 5 and 6): every case finishes with exact results, with vectors no rank count divides and
 * vectors shorter than the world.
 */
class PrismRingsFabricTest {

  @ParameterizedTest(name = "{0} x {1}")
  @CsvSource({"3, 2", "3, 5", "3, 16", "4, 2", "4, 3", "4, 16", "5, 2", "5, 4", "5, 16", "6, 2", "6, 7", "6, 16"})
  void shouldGiveExactResultsWhenEveryEmbeddedRingAlgorithmRunsOnAPrism(int perLayer, int layers) {
    PrismSpec prism = new PrismSpec(perLayer, layers, TestScenarios.DIRECT_LINK, TestScenarios.DIRECT_LINK);
    int p = prism.hosts();
    RingEmbedding rings = faceRule(prism);
    // 3 and 4 per layer: the rings of both directions; 5 and 6: one direction only.
    assertThat(rings.rings()).hasSize(perLayer <= 4 ? 2 * perLayer : perLayer);
    assertThat(rings.warnings().isEmpty()).isEqualTo(perLayer <= 4);
    // Allreduce int32: 1009 elements (a prime above every world here) and 5 (fewer than the ranks).
    check(prism, rings, Collective.ALLREDUCE, List.of(Algorithm.MULTI_RING, Algorithm.SINGLE_RING,
        Algorithm.BIDIRECTIONAL_RING, Algorithm.LINE, Algorithm.LINE_BOTH_ENDS), List.of(4L * 1_009, 4L * 5), p);
    // Per-rank blocks of 7 and 13 elements, cut across up to 8 rings.
    for (Collective c : List.of(Collective.REDUCE_SCATTER, Collective.ALLGATHER)) {
      check(prism, rings, c, List.of(Algorithm.MULTI_RING, Algorithm.SINGLE_RING, Algorithm.BIDIRECTIONAL_RING),
          List.of(4L * 7, 4L * 13), p);
    }
  }

  /** The face rule's rings of {@code prism}. */
  static RingEmbedding faceRule(PrismSpec prism) {
    return RingEmbedding.resolve(prism, prism.build(), RingEmbedding.Source.FACE_RULE, List.of(), 0, 0);
  }

  private static void check(PrismSpec prism, RingEmbedding rings, Collective c, List<Algorithm> algorithms,
                            List<Long> sizes, int p) {
    DeviceSpec devices = new DeviceSpec(TestScenarios.SERVER_HOST, new NicSpec(2048, 64, 100_000L, 120_000L),
        new SwitchSpec(600_000L, ForwardingMode.CUT_THROUGH));
    WorkloadSpec workload = WorkloadSpec.builder(c, algorithms, sizes).warmup(1).dataType(DataType.INT32).build();
    ScenarioSpec spec = ScenarioSpec.builder("prism-rings", "test", 5, prism, devices, workload).rings(rings).build();
    RunResult result = Fabric.build(spec).runOnPlainEngine();
    assertThat(result.complete()).as(result.incompleteReason()).isTrue();
    assertThat(result.cases()).hasSize(algorithms.size() * sizes.size());
    for (CaseResult k : result.cases()) {
      String what = c.configName() + " " + k.algorithm().configName() + " " + k.sizeBytes() + " B on "
          + prism.nodesPerLayer() + " x " + prism.layers();
      assertThat(k.checked()).as(what).isTrue();
      assertThat(k.wrongElements()).as(what).isZero();
      assertThat(k.maxLatencyPs()).as(what).isPositive();
    }
  }
}
