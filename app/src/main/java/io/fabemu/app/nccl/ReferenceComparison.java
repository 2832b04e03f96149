package io.fabemu.app.nccl;

import io.fabemu.app.output.CNumbers;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * An emulated nccl-tests table held against a published curve ({@link BusBandwidthReference}): per size both run
 * and published, the emulated bus bandwidth, the published one and the error, then the mean absolute percentage
 * error (MAPE) over every such size and per size band ({@link Band}), as docs/calibration.md reports a fit.
 *
 * <p>The emulated figure is the in-place half's bus bandwidth (nccl-tests' published tables are mostly in place),
 * or the out-of-place half's when the run measured no in-place half; {@link #half} says which. A size of the
 * reference with a bus bandwidth of 0 is shown but has no error (a percentage of nothing), and so is left out of
 * the MAPE. Sizes run but not published, or published but not run, are only counted.
 *
 * @param reference   the published curve
 * @param half        {@code in-place} or {@code out-of-place}: the half compared
 * @param rows        the sizes both run and published, in increasing size
 * @param notRun      published sizes the run did not measure
 * @param notPublished measured sizes the curve does not give
 */
public record ReferenceComparison(BusBandwidthReference reference, String half, List<Row> rows, int notRun,
                                  int notPublished) {

  /** One size both run and published; {@code errorPercent} is NaN where the published figure is 0. */
  public record Row(long sizeBytes, double emulatedGBps, double publishedGBps, double errorPercent) {}

  /** A size band of the MAPE: sizes from {@code fromBytes} (inclusive) to {@code toBytes} (exclusive). */
  public record Band(String label, long fromBytes, long toBytes) {

    /** True when {@code sizeBytes} falls in it. */
    public boolean contains(long sizeBytes) {
      return sizeBytes >= fromBytes && sizeBytes < toBytes;
    }
  }

  /**
   * The bands the MAPE is also given for: latency-bound sizes below 1 MiB, the sizes between, and the
   * bandwidth-bound sizes from 64 MiB on (the H100 target's 64 MiB - 8 GiB band).
   */
  public static final List<Band> BANDS = List.of(
      new Band("below 1 MiB", 0, 1L << 20),
      new Band("1 MiB to 64 MiB", 1L << 20, 64L << 20),
      new Band("64 MiB and above", 64L << 20, Long.MAX_VALUE));

  public ReferenceComparison {
    rows = List.copyOf(rows);
  }

  /** {@code table} (one algorithm's) held against {@code reference}. */
  static ReferenceComparison of(NcclTestsReport.Table table, BusBandwidthReference reference) {
    boolean inPlace = table.rows().stream().anyMatch(r -> r.inPlace() != null);
    Map<Long, Double> published = new LinkedHashMap<>();
    for (BusBandwidthReference.Point p : reference.points()) published.put(p.sizeBytes(), p.busBwGBps());
    List<Row> rows = new ArrayList<>();
    int notPublished = 0;
    for (NcclTestsReport.Row r : table.rows()) {
      NcclTestsReport.Half h = inPlace ? r.inPlace() : r.outOfPlace();
      Double reference0 = published.get(r.sizeBytes());
      if (h == null) continue;
      if (reference0 == null) {
        notPublished++;
        continue;
      }
      double error = reference0 == 0 ? Double.NaN : (h.busBwGBps() - reference0) / reference0 * 100;
      rows.add(new Row(r.sizeBytes(), h.busBwGBps(), reference0, error));
    }
    return new ReferenceComparison(reference, inPlace ? "in-place" : "out-of-place", rows,
        reference.points().size() - rows.size(), notPublished);
  }

  /** The MAPE over the rows of {@code band} (null: every row) with an error; NaN when there is none. */
  public double mapePercent(Band band) {
    double sum = 0;
    int n = 0;
    for (Row r : rows) {
      if (Double.isNaN(r.errorPercent()) || (band != null && !band.contains(r.sizeBytes()))) continue;
      sum += Math.abs(r.errorPercent());
      n++;
    }
    return n == 0 ? Double.NaN : sum / n;
  }

  /** How many rows of {@code band} (null: every row) have an error. */
  public int count(Band band) {
    return (int) rows.stream().filter(r -> !Double.isNaN(r.errorPercent())
        && (band == null || band.contains(r.sizeBytes()))).count();
  }

  /**
   * The comparison as comment lines after nccl-tests' footer ({@code #}: harnesses that parse nccl-tests skip them):
   * what is compared, a row per size, the MAPE over all and per band with sizes, and what could not be compared.
   */
  public String commentLines() {
    StringBuilder sb = new StringBuilder("# fabemu: busbw against --reference ").append(reference.name())
        .append(" (").append(half).append(" half)");
    if (!reference.source().isEmpty()) sb.append(": ").append(reference.source());
    sb.append('\n');
    if (rows.isEmpty()) {
      return sb.append("# fabemu: no size of the run is in the reference (").append(notRun)
          .append(" published sizes not run)\n").toString();
    }
    sb.append(String.format(Locale.ROOT, "# %12s  %10s  %10s  %8s%n", "size (B)", "emulated", "published",
        "error"));
    for (Row r : rows) {
      sb.append(String.format(Locale.ROOT, "# %12d  %10s  %10s  %8s%n", r.sizeBytes(),
          CNumbers.g(r.emulatedGBps()), CNumbers.g(r.publishedGBps()), percent(r.errorPercent())));
    }
    sb.append("# fabemu: MAPE ").append(mapeText(null));
    List<String> bands = new ArrayList<>();
    for (Band b : BANDS) {
      if (count(b) > 0) bands.add(b.label() + " " + mapeText(b));
    }
    if (!bands.isEmpty()) sb.append(" (").append(String.join("; ", bands)).append(')');
    sb.append('\n');
    if (notRun > 0 || notPublished > 0) {
      sb.append("# fabemu: not compared: ").append(notRun).append(" published sizes not run, ").append(notPublished)
          .append(" sizes run but not published\n");
    }
    return sb.toString();
  }

  private String mapeText(Band band) {
    int n = count(band);
    return n == 0 ? "n/a" : String.format(Locale.ROOT, "%.1f %% over %d size%s", mapePercent(band), n,
        n == 1 ? "" : "s");
  }

  private static String percent(double error) {
    return Double.isNaN(error) ? "n/a" : String.format(Locale.ROOT, "%+.1f%%", error);
  }
}
