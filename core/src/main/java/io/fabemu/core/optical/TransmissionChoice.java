package io.fabemu.core.optical;

import java.util.List;

/**
 * The cost model's answer for one transfer: every method's cost and the one chosen.
 *
 * @param costs  the four methods' costs, in the seed's order (method 1 first)
 * @param chosen the cheapest possible method, ties to the lower number
 */
public record TransmissionChoice(List<MethodCost> costs, TransmissionMethod chosen) {

  /** Copies the costs. */
  public TransmissionChoice {
    costs = List.copyOf(costs);
  }

  /** The cost of {@code method}. */
  public MethodCost cost(TransmissionMethod method) {
    return costs.get(method.ordinal());
  }

  /** The chosen method's total, picoseconds. */
  public long chosenPs() {
    return cost(chosen).totalPs();
  }
}
