package io.fabemu.core.optical;

import java.util.List;

/**
 * What one transmission method would cost for one transfer, by the patent's formulas ([0169]-[0172]).
 *
 * @param method  the method
 * @param reason  empty when the method can carry the transfer; otherwise why not (its steps and total are then 0)
 * @param stepsPs the delay of each of its steps in order, picoseconds (three steps; a step with nothing to do is 0)
 * @param totalPs the sum of the steps: the method's communication overheads
 */
public record MethodCost(TransmissionMethod method, String reason, List<Long> stepsPs, long totalPs) {

  /** Copies the steps. */
  public MethodCost {
    stepsPs = List.copyOf(stepsPs);
  }

  /** A method that can carry the transfer, costing the sum of {@code stepsPs}. */
  static MethodCost of(TransmissionMethod method, long... stepsPs) {
    long total = 0;
    Long[] boxed = new Long[stepsPs.length];
    for (int i = 0; i < stepsPs.length; i++) {
      total = Math.addExact(total, stepsPs[i]);
      boxed[i] = stepsPs[i];
    }
    return new MethodCost(method, "", List.of(boxed), total);
  }

  /** A method that cannot carry the transfer, and why. */
  static MethodCost notPossible(TransmissionMethod method, String reason) {
    return new MethodCost(method, reason, List.of(), 0L);
  }

  /** Whether the method can carry the transfer at all. */
  public boolean possible() {
    return reason.isEmpty();
  }
}
