package io.fabemu.cluster.scenario;

import com.typesafe.config.ConfigObject;
import com.typesafe.config.ConfigValue;
import com.typesafe.config.ConfigValueType;
import io.fabemu.collectives.WorkloadSpec;
import java.util.List;

/**
 * Where a fault event is placed in the workload, as {@code at = { case = N, iteration = K, offset = D }} writes it:
 * {@code offsetPs} after case {@code caseIndex} starts (its first rank begins its INC setup or its first warm-up
 * iteration), or, with an iteration, after measured iteration {@code iteration} of that case starts (its first
 * rank's start). Cases are numbered from 0 in the workload's order, as {@code caseIndex} in {@code results.json};
 * iterations from 0 among the measured ones (after the warm-up), as the results' per-iteration figures.
 *
 * @param caseIndex the case, 0 .. cases - 1
 * @param iteration the measured iteration, 0 .. iterations - 1; -1 for the case's start
 * @param offsetPs  how long after that start, at least 0
 * @param path      the key path of {@code at}, for messages
 * @param value     the {@code at} object, for messages
 */
record CaseAnchor(int caseIndex, int iteration, long offsetPs, String path, ConfigValue value) {

  static final List<String> KEYS = List.of("case", "iteration", "offset");

  /** What {@code at} places in a case, checked against {@code workload}. */
  static CaseAnchor read(ScenarioReader in, String path, ConfigObject at, WorkloadSpec workload) {
    FaultPlanSection.refuseUnknownKeys(in, path, at, KEYS);
    ConfigValue caseValue = at.get("case");
    if (caseValue == null || caseValue.valueType() == ConfigValueType.NULL) {
      throw in.itemError(path, at, "missing case: the case to place the event in, numbered from 0, e.g. at = { case = "
          + "1, offset = 10 us }");
    }
    int cases = workload.caseCount();
    int caseIndex = in.intOf(path + ".case", caseValue, 0, Integer.MAX_VALUE);
    if (caseIndex >= cases) {
      throw in.error(path + ".case", caseValue, "case " + caseIndex + " is out of range: the workload has " + cases
          + (cases == 1 ? " case, numbered 0" : " cases, numbered 0 to " + (cases - 1)));
    }
    int iteration = -1;
    ConfigValue iterationValue = at.get("iteration");
    if (iterationValue != null && iterationValue.valueType() != ConfigValueType.NULL) {
      iteration = in.intOf(path + ".iteration", iterationValue, 0, Integer.MAX_VALUE);
      if (iteration >= workload.iterations()) {
        throw in.error(path + ".iteration", iterationValue, "iteration " + iteration + " is out of range: each case "
            + "has " + workload.iterations() + " measured iterations, numbered 0 to " + (workload.iterations() - 1)
            + " (after the warm-up)");
      }
    }
    ConfigValue offsetValue = at.get("offset");
    long offsetPs = offsetValue == null || offsetValue.valueType() == ConfigValueType.NULL ? 0
        : in.durationOf(path + ".offset", offsetValue, false);
    return new CaseAnchor(caseIndex, iteration, offsetPs, path, at);
  }

  /** {@code case 1 + 10 us} or {@code case 1 iteration 2 + 0 ps}, for the schedule {@code validate} prints. */
  String describe() {
    return "case " + caseIndex + (iteration >= 0 ? " iteration " + iteration : "") + " + "
        + Quantities.formatDuration(offsetPs);
  }
}
