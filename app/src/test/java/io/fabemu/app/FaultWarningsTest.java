package io.fabemu.app;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabemu.app.report.FaultFigures;
import io.fabemu.core.fault.FaultReport;
import io.fabemu.core.fault.FaultTally;
import io.fabemu.core.fault.RetransmitTimeout;
import io.fabemu.fabric.result.RunResult;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The warning lines after a run with faults: spurious resends (in it or in its baseline), a baseline cut short. */
class FaultWarningsTest {

  /** {@code faulted} with {@code baseline} as the run without its faults. */
  private static RunResult against(RunResult faulted, RunResult baseline) {
    return RunResult.builder(faulted.scenario()).cases(faulted.cases()).links(faulted.links())
        .complete(faulted.complete()).incompleteReason(faulted.incompleteReason())
        .virtualEndPs(faulted.virtualEndPs()).windows(faulted.windows()).events(faulted.events())
        .wallSeconds(faulted.wallSeconds()).digest(faulted.digest()).part(faulted.faults())
        .faultImpacts(faulted.faultImpacts()).part(faulted.ethernet()).part(faulted.ocs()).baseline(baseline).build();
  }

  /** A baseline that resent {@code spurious} messages spuriously and gave up on {@code gaveUp}. */
  private static RunResult baseline(long spurious, List<String> gaveUp, boolean complete) {
    FaultTally tally = new FaultTally(0);
    for (long i = 0; i < spurious; i++) {
      tally.messageResent(-1);
      tally.resendSpurious(-1);
    }
    RunResult r = Fixtures.result();
    return RunResult.builder(r.scenario()).cases(r.cases()).links(r.links()).complete(complete)
        .incompleteReason(complete ? null : "rank 3 did not finish").virtualEndPs(r.virtualEndPs())
        .windows(r.windows()).events(r.events()).wallSeconds(r.wallSeconds()).digest(r.digest())
        .part(new FaultReport(tally, List.of(), null, gaveUp)).build();
  }

  @Test
  void spuriousResendsOfEitherRunGiveOneLineSayingWhatToChange() {
    RunResult faulted = Fixtures.faultedResult(0);
    assertThat(FaultFigures.spuriousWarning(faulted)).isEqualTo("fabemu: warning: 1 of 8 resends were spurious "
        + "(the copy before had arrived), so part of the latency charged to the faults is the retransmit timeout's: "
        + "raise faults.transport.min-retransmit-timeout (now 10 us; if the waits reach max-retransmit-timeout, now "
        + "10 ms, that too)");
    assertThat(FaultFigures.spuriousWarning(against(faulted, baseline(3, List.of(), true))))
        .contains("1 of 8 resends were spurious (the copy before had arrived), and the run without the faults "
            + "resent 3 messages spuriously, so part");

    RunResult quiet = Fixtures.withFaults(Fixtures.result(), Fixtures.faultPlan(),
        new FaultReport(new FaultTally(6), List.of(), null, List.of()));
    assertThat(FaultFigures.spuriousWarning(quiet)).isNull();
    assertThat(FaultFigures.spuriousWarning(against(quiet, baseline(0, List.of(), true)))).isNull();
    assertThat(FaultFigures.spuriousWarning(against(quiet, baseline(2, List.of(), true))))
        .startsWith("fabemu: warning: the run without the faults resent 2 messages spuriously, so part");
  }

  @Test
  void aFixedTimeoutIsToldToGoAdaptiveOrLonger() {
    assertThat(FaultFigures.spuriousAdvice(new RetransmitTimeout.Fixed(50_000_000L))).isEqualTo("remove "
        + "faults.transport.retransmit-timeout (the adaptive default) or make it longer than 50 us");
  }

  @Test
  void aBaselineThatDidNotFinishOrGaveUpIsOneLine() {
    RunResult faulted = Fixtures.faultedResult(0);
    assertThat(FaultFigures.baselineWarning(faulted)).as("no baseline ran").isNull();
    assertThat(FaultFigures.baselineWarning(against(faulted, baseline(0, List.of(), true)))).isNull();
    assertThat(FaultFigures.baselineWarning(against(faulted, baseline(0, List.of(), false)))).isEqualTo(
        "fabemu: warning: the run without the faults did not finish (rank 3 did not finish): the extra latencies "
            + "compare only the cases it finished");
    assertThat(FaultFigures.baselineWarning(against(faulted, baseline(0, List.of("a", "b"), true)))).isEqualTo(
        "fabemu: warning: the run without the faults gave up on 2 messages: the extra latencies compare only the "
            + "cases it finished");
  }
}
