package io.fabemu.app;

import io.fabemu.cluster.scenario.Quantities;
import io.fabemu.collectives.Algorithm;
import io.fabemu.collectives.BufferLayout;
import io.fabemu.collectives.WorkloadSpec;
import java.util.List;
import java.util.stream.Collectors;

/**
 * The cases a workload runs, in one line for {@code validate}: the collective, its algorithms, the buffer layouts when
 * there is more than the default, and the message sizes per rank in exact units ({@link Quantities#formatBytes}: a
 * size that is no whole number of KiB stays in bytes, so {@code max-size = 1MB} shows as 10^6 B, or as the doubling
 * below it). E.g. {@code cases: allreduce ring, recursive-doubling: 8 B, 16 B, ..., 1 MiB (18 sizes, x2 each)}.
 *
 * <p>Contract: pure functions of the workload. A list of more than {@value #LISTED} sizes is collapsed to its first
 * two, {@code ...} and its last, with the count and, where every size is the same multiple of the one before (from
 * the first size above 0), that factor, or where every step is the same, that step.
 */
final class CaseList {
  /** Size lists up to this long are printed in full. */
  static final int LISTED = 5;

  private CaseList() {}

  /** The line: {@code cases: <collective> <algorithms>[; <layouts>]: <sizes>}. */
  static String line(WorkloadSpec workload) {
    String algorithms = workload.algorithms().stream().map(Algorithm::configName).collect(Collectors.joining(", "));
    String layouts = workload.buffers().equals(WorkloadSpec.DEFAULT_BUFFERS) ? ""
        : " (" + workload.buffers().stream().map(BufferLayout::configName).collect(Collectors.joining(", ")) + ")";
    return "cases: " + workload.collective().configName() + " " + algorithms + layouts + ": "
        + sizes(workload.sizesBytes());
  }

  /** {@code sizesBytes} as the line shows them: in full when short, else collapsed (see the class comment). */
  static String sizes(List<Long> sizesBytes) {
    int n = sizesBytes.size();
    String count = n + (n == 1 ? " size" : " sizes");
    if (n <= LISTED) {
      return sizesBytes.stream().map(Quantities::formatBytes).collect(Collectors.joining(", ")) + " (" + count + ")";
    }
    String shown = Quantities.formatBytes(sizesBytes.get(0)) + ", " + Quantities.formatBytes(sizesBytes.get(1))
        + ", ..., " + Quantities.formatBytes(sizesBytes.get(n - 1));
    return shown + " (" + count + stride(sizesBytes) + ")";
  }

  /** {@code , xF each} for a constant factor, {@code , +S each} for a constant step, else nothing. */
  private static String stride(List<Long> sizesBytes) {
    int from = sizesBytes.get(0) == 0 ? 1 : 0;
    long base = sizesBytes.get(from);
    long next = sizesBytes.get(from + 1);
    if (base > 0 && next % base == 0 && next / base > 1) {
      long factor = next / base;
      boolean constant = true;
      for (int i = from + 1; i < sizesBytes.size() && constant; i++) {
        long previous = sizesBytes.get(i - 1);
        constant = previous <= Long.MAX_VALUE / factor && sizesBytes.get(i) == previous * factor;
      }
      if (constant) return ", x" + factor + " each" + (from == 1 ? " after 0 B" : "");
    }
    long step = sizesBytes.get(1) - sizesBytes.get(0);
    for (int i = 2; i < sizesBytes.size(); i++) {
      if (sizesBytes.get(i) - sizesBytes.get(i - 1) != step) return "";
    }
    return ", +" + Quantities.formatBytes(step) + " each";
  }
}
