package io.fabemu.app.nccl;

import io.fabemu.app.report.Axis;
import io.fabemu.app.report.Formats;
import io.fabemu.app.report.LineChart;
import io.fabemu.app.report.Markup;
import io.fabemu.app.report.Palette;
import io.fabemu.app.report.ReportSection;
import io.fabemu.app.report.Tables;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * The report's section of a run held against a published curve ({@code --reference}): bus bandwidth against size,
 * the emulated line beside the published one, then the MAPE over every size and per band, and the figures per size.
 *
 * @param comparison what was compared
 * @param algorithm  the emulated algorithm, for the line's label and colour
 */
public record ReferenceSection(ReferenceComparison comparison, String algorithm) implements ReportSection {

  /** The published line's colour: grey, dashed, so the emulated algorithm keeps its own colour. */
  static final String PUBLISHED_COLOUR = "#636363";

  @Override
  public String id() {
    return "reference";
  }

  @Override
  public String title() {
    return "Bus bandwidth against the published curve";
  }

  @Override
  public void render(Markup out) {
    BusBandwidthReference reference = comparison.reference();
    Tables.startFacts(out);
    Tables.fact(out, "reference", reference.name());
    if (!reference.source().isEmpty()) Tables.fact(out, "its source", reference.source());
    Tables.fact(out, "compared", comparison.half() + " bus bandwidth, " + comparison.rows().size()
        + " sizes both run and published");
    Tables.fact(out, "MAPE", mape(null));
    for (ReferenceComparison.Band band : ReferenceComparison.BANDS) {
      Tables.fact(out, "MAPE " + band.label(), mape(band));
    }
    out.end("table").newline();
    if (comparison.rows().isEmpty()) {
      Tables.note(out, "No size of the run is in the reference, so there is nothing to draw.");
      return;
    }
    List<Double> sizes = new ArrayList<>();
    List<Double> emulated = new ArrayList<>();
    List<Double> published = new ArrayList<>();
    List<String> names = new ArrayList<>();
    List<List<String>> rows = new ArrayList<>();
    for (ReferenceComparison.Row r : comparison.rows()) {
      sizes.add((double) r.sizeBytes());
      emulated.add(r.emulatedGBps());
      published.add(r.publishedGBps());
      names.add(Formats.bytes(r.sizeBytes()));
      rows.add(List.of(Long.toString(r.sizeBytes()), Formats.significant(r.emulatedGBps(), 4),
          Formats.significant(r.publishedGBps(), 4), Double.isNaN(r.errorPercent()) ? "n/a"
              : String.format(Locale.ROOT, "%+.1f %%", r.errorPercent())));
    }
    List<Double> values = new ArrayList<>(emulated);
    values.addAll(published);
    LineChart.Series ours = new LineChart.Series("fabemu " + algorithm + " (" + comparison.half() + ")", sizes,
        emulated, names, new LineChart.Style(Palette.colour(algorithm), null, LineChart.Marker.CIRCLE, true));
    LineChart.Series theirs = new LineChart.Series("published: " + reference.name(), sizes, published, names,
        new LineChart.Style(PUBLISHED_COLOUR, "6 4", LineChart.Marker.SQUARE, true));
    LineChart.render(out, "Bus bandwidth against message size", Axis.messageSizes(sizes),
        Axis.auto("bus bandwidth (GB/s)", values), List.of(ours, theirs));
    out.start("details").element("summary", "The figures per size").newline();
    Tables.table(out, List.of("size (B)", "emulated busbw (GB/s)", "published busbw (GB/s)", "error"), rows,
        Set.of(0, 1, 2, 3));
    out.end("details").newline();
  }

  private String mape(ReferenceComparison.Band band) {
    int n = comparison.count(band);
    return n == 0 ? "n/a (no size)" : String.format(Locale.ROOT, "%.1f %% over %d size%s",
        comparison.mapePercent(band), n, n == 1 ? "" : "s");
  }
}
