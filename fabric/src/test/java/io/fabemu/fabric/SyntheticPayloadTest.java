package io.fabemu.fabric;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabemu.collectives.Algorithm;
import io.fabemu.collectives.Collective;
import io.fabemu.core.data.DataType;
import io.fabemu.core.data.ReduceOp;
import io.fabemu.core.link.ForwardingMode;
import io.fabemu.fabric.result.CaseResult;
import io.fabemu.fabric.result.RunResult;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The synthetic payload (sizes only) through real NICs, switches and links: every virtual-time figure equals the
 * real run's, bit for bit; only the "checked" mark and the digest differ.
 */
class SyntheticPayloadTest {
  /** 4 B and 1000 B fit one 1 KiB segment; 20 KiB takes 20 (more per message for the block collectives). */
  private static final List<Long> SIZES = List.of(4L, 1000L, 20_480L);

  static Stream<Arguments> workloads() {
    return Stream.of(
        Arguments.of(Collective.ALLREDUCE, Algorithm.RING, 1, false),
        Arguments.of(Collective.ALLREDUCE, Algorithm.RECURSIVE_DOUBLING, 1, false),
        Arguments.of(Collective.ALLREDUCE, Algorithm.RABENSEIFNER, 1, false),
        Arguments.of(Collective.ALLREDUCE, Algorithm.BINOMIAL, 1, false),
        Arguments.of(Collective.ALLREDUCE, Algorithm.RING, 2, true),
        Arguments.of(Collective.ALLREDUCE, Algorithm.RABENSEIFNER, 2, true),
        Arguments.of(Collective.ALLGATHER, Algorithm.RING, 2, false),
        Arguments.of(Collective.ALLGATHER, Algorithm.RECURSIVE_DOUBLING, 1, false),
        Arguments.of(Collective.ALLTOALL, Algorithm.PAIRWISE, 2, false),
        Arguments.of(Collective.REDUCE_SCATTER, Algorithm.RING, 1, false),
        Arguments.of(Collective.REDUCE_SCATTER, Algorithm.RECURSIVE_HALVING, 2, false),
        Arguments.of(Collective.BROADCAST, Algorithm.BINOMIAL, 2, false),
        Arguments.of(Collective.BROADCAST, Algorithm.LINEAR, 1, false),
        Arguments.of(Collective.REDUCE, Algorithm.BINOMIAL, 1, false),
        Arguments.of(Collective.GATHER, Algorithm.LINEAR, 2, false),
        Arguments.of(Collective.SCATTER, Algorithm.BINOMIAL, 1, false),
        Arguments.of(Collective.BARRIER, Algorithm.DISSEMINATION, 2, false),
        Arguments.of(Collective.SENDRECV, Algorithm.PING_PONG, 1, false));
  }

