package io.fabemu.app;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabemu.cluster.scenario.ResourceEstimate;
import io.fabemu.cluster.scenario.ScenarioLoader;
import io.fabemu.fabric.ScenarioSpec;
import org.junit.jupiter.api.Test;

/**
 * {@link PayloadFit}: a scenario on real data that does not fit the heap runs on real data up to the largest size
 * that fits in the tight share of it, sizes only beyond, with one note; what fits, what asks for sizes only, what
 * skips the estimate and what fits in no way are left as written.
 */
class PayloadFitTest {
  private static final long GIB = 1L << 30;

  private static ScenarioSpec scenario(String sizes, String payload) {
    return ScenarioLoader.parse("name = fit-test\nseed = 5\ntopology { kind = leaf-spine, hosts = 4, "
        + "hosts-per-tor = 2, spines = 2 }\nworkload { collective = allreduce, algorithms = [ring], ppn = 8, "
        + "iterations = 1, warmup = 0, sizes = " + sizes + ", payload = " + payload + " }\n", "fit-test.conf").spec();
  }

  @Test
  void shouldCutTheStandardNcclTestsSweepAtTheSizeTheDefaultHeapHolds() {
    // -b 8 -e 128M -f 2 on 4 nodes x 8 ranks: about 16 GiB on real data at every size.
    ScenarioSpec spec = scenario("[8 B, 1 KiB, 1 MiB, 8 MiB, 16 MiB, 32 MiB, 64 MiB, 128 MiB]", "real");
    long sixGib = 6 * GIB;
    assertThat(ResourceEstimate.of(spec).heapBytes()).isGreaterThan(sixGib);

    PayloadFit.Fitted fitted = PayloadFit.fit(spec, 1, false, sixGib, sixGib);

    assertThat(fitted.spec().workload().syntheticFromBytes()).isEqualTo(64L << 20);
    assertThat(ResourceEstimate.of(fitted.spec()).heapBytes())
        .isLessThanOrEqualTo((long) (RunSupport.TIGHT_HEAP_SHARE * sixGib));
    assertThat(fitted.note()).startsWith("fabemu: note: fit-test.conf: real data up to 32 MiB, sizes only from "
        + "64 MiB: real data at every size needs about ").contains(" of heap, this JVM has 6.0 GiB ")
        .endsWith("(raise -Xmx with FABEMU_JAVA_OPTS, or --skip-estimate to run every size on real data anyway)");
    assertThat(PayloadFit.headerLine(fitted.spec().workload())).isEqualTo("# Payload: real data up to 32 MiB, "
        + "sizes only from 64 MiB (the heap's budget; outputs from there not checked)\n");
  }

  @Test
  void shouldRunAsWrittenWhatFitsWhatIsSyntheticAndWhatSkipsTheEstimate() {
    ScenarioSpec small = scenario("[8 B, 1 MiB]", "real");
    ScenarioSpec large = scenario("[8 B, 128 MiB]", "real");
    ScenarioSpec synthetic = scenario("[8 B, 128 MiB]", "synthetic");

    assertThat(PayloadFit.fit(small, 1, false, GIB, GIB)).isEqualTo(new PayloadFit.Fitted(small, null));
    assertThat(PayloadFit.fit(large, 1, true, GIB, GIB)).isEqualTo(new PayloadFit.Fitted(large, null));
    assertThat(PayloadFit.fit(synthetic, 1, false, GIB, GIB)).isEqualTo(new PayloadFit.Fitted(synthetic, null));
    assertThat(PayloadFit.headerLine(small.workload())).isEmpty();
  }

  @Test
  void shouldCutTwentyThousandSizesAtTheHeapsBudgetInABisection() {
    String sizes = java.util.stream.IntStream.rangeClosed(1, 20_000).mapToObj(i -> (4 * i) + " KiB")
        .collect(java.util.stream.Collectors.joining(", ", "[", "]"));
    ScenarioSpec spec = scenario(sizes, "real");

    PayloadFit.Fitted fitted = PayloadFit.fit(spec, 1, false, 6 * GIB, 6 * GIB);

    long cut = fitted.spec().workload().syntheticFromBytes();
    assertThat(cut).isBetween(4096L, 20_000L * 4096);
    assertThat(ResourceEstimate.of(fitted.spec()).heapBytes()).isLessThanOrEqualTo((long) (0.8 * 6 * GIB));
    assertThat(ResourceEstimate.of(fitted.spec().withWorkload(fitted.spec().workload().withSyntheticFrom(cut + 4096)))
        .heapBytes()).as("one size more on real data does not fit").isGreaterThan((long) (0.8 * 6 * GIB));
  }

  @Test
  void shouldLeaveTheScenarioAsWrittenForTheCheckToRefuseWhenNotEvenSizesOnlyFits() {
    ScenarioSpec large = scenario("[8 B, 128 MiB]", "real");

    PayloadFit.Fitted fitted = PayloadFit.fit(large, 1, false, 16L << 20, 16L << 20);

    assertThat(fitted).isEqualTo(new PayloadFit.Fitted(large, null));
  }

  @Test
  void shouldFitTheFullestMemberOfARunOnSeveralMembers() {
    ScenarioSpec spec = scenario("[8 B, 1 MiB, 32 MiB, 64 MiB, 128 MiB]", "real");

    PayloadFit.Fitted alone = PayloadFit.fit(spec, 1, false, 6 * GIB, 6 * GIB);
    PayloadFit.Fitted spread = PayloadFit.fit(spec, 2, false, 6 * GIB, 6 * GIB);

    assertThat(alone.spec().workload().syntheticFromBytes()).isEqualTo(64L << 20);
    assertThat(spread.spec().workload().syntheticFromBytes()).isGreaterThan(64L << 20);
    assertThat(spread.note()).contains(" of heap per member, ");
  }
}
