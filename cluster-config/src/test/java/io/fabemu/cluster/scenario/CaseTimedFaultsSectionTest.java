package io.fabemu.cluster.scenario;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.typesafe.config.ConfigRenderOptions;
import io.fabemu.core.fault.FaultAction;
import io.fabemu.core.fault.FaultEvent;
import io.fabemu.fabric.Fabric;
import io.fabemu.fabric.ScenarioSpec;
import io.fabemu.fabric.result.CaseResult;
import io.fabemu.fabric.result.RunResult;
import java.util.List;
import org.assertj.core.api.AbstractThrowableAssert;
import org.junit.jupiter.api.Test;

/** Fault events placed in cases ({@code at = { case = ... }}): their times in the run, the schedule, the refusals. */
class CaseTimedFaultsSectionTest {
  private static final long US = 1_000_000L;
  /** 4 hosts, 2 per TOR, 2 spines; a ring Allreduce of 4 KiB then 16 KiB, 2 measured iterations after 1 warm-up. */
  private static final String SCENARIO = """
      topology { hosts = 4, hosts-per-tor = 2, spines = 2 }
      workload { algorithms = [ring], sizes = [4 KiB, 16 KiB], iterations = 2, warmup = 1 }
      faults.transport.retransmit-timeout = 20 us
      """;

  private static LoadedScenario load(String events) {
    return ScenarioLoader.parse(SCENARIO + "faults.events = " + events, "x.conf");
  }

  private static AbstractThrowableAssert<?, ? extends Throwable> assertError(String events) {
    return assertThatThrownBy(() -> load(events)).isInstanceOf(ScenarioException.class);
  }

  @Test
  void shouldPlaceEachEventAtItsOffsetFromTheCaseOrIterationStartOfTheRunWithTheWholePlan() {
    LoadedScenario loaded = load("""
        [
          { at = 2 us, action = straggler, node = host3, slowdown = 2 }
          { at = { case = 1, offset = 3 us }, action = down, switch = spine0 }
          { at = { case = 1, iteration = 1 }, action = up, switch = spine0 }
          { at = { case = 0, iteration = 0, offset = 1 us }, action = straggler, node = host3, slowdown = 1 }
        ]
        """);
    ScenarioSpec spec = loaded.spec();
    RunResult run = Fabric.build(spec).runOnPlainEngine();
    CaseResult first = run.cases().get(0);
    CaseResult second = run.cases().get(1);
    List<FaultEvent> events = spec.faults().events();

    // In time order: the straggler at 2 us, its end 1 us into case 0's first measured iteration, the down 3 us into
    // case 1, the up when case 1's second measured iteration starts: each where it was placed in this very run.
    assertThat(events).extracting(FaultEvent::action).containsExactly(FaultAction.STRAGGLER, FaultAction.STRAGGLER,
        FaultAction.DOWN, FaultAction.UP);
    assertThat(events.get(0).atPs()).isEqualTo(2 * US);
    assertThat(events.get(1).atPs()).isEqualTo(first.iterationStartsPs()[0] + US);
    assertThat(events.get(2).atPs()).isEqualTo(second.startPs() + 3 * US);
    assertThat(events.get(3).atPs()).isEqualTo(second.iterationStartsPs()[1]);
    assertThat(second.startPs()).isGreaterThan(first.iterationEndsPs()[1]);
    assertThat(run.wrongElements()).isZero();
    // Same scenario, same times; and validate's schedule says how each was placed.
    assertThat(load("""
        [
          { at = 2 us, action = straggler, node = host3, slowdown = 2 }
          { at = { case = 1, offset = 3 us }, action = down, switch = spine0 }
          { at = { case = 1, iteration = 1 }, action = up, switch = spine0 }
          { at = { case = 0, iteration = 0, offset = 1 us }, action = straggler, node = host3, slowdown = 1 }
        ]
        """).spec().faults()).isEqualTo(spec.faults());
    CaseSchedule schedule = loaded.caseSchedule();
    assertThat(schedule.exactThrough()).isEqualTo(1);
    assertThat(schedule.cases()).extracting(CaseSchedule.CaseStart::startPs).containsExactly(0L, second.startPs());
    assertThat(schedule.events()).extracting(CaseSchedule.ResolvedEvent::placed).containsExactly(
        "case 0 iteration 0 + 1 us", "case 1 + 3 us", "case 1 iteration 1 + 0 ps");
    assertThat(schedule.lines(spec.workload()).get(0)).startsWith("schedule: 3 fault events placed in cases");
  }

