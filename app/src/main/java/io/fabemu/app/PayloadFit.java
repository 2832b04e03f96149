package io.fabemu.app;

import io.fabemu.app.member.MemberJvmHeap;
import io.fabemu.cluster.scenario.MemberHeapEstimate;
import io.fabemu.cluster.scenario.RealDataBudget;
import io.fabemu.cluster.scenario.ResourceEstimate;
import io.fabemu.collectives.WorkloadSpec;
import io.fabemu.fabric.ScenarioSpec;

/**
 * Real data as far as the heap holds it, sizes only beyond: the step of {@link CommandPipeline} (and of
 * {@code validate}) that fits a scenario on real data to the heap of this JVM and of the member JVMs before
 * {@link RunSupport#checkEstimate} checks it, and the words the output uses for a payload cut at a size.
 *
 * <p>Contract: a scenario that fits as written, one on sizes only ({@code payload = synthetic}) and a run with
 * {@code --skip-estimate} are run as written: the same run, the same digest. A scenario on real data (the default,
 * or {@code payload = real}) that does not fit runs on real data up to the largest size whose cases fit in
 * {@value RunSupport#TIGHT_HEAP_SHARE} of the heap ({@link RealDataBudget}, over {@link MemberHeapEstimate}) and on
 * sizes only from the next size on, with one note on stderr saying so; {@code --skip-estimate} is how a user insists
 * on real data at every size. When not even sizes only fits, the estimate check refuses the run as before (one line,
 * exit code 2).
 */
public final class PayloadFit {

  /** The scenario to run and the note to print before it (null when it runs as written). */
  record Fitted(ScenarioSpec spec, String note) {}

  private PayloadFit() {}

  /** {@code spec} fitted to this JVM's {@code maxHeapBytes} and the member JVMs' heap, for a run on {@code members}. */
  static Fitted fit(ScenarioSpec spec, int members, boolean skip, long maxHeapBytes) {
    return fit(spec, members, skip, maxHeapBytes, MemberJvmHeap.fromEnvironment(maxHeapBytes));
  }

  /** {@link #fit(ScenarioSpec, int, boolean, long)} with the member JVMs' heap given. */
  static Fitted fit(ScenarioSpec spec, int members, boolean skip, long maxHeapBytes, long memberHeapBytes) {
    if (skip) return new Fitted(spec, null);
    int n = Math.max(1, members);
    // As written it runs when it fits the heap at all (as before this step); cut, it must fit without being tight.
    if (fits(spec, n, maxHeapBytes, memberHeapBytes, 1.0)) return new Fitted(spec, null);
    RealDataBudget budget = RealDataBudget.fit(spec,
        s -> fits(s, n, maxHeapBytes, memberHeapBytes, RunSupport.TIGHT_HEAP_SHARE));
    ScenarioSpec fitted = budget.spec();
    // Not even sizes only fits: the check refuses the scenario as written, with its own figures.
    if (!budget.fitted() || !fits(fitted, n, maxHeapBytes, memberHeapBytes, 1.0)) return new Fitted(spec, null);
    long asWritten = MemberHeapEstimate.of(spec).coordinatorHeapBytes(n);
    String note = "fabemu: note: " + spec.source() + ": " + RealDataBudget.describe(fitted.workload()) + ": real data at every size "
        + "needs about " + ResourceEstimate.formatBytes(asWritten) + " of heap" + (n > 1 ? " per member" : "")
        + ", this JVM has " + ResourceEstimate.formatBytes(maxHeapBytes) + " (raise -Xmx with FABEMU_JAVA_OPTS, or "
        + "--skip-estimate to run every size on real data anyway)";
    return new Fitted(fitted, note);
  }

  private static boolean fits(ScenarioSpec spec, int members, long maxHeapBytes, long memberHeapBytes,
                              double share) {
    MemberHeapEstimate perMember = MemberHeapEstimate.of(spec);
    if (perMember.coordinatorHeapBytes(members) > share * maxHeapBytes) return false;
    return members == 1 || perMember.memberHeapBytes(members) <= share * memberHeapBytes;
  }

  /**
   * The header line of a payload cut at a size ({@code # Payload: real data up to 32 MiB, sizes only from 64 MiB
   * (the heap's budget; outputs from there not checked)}); empty for any other payload.
   */
  public static String headerLine(WorkloadSpec w) {
    if (!w.mixedPayload()) return "";
    return "# Payload: " + RealDataBudget.describe(w) + " (the heap's budget; outputs from there not checked)\n";
  }
}
