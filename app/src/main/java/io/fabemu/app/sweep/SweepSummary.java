package io.fabemu.app.sweep;

import io.fabemu.app.output.Csv;
import io.fabemu.app.output.ResultsWriter;
import io.fabemu.app.report.CaseFigures;
import io.fabemu.app.report.SweepPoint;
import io.fabemu.core.time.Units;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * What a sweep prints and writes of its points: the compact table on stdout (a header, one row per point as it
 * finishes, a closing line) and {@code sweep.csv} (the {@code results.csv} columns of every point's cases, after a
 * {@code point} column and one column per varied key).
 *
 * <p>Contract: pure functions of their arguments; every stdout line ends with {@code \n}; numbers use
 * {@link Locale#ROOT}. A varied key whose name is also a {@code results.csv} column (e.g. {@code topology}) gets the
 * column {@code varied:KEY}, so no two columns share a name.
 */
final class SweepSummary {

  /** The sweep's CSV file in the {@code --out} folder. */
  static final String CSV_FILE = "sweep.csv";
  /** The folder of the points' own result files, inside the {@code --out} folder. */
  static final String POINTS_FOLDER = "points";
  /** Digest characters a stdout row shows (the CSV and the report have the whole digest). */
  static final int DIGEST_CHARS = 16;

  private final SweepPlan plan;
  private final List<Integer> keyWidths = new ArrayList<>();
  private final int pointWidth;

  SweepSummary(SweepPlan plan) {
    this.plan = plan;
    for (SweepPlan.Variation v : plan.variations()) {
      int width = v.keyPath().length();
      for (SweepPlan.Value value : v.values()) width = Math.max(width, value.text().length());
      keyWidths.add(width);
    }
    pointWidth = Math.max("# point".length(), plan.numberDigits());
  }

  /** The lines before the first point: what is swept, and the column titles. */
  String header(String scenarioName, String source) {
    StringBuilder sb = new StringBuilder();
    sb.append("# fabemu sweep: ").append(scenarioName).append(" (").append(source).append("), ")
        .append(plan.points().size()).append(plan.points().size() == 1 ? " point" : " points").append(": ")
        .append(plan.variations().stream().map(v -> v.keyPath() + " = " + v.values().stream()
            .map(SweepPlan.Value::text).collect(Collectors.joining(", "))).collect(Collectors.joining("; ")))
        .append('\n');
    sb.append(String.format(Locale.ROOT, "%-" + pointWidth + "s", "# point"));
    for (int k = 0; k < keyWidths.size(); k++) {
      sb.append("  ").append(String.format(Locale.ROOT, "%-" + keyWidths.get(k) + "s", plan.keys().get(k)));
    }
    sb.append(String.format(Locale.ROOT, "  %7s  %7s  %12s  %16s  %4s  %s", "cases", "wrong", "virtual end",
        "avg busbw(GB/s)", "exit", "digest")).append('\n');
    return sb.toString();
  }

  /** The row of a finished point (one line). */
  String row(SweepPoint point) {
    StringBuilder sb = new StringBuilder(String.format(Locale.ROOT, "%" + pointWidth + "d", point.number()));
    for (int k = 0; k < keyWidths.size(); k++) {
      sb.append("  ").append(String.format(Locale.ROOT, "%-" + keyWidths.get(k) + "s", point.values().get(k)));
    }
    if (point.result() == null) {
      sb.append(String.format(Locale.ROOT, "  %7s  %7s  %12s  %16s  %4d  %s", "-", "-", "-", "-",
          point.exitCode(), "-"));
    } else {
      double busBw = point.cases().stream().mapToDouble(CaseFigures::busBwGBps).average().orElse(0);
      String wrong = point.result().checked() ? Long.toString(point.result().wrongElements()) : "n/a";
      String digest = point.result().digest();
      sb.append(String.format(Locale.ROOT, "  %7d  %7s  %12s  %16.6f  %4d  %s", point.cases().size(), wrong,
          Units.format(point.result().virtualEndPs()), busBw, point.exitCode(),
          digest.length() > DIGEST_CHARS ? digest.substring(0, DIGEST_CHARS) : digest));
    }
    return sb.append('\n').toString();
  }

  /** The closing line: points, failures, worst exit code and where the files are. */
  static String footer(List<SweepPoint> points, int worstExitCode, String outFolder) {
    long failed = points.stream().filter(p -> p.exitCode() != 0).count();
    return "# Sweep: " + points.size() + (points.size() == 1 ? " point, " : " points, ") + failed + " failed, worst "
        + "exit code " + worstExitCode + "; wrote " + outFolder + "/" + CSV_FILE + ", " + outFolder + "/"
        + ResultsWriter.REPORT_FILE + " and " + outFolder + "/" + POINTS_FOLDER + "/\n";
  }

  /** The column names of {@code sweep.csv}. */
  List<String> csvHeader() {
    List<String> header = new ArrayList<>();
    header.add("point");
    for (String key : plan.keys()) {
      header.add(CaseFigures.CSV_HEADER.contains(key) || key.equals("point") ? "varied:" + key : key);
    }
    header.addAll(CaseFigures.CSV_HEADER);
    return header;
  }

  /** The CSV document: a row per case of every point, in sweep order; a point without a result has no row. */
  String csv(List<SweepPoint> points) {
    List<List<String>> rows = new ArrayList<>();
    for (SweepPoint p : points) {
      for (CaseFigures c : p.cases()) {
        List<String> row = new ArrayList<>();
        row.add(Integer.toString(p.number()));
        row.addAll(p.values());
        row.addAll(c.csvFields());
        rows.add(row);
      }
    }
    return Csv.table(csvHeader(), rows);
  }
}
