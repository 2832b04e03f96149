package io.fabemu.app.report;

import io.fabemu.collectives.Algorithm;
import io.fabemu.collectives.WorkloadSpec;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.TreeSet;

/**
 * The comparison of a run's embedded-ring algorithms (the patent's multi-ring against its baselines): per size, each
 * algorithm's bus bandwidth and its ratio to the baseline, single-ring when the workload runs it, else the first
 * embedded-ring algorithm. Printed after the tables ({@link #text}) and shown in the report ({@link #html}).
 *
 * @param algorithms the workload's embedded-ring algorithms, in workload order
 * @param baseline   the index in {@code algorithms} of the baseline
 * @param sizesBytes the sizes, ascending
 * @param busBwGBps  per size, per algorithm, the bus bandwidth of its primary-buffer case (NaN where none finished)
 */
public record RingComparison(List<Algorithm> algorithms, int baseline, List<Long> sizesBytes, double[][] busBwGBps) {

  public RingComparison {
    algorithms = List.copyOf(algorithms);
    sizesBytes = List.copyOf(sizesBytes);
    busBwGBps = Arrays.stream(busBwGBps).map(double[]::clone).toArray(double[][]::new);
  }

  /**
   * The comparison of {@code cases} (a run's figures, workload order), or null when the workload runs fewer than
   * two embedded-ring algorithms.
   */
  public static RingComparison of(WorkloadSpec workload, List<CaseFigures> cases) {
    List<Algorithm> algorithms = new ArrayList<>();
    for (Algorithm a : workload.algorithms()) {
      if (a.onEmbeddedRings() && !algorithms.contains(a)) algorithms.add(a);
    }
    if (algorithms.size() < 2) return null;
    int baseline = Math.max(0, algorithms.indexOf(Algorithm.SINGLE_RING));
    TreeSet<Long> sizes = new TreeSet<>();
    for (CaseFigures c : cases) {
      if (primaryRingCase(workload, algorithms, c) >= 0) sizes.add(c.sizeBytes());
    }
    List<Long> sizeList = new ArrayList<>(sizes);
    double[][] busBw = new double[sizeList.size()][algorithms.size()];
    for (double[] row : busBw) Arrays.fill(row, Double.NaN);
    for (CaseFigures c : cases) {
      int a = primaryRingCase(workload, algorithms, c);
      if (a >= 0) busBw[sizeList.indexOf(c.sizeBytes())][a] = c.busBwGBps();
    }
    return new RingComparison(algorithms, baseline, sizeList, busBw);
  }

  /** The column of case {@code c} in the comparison, or -1 when it is not a primary-buffer embedded-ring case. */
  private static int primaryRingCase(WorkloadSpec workload, List<Algorithm> algorithms, CaseFigures c) {
    if (workload.bufferIndexOfCase(c.caseIndex()) != workload.primaryBufferIndex()) return -1;
    return algorithms.indexOf(workload.algorithmOfCase(c.caseIndex()));
  }

  /** Algorithm {@code a}'s bus bandwidth over the baseline's at size row {@code s}; NaN when either is missing or 0. */
  public double ratio(int s, int a) {
    double base = busBwGBps[s][baseline];
    double v = busBwGBps[s][a];
    return Double.isNaN(base) || Double.isNaN(v) || base == 0 ? Double.NaN : v / base;
  }

  /**
   * The printed comparison: a title naming the baseline, then per size a row of each algorithm's busbw in GB/s and
   * its ratio to the baseline ({@code -} where a case is missing).
   */
  public String text() {
    StringBuilder sb = new StringBuilder();
    sb.append("# fabemu embedded-ring comparison: busbw (GB/s) and ratio to ")
        .append(algorithms.get(baseline).configName()).append('\n');
    sb.append(String.format(Locale.ROOT, "%-12s", "# Size"));
    for (Algorithm a : algorithms) sb.append(String.format(Locale.ROOT, "%22s", a.configName()));
    sb.append('\n');
    for (int s = 0; s < sizesBytes.size(); s++) {
      sb.append(String.format(Locale.ROOT, "%-12d", sizesBytes.get(s)));
      for (int a = 0; a < algorithms.size(); a++) sb.append(String.format(Locale.ROOT, "%22s", cell(s, a)));
      sb.append('\n');
    }
    return sb.toString();
  }

  /**
   * {@code busbw (ratio x)} of algorithm {@code a} at size row {@code s}; the busbw alone when the baseline has none
   * there, {@code -} when the case did not finish.
   */
  String cell(int s, int a) {
    double v = busBwGBps[s][a];
    if (Double.isNaN(v)) return "-";
    double r = ratio(s, a);
    return Double.isNaN(r) ? String.format(Locale.ROOT, "%.2f", v) : String.format(Locale.ROOT, "%.2f (%.2fx)", v, r);
  }

  /** The comparison as a table in the report. */
  public void html(Markup out) {
    List<String> header = new ArrayList<>();
    header.add("size");
    for (Algorithm a : algorithms) header.add(a.configName());
    List<List<String>> rows = new ArrayList<>();
    for (int s = 0; s < sizesBytes.size(); s++) {
      List<String> row = new ArrayList<>();
      row.add(Formats.sizeLabel(sizesBytes.get(s)));
      for (int a = 0; a < algorithms.size(); a++) row.add(cell(s, a));
      rows.add(row);
    }
    Tables.note(out, "Bus bandwidth in GB/s of each embedded-ring algorithm, and in brackets its ratio to "
        + algorithms.get(baseline).configName() + ".");
    TreeSet<Integer> numeric = new TreeSet<>();
    for (int i = 0; i <= algorithms.size(); i++) numeric.add(i);
    Tables.table(out, header, rows, numeric);
  }
}
