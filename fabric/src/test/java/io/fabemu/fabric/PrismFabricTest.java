package io.fabemu.fabric;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabemu.collectives.Algorithm;
import io.fabemu.collectives.Collective;
import io.fabemu.core.topology.PrismSpec;
import io.fabemu.fabric.result.RunResult;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Existing collectives on the prism of the ring patent, whose hosts forward transit packets over parallel links. */
class PrismFabricTest {

  @ParameterizedTest
  @CsvSource({"3, 2, RING", "3, 4, RING", "4, 3, RING", "3, 2, RECURSIVE_DOUBLING", "4, 4, RECURSIVE_DOUBLING",
      "5, 2, RECURSIVE_DOUBLING", "3, 8, RING"})
  void shouldGiveExactResultsWhenAllreduceRunsOnAPrism(int perLayer, int layers, Algorithm algorithm) {
    PrismSpec prism = new PrismSpec(perLayer, layers, TestScenarios.DIRECT_LINK, TestScenarios.DIRECT_LINK);
    RunResult result = FabricTest.run(TestScenarios.direct(prism, Collective.ALLREDUCE, algorithm, 12_344));
    assertThat(result.complete()).as(result.incompleteReason()).isTrue();
    assertThat(result.cases()).hasSize(1);
    assertThat(result.cases().get(0).wrongElements()).isZero();
    assertThat(result.cases().get(0).maxLatencyPs()).isPositive();
  }
}