  @ParameterizedTest(name = "{0} {1} ppn {2} hierarchical {3}")
  @MethodSource("workloads")
  void shouldMatchTheRealRunExactlyWhenPayloadIsSynthetic(Collective collective, Algorithm algorithm, int ppn,
                                                          boolean hierarchical) {
    ScenarioSpec real = TestScenarios.leafSpine(6, 4, 2, ppn, collective, algorithm, DataType.INT32, ReduceOp.SUM,
        hierarchical, SIZES, ForwardingMode.CUT_THROUGH);

    assertSameEmulation(real);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("maxlocWorkloads")
  void shouldCutOnTheSameElementBoundariesWhenElementsDoNotDivideTheSegment(Algorithm algorithm) {
    // float64 + location = 12 B: a 1 KiB segment holds 85 elements (1020 B), not 1024 B.
    ScenarioSpec real = TestScenarios.leafSpine(5, 2, 2, 1, Collective.ALLREDUCE, algorithm, DataType.FLOAT64,
        ReduceOp.MAXLOC, false, List.of(12L, 1_020L, 20_484L), ForwardingMode.STORE_AND_FORWARD);

    assertSameEmulation(real);
  }

  static Stream<Algorithm> maxlocWorkloads() {
    return Stream.of(Algorithm.RING, Algorithm.RABENSEIFNER);
  }

  private static void assertSameEmulation(ScenarioSpec realSpec) {
    ScenarioSpec syntheticSpec = realSpec.toBuilder().workload(realSpec.workload().withSyntheticPayload(true)).build();

    RunResult real = FabricTest.run(realSpec);
    RunResult synthetic = FabricTest.run(syntheticSpec);

    assertThat(real.complete()).as(real.incompleteReason()).isTrue();
    assertThat(synthetic.complete()).as(synthetic.incompleteReason()).isTrue();
    assertThat(real.cases()).hasSize(SIZES.size()).allSatisfy(c -> {
      assertThat(c.checked()).isTrue();
      assertThat(c.wrongElements()).isZero();
    });
    assertThat(synthetic.cases()).allSatisfy(c -> assertThat(c.checked()).isFalse());
    assertThat(synthetic.cases()).as("latencies, sizes, counts, iterations; only 'checked' differs")
        .isEqualTo(real.cases().stream().map(SyntheticPayloadTest::unchecked).toList());
    assertThat(synthetic.virtualEndPs()).isEqualTo(real.virtualEndPs());
    assertThat(synthetic.windows()).isEqualTo(real.windows());
    assertThat(synthetic.events()).isEqualTo(real.events());
    assertThat(synthetic.links()).as("bytes, packets and busy time of every link").isEqualTo(real.links());
    assertThat(real.links()).anySatisfy(l -> assertThat(l.packets()).isGreaterThan(0));
    assertThat(synthetic.checked()).isFalse();
    assertThat(real.checked()).isTrue();
    assertThat(synthetic.digest()).hasSize(64).isNotEqualTo(real.digest());
  }

  @ParameterizedTest(name = "{0} {1}")
  @MethodSource("cutWorkloads")
  void shouldCheckTheSizesBelowTheCutAndTimeEveryCaseAsTheRealRunWhenRealDataStopsAtASize(Collective collective,
                                                                                           Algorithm algorithm) {
    ScenarioSpec realSpec = TestScenarios.leafSpine(6, 4, 2, 1, collective, algorithm, DataType.INT32, ReduceOp.SUM,
        false, SIZES, ForwardingMode.CUT_THROUGH);
    ScenarioSpec cutSpec = realSpec.withWorkload(realSpec.workload().withSyntheticFrom(1000));

    RunResult real = FabricTest.run(realSpec);
    RunResult cut = FabricTest.run(cutSpec);

    assertThat(cut.complete()).as(cut.incompleteReason()).isTrue();
    assertThat(cut.cases()).extracting(CaseResult::checked).containsExactly(true, false, false);
    assertThat(cut.cases()).extracting(CaseResult::wrongElements).containsOnly(0L);
    assertThat(cut.cases().get(0)).isEqualTo(real.cases().get(0));
    assertThat(cut.cases().subList(1, 3)).as("latencies, sizes, counts, iterations; only 'checked' differs")
        .isEqualTo(real.cases().subList(1, 3).stream().map(SyntheticPayloadTest::unchecked).toList());
    assertThat(cut.virtualEndPs()).isEqualTo(real.virtualEndPs());
    assertThat(cut.events()).isEqualTo(real.events());
    assertThat(cut.links()).isEqualTo(real.links());
    assertThat(cut.checked()).as("the cases below the cut are checked").isTrue();
    assertThat(cut.digest()).hasSize(64).isNotEqualTo(real.digest());
  }

  static Stream<Arguments> cutWorkloads() {
    return Stream.of(
        Arguments.of(Collective.ALLREDUCE, Algorithm.RING),
        Arguments.of(Collective.REDUCE_SCATTER, Algorithm.RING),
        Arguments.of(Collective.ALLGATHER, Algorithm.RECURSIVE_DOUBLING));
  }

  private static CaseResult unchecked(CaseResult c) {
    return CaseResult.builder(c.caseIndex(), c.algorithm(), c.sizeBytes(), c.count(), c.iterations())
        .avgLatencyPs(c.avgLatencyPs()).minLatencyPs(c.minLatencyPs()).maxLatencyPs(c.maxLatencyPs())
        .wrongElements(c.wrongElements()).checked(false).incOutcome(c.incOutcome()).rankLatenciesPs(c.rankLatenciesPs())
        .iterationLatenciesPs(c.iterationLatenciesPs()).iterationStartsPs(c.iterationStartsPs())
        .iterationEndsPs(c.iterationEndsPs()).partEndsPs(c.partEndsPs()).startPs(c.startPs()).endPs(c.endPs()).build();
  }
}
