package io.fabemu.core.optical;

import io.fabemu.core.time.Units;
import java.util.List;
import java.util.stream.Collectors;

/**
 * The cost model's answer for one transfer: every method's cost and the one chosen.
 *
 * @param costs  the four methods' costs, in the patent's order (method 1 first)
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

  /**
   * One line for the results: the chosen method and its cost, then every method's cost or why it is not possible,
   * e.g. {@code switch-send (920 us); send-broadcast: not possible (...), p2p-bus: 645 us, ...}.
   */
  public String summary() {
    return chosen.configName() + " (" + Units.format(chosenPs()) + "); " + costs.stream()
        .map(c -> c.method().configName() + ": "
            + (c.possible() ? Units.format(c.totalPs()) : "not possible (" + c.reason() + ")"))
        .collect(Collectors.joining(", "));
  }

  /** The chosen method's total, picoseconds. */
  public long chosenPs() {
    return cost(chosen).totalPs();
  }
}