  @Test
  void shouldShiftEveryDownAndUpOfAFlapPlacedInACase() {
    ScenarioSpec spec = load("[{ at = { case = 1, offset = 1 us }, action = flap, switch = spine0, period = 10 us, "
        + "down-for = 4 us, count = 2 }]").spec();
    long start = Fabric.build(spec).runOnPlainEngine().cases().get(1).startPs();

    assertThat(spec.faults().events()).extracting(FaultEvent::atPs).containsExactly(start + US, start + 5 * US,
        start + 11 * US, start + 15 * US);
  }

  @Test
  void shouldLoadTheEchoToTheSamePlan() {
    LoadedScenario loaded = load("[{ at = { case = 1, iteration = 1, offset = 2 us }, action = down, "
        + "switch = spine0 }]");
    String echo = loaded.config().root().render(ConfigRenderOptions.concise());

    assertThat(ScenarioLoader.parse(echo, "echo.conf").spec().faults()).isEqualTo(loaded.spec().faults());
  }

  @Test
  void shouldLeaveAPlanOfTimesAsItWasWithoutASchedule() {
    LoadedScenario loaded = load("[{ at = 40 us, action = down, switch = spine0 }]");

    assertThat(loaded.caseSchedule().isEmpty()).isTrue();
    assertThat(loaded.spec().faults().event(0).atPs()).isEqualTo(40 * US);
  }

  @Test
  void shouldRefuseACaseOutOfRangeANegativeOffsetAndUnknownKeysNamingTheKey() {
    assertError("[{ at = { case = 2 }, action = down, switch = spine0 }]")
        .hasMessage("x.conf:4: faults.events[0].at.case: case 2 is out of range: the workload has 2 cases, numbered "
            + "0 to 1");
    assertError("[{ at = { case = 1, offset = -5 us }, action = down, switch = spine0 }]")
        .hasMessageStartingWith("x.conf:4: faults.events[0].at.offset: ");
    assertError("[{ at = { case = 1, ofset = 5 us }, action = down, switch = spine0 }]")
        .hasMessage("x.conf:4: faults.events[0].at.ofset: unknown key (did you mean 'offset'?)");
    assertError("[{ at = { offset = 5 us }, action = down, switch = spine0 }]")
        .hasMessageStartingWith("x.conf:4: faults.events[0].at: missing case");
    assertError("[{ at = { case = 0, iteration = 2 }, action = down, switch = spine0 }]")
        .hasMessage("x.conf:4: faults.events[0].at.iteration: iteration 2 is out of range: each case has 2 measured "
            + "iterations, numbered 0 to 1 (after the warm-up)");
    assertError("[{ at = { case = -1 }, action = down, switch = spine0 }]")
        .hasMessage("x.conf:4: faults.events[0].at.case: must be at least 0, got -1");
  }

  @Test
  void shouldReplayTheDownsAndUpsOnceResolved() {
    // The up comes before the down once both are placed: refused as any up of a target that is not down.
    assertError("[{ at = { case = 1, offset = 5 us }, action = down, switch = spine0 }, "
        + "{ at = { case = 1 }, action = up, switch = spine0 }]")
        .hasMessageContaining("faults.events[1]: up of switch spine0 at").hasMessageEndingWith("it is not down then");
  }
}
