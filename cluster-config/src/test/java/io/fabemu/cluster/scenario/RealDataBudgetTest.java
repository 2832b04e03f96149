package io.fabemu.cluster.scenario;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabemu.fabric.ScenarioSpec;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** {@link RealDataBudget}: the most real data that fits, sizes only beyond, and the words the output uses. */
class RealDataBudgetTest {

  private static ScenarioSpec scenario(String workload) {
    return ScenarioLoader.parse("name = budget-test\nseed = 5\ntopology { kind = leaf-spine, hosts = 16, "
        + "hosts-per-tor = 4, spines = 2 }\nworkload { collective = allreduce, algorithms = [ring], iterations = 1, "
        + "warmup = 0, " + workload + " }\n", "budget-test.conf").spec();
  }

  private static long heap(ScenarioSpec spec) {
    return ResourceEstimate.of(spec).heapBytes();
  }

  @Test
  void shouldRunAsWrittenWhenItFits() {
    ScenarioSpec spec = scenario("sizes = [4 KiB, 1 MiB, 64 MiB]");
    List<ScenarioSpec> tried = new ArrayList<>();

    RealDataBudget budget = RealDataBudget.fit(spec, s -> tried.add(s) && true);

    assertThat(budget.fitted()).isFalse();
    assertThat(budget.spec()).isSameAs(spec);
    assertThat(tried).containsExactly(spec);
  }

  @Test
  void shouldCarryRealDataUpToTheLargestSizeThatFitsAndSizesOnlyFromTheNext() {
    ScenarioSpec spec = scenario("sizes = [4 KiB, 1 MiB, 16 MiB, 64 MiB]");
    // A heap that holds the 16 MiB cases' buffers on every rank, not the 64 MiB ones'.
    long budget = heap(spec.withWorkload(spec.workload().withSyntheticFrom(64L << 20)));
    assertThat(heap(spec)).isGreaterThan(budget);

    RealDataBudget fitted = RealDataBudget.fit(spec, s -> heap(s) <= budget);

    assertThat(fitted.fitted()).isTrue();
    assertThat(fitted.spec().workload().syntheticFromBytes()).isEqualTo(64L << 20);
    assertThat(fitted.spec().workload().syntheticPayload()).isFalse();
    assertThat(RealDataBudget.describe(fitted.spec().workload()))
        .isEqualTo("real data up to 16 MiB, sizes only from 64 MiB");
    assertThat(fitted.spec().withWorkload(spec.workload())).isEqualTo(spec);
  }

  @Test
  void shouldCarrySizesOnlyAtEverySizeWhenNotEvenTheSmallestFitsOnRealData() {
    ScenarioSpec spec = scenario("sizes = [16 MiB, 64 MiB]");
    long synthetic = heap(spec.withWorkload(spec.workload().withSyntheticPayload(true)));

    RealDataBudget fitted = RealDataBudget.fit(spec, s -> heap(s) <= synthetic);

    assertThat(fitted.fitted()).isTrue();
    assertThat(fitted.spec().workload().syntheticPayload()).isTrue();
    assertThat(RealDataBudget.describe(fitted.spec().workload())).isEqualTo("synthetic");
  }

  @Test
  void shouldLeaveASyntheticPayloadAsItIs() {
    ScenarioSpec spec = scenario("sizes = [64 MiB], payload = synthetic");

    RealDataBudget fitted = RealDataBudget.fit(spec, s -> false);

    assertThat(fitted.fitted()).isFalse();
    assertThat(fitted.spec()).isSameAs(spec);
    assertThat(RealDataBudget.describe(scenario("sizes = [64 MiB]").workload())).isEqualTo("real");
  }
}
