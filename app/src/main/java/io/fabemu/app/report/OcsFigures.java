package io.fabemu.app.report;

import io.fabemu.core.optical.ConnectionFormula;
import io.fabemu.core.optical.OcsReport;
import io.fabemu.core.optical.OcsSpec;
import io.fabemu.core.time.Units;
import io.fabemu.fabric.result.RunResult;
import java.util.Optional;

/**
 * The OCS controller's figures as the run's outputs word them (the {@code # OCS:} lines {@code fabemu run} prints,
 * the report's run facts; docs/optical.md, "The OCS controller"): the initial set-up, and each connection-policy
 * change's cost.
 */
public final class OcsFigures {

  private OcsFigures() {
  }

  /**
   * The initial set-up: "28 circuits set up, the last up at 10 ms; 64 packets waited for their circuit, 639.608 ms in
   * total, worst 9.999 ms".
   */
  public static String setUp(OcsReport ocs) {
    return plural(ocs.circuitsSetUp(), "circuit") + " set up, the last up at " + Units.format(ocs.lastCircuitUpPs())
        + "; " + plural(ocs.heldPackets(), "packet") + " waited for their circuit, " + Units.format(ocs.totalWaitPs())
        + " in total, worst " + Units.format(ocs.worstWaitPs());
  }

  /**
   * One policy change: "policy change at 15 ms to formula 1: 22 circuits torn down, 22 set up, the last up at 25 ms;
   * 8108 packets waited for them, 79.5 s in total, worst 10 ms" (the formula from {@code result}'s scenario).
   */
  public static String change(RunResult result, OcsReport.ChangeCost change) {
    return "policy change at " + Units.format(change.atPs())
        + formulaAt(result, change.atPs()).map(f -> " to " + f).orElse("") + ": "
        + plural(change.circuitsTornDown(), "circuit") + " torn down, " + change.circuitsSetUp()
        + " set up, the last up at " + Units.format(change.lastCircuitUpPs()) + "; "
        + plural(change.heldPackets(), "packet") + " waited for them, " + Units.format(change.totalWaitPs())
        + " in total, worst " + Units.format(change.worstWaitPs());
  }

  /** The label of the formula the scenario's policy change at {@code atPs} turns to ("formula 1"); empty if none. */
  public static Optional<String> formulaAt(RunResult result, long atPs) {
    return result.scenario().topology().ocs().changes().stream().filter(c -> c.atPs() == atPs).findFirst()
        .map(OcsSpec.PolicyChange::formula).map(ConnectionFormula::label);
  }

  private static String plural(long n, String noun) {
    return n + " " + noun + (n == 1 ? "" : "s");
  }
}
