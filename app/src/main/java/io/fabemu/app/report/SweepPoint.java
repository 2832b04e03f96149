package io.fabemu.app.report;

import io.fabemu.fabric.result.RunResult;
import java.util.List;

/**
 * One point of a sweep as its report shows it.
 *
 * @param number   the point's number, from 1
 * @param label    its assignments as typed, e.g. {@code topology.hosts=8, workload.ppn=2}
 * @param values   the value of each varied key, in the order of the keys
 * @param folder   its result files' folder, relative to the sweep's ({@code points/01-topology.hosts=8})
 * @param exitCode the exit code its run would have had as {@code fabemu run}
 * @param result   what it produced; null when it produced nothing (the emulation failed)
 * @param cases    its cases as {@code results.csv} has them (empty without a result)
 * @param error    the one-line error of a point that produced nothing, else null
 */
public record SweepPoint(int number, String label, List<String> values, String folder, int exitCode,
                         RunResult result, List<CaseFigures> cases, String error) {

  public SweepPoint {
    values = List.copyOf(values);
    cases = List.copyOf(cases);
  }

  /**
   * nccl-tests' average bus bandwidth of the point's cases of {@code series} (their mean busbw), or NaN when it has
   * none.
   */
  public double meanBusBwGBps(String seriesLabel) {
    return CaseSeries.of(cases).stream().filter(s -> s.label().equals(seriesLabel))
        .flatMap(s -> s.cases().stream()).mapToDouble(CaseFigures::busBwGBps).average().orElse(Double.NaN);
  }
}
