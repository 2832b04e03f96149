package io.fabemu.fabric.result;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabemu.core.ethernet.EthernetReport;
import io.fabemu.core.fault.FaultReport;
import io.fabemu.core.fault.FaultTally;
import io.fabemu.core.optical.OcsReport;
import io.fabemu.core.sim.DeviceReport.LinkCounters;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A run's result: the kernel's figures and the features' parts, built by its builder and read back by class. */
class RunResultTest {

  private static final FaultReport FAULTS = new FaultReport(new FaultTally(1), List.of(), null, List.of());
  private static final EthernetReport ETHERNET = new EthernetReport(List.of(), List.of(), 1L, 2L, 3L, 4L, 5L, 6L, 7L,
      List.of());

  @Test
  void shouldDefaultToNoCasesLinksOrParts() {
    RunResult r = RunResult.builder(null).complete(true).digest("ab").build();

    assertThat(r.complete()).isTrue();
    assertThat(r.incompleteReason()).isNull();
    assertThat(r.cases()).isEmpty();
    assertThat(r.links()).isEmpty();
    assertThat(r.parts()).isEmpty();
    assertThat(r.faults()).isNull();
    assertThat(r.ethernet()).isNull();
    assertThat(r.ocs()).isNull();
    assertThat(r.faultImpacts()).isNull();
    assertThat(r.baselineCases()).isNull();
  }

  @Test
  void shouldReadEachFeaturesPartByItsClassAndLeaveANullPartOut() {
    RunResult r = RunResult.builder(null).complete(true).part(FAULTS).part(null).part(ETHERNET).build();

    assertThat(r.parts()).containsExactly(FAULTS, ETHERNET);
    assertThat(r.faults()).isSameAs(FAULTS);
    assertThat(r.ethernet()).isSameAs(ETHERNET);
    assertThat(r.ocs()).isNull();
    assertThat(r.part(OcsReport.class)).isNull();
  }

  @Test
  void shouldCopyEveryComponentIntoABuilderAndChangeOnlyWhatItSets() {
    RunResult baseline = RunResult.builder(null).complete(true).digest("base").build();
    RunResult r = RunResult.builder(null).links(List.of(new LinkCounters(0, 1, 64L, 1L, 10L))).complete(false)
        .incompleteReason("rank 3 did not finish").virtualEndPs(1_000L).windows(2L).events(3L).wallSeconds(0.5)
        .digest("cd").part(FAULTS).part(OcsReport.EMPTY).faultImpacts(List.of()).baseline(baseline).build();

    assertThat(r.toBuilder().build()).isEqualTo(r);
    RunResult finished = r.toBuilder().complete(true).incompleteReason(null).build();
    assertThat(finished.complete()).isTrue();
    assertThat(finished).isEqualTo(new RunResult(null, List.of(), r.links(), true, null, 1_000L, 2L, 3L, 0.5, "cd",
        List.of(FAULTS, OcsReport.EMPTY), List.of(), baseline));
  }

  @Test
  void shouldRefuseToBuildWhenTheBuilderWasNotToldWhetherTheRunCompleted() {
    assertThatThrownBy(() -> RunResult.builder(null).digest("ab").build()).isInstanceOf(IllegalStateException.class)
        .hasMessage("a run result must say whether the run completed (complete(true or false))");
    assertThat(RunResult.builder(null).complete(false).build().complete()).isFalse();
  }

  @Test
  void shouldRefuseTwoPartsOfOneClass() {
    assertThatThrownBy(() -> RunResult.builder(null).complete(true).part(OcsReport.EMPTY).part(OcsReport.EMPTY)
        .build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("a run result holds two parts of class " + OcsReport.class.getName());
  }
}
