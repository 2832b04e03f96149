package io.fabemu.app.nccl;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabemu.app.report.Markup;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/** An emulated table held against a published curve: matching sizes, errors, MAPE per band, comment lines. */
class ReferenceComparisonTest {

  private static final long MIB = 1L << 20;

  private static NcclTestsReport.Row row(long size, double outOfPlaceBusBw, Double inPlaceBusBw) {
    NcclTestsReport.Half out = new NcclTestsReport.Half(1, 1, outOfPlaceBusBw, true, 0);
    NcclTestsReport.Half in = inPlaceBusBw == null ? null : new NcclTestsReport.Half(1, 1, inPlaceBusBw, true, 0);
    return new NcclTestsReport.Row(size, size / 4, "float", "sum", -1, out, in);
  }

  private static BusBandwidthReference curve(long... sizesAndTenthsGBps) {
    List<BusBandwidthReference.Point> points = new java.util.ArrayList<>();
    for (int i = 0; i < sizesAndTenthsGBps.length; i += 2) {
      points.add(new BusBandwidthReference.Point(sizesAndTenthsGBps[i], sizesAndTenthsGBps[i + 1] / 10.0));
    }
    return new BusBandwidthReference(Path.of("/x/published.csv"), "Source: a table", points);
  }

  @Test
  void shouldCompareTheInPlaceHalfAtTheSizesBothHaveAndGiveTheMapePerBand() {
    NcclTestsReport.Table table = new NcclTestsReport.Table(List.of(
        row(1024, 9, 1.1), row(2048, 9, 2.0), row(2 * MIB, 9, 30.0), row(128 * MIB, 9, 380.0),
        row(256 * MIB, 9, 400.0)), 0, 1);
    // Published: 1 KiB 1.0, 1 MiB 20 (not run), 2 MiB 40, 128 MiB 400, 256 MiB 400; 2 KiB not published.
    BusBandwidthReference reference = curve(1024, 10, MIB, 200, 2 * MIB, 400, 128 * MIB, 4000, 256 * MIB, 4000);

    ReferenceComparison c = ReferenceComparison.of(table, reference);

    assertThat(c.half()).isEqualTo("in-place");
    assertThat(c.rows()).extracting(ReferenceComparison.Row::sizeBytes)
        .containsExactly(1024L, 2 * MIB, 128 * MIB, 256 * MIB);
    assertThat(c.rows().get(0).errorPercent()).isCloseTo(10.0, org.assertj.core.data.Offset.offset(1e-9));
    assertThat(c.rows().get(1).errorPercent()).isCloseTo(-25.0, org.assertj.core.data.Offset.offset(1e-9));
    assertThat(c.rows().get(2).errorPercent()).isCloseTo(-5.0, org.assertj.core.data.Offset.offset(1e-9));
    assertThat(c.rows().get(3).errorPercent()).isZero();
    assertThat(c.notRun()).isEqualTo(1);
    assertThat(c.notPublished()).isEqualTo(1);
    assertThat(c.mapePercent(null)).isCloseTo(10.0, org.assertj.core.data.Offset.offset(1e-9));
    assertThat(c.mapePercent(ReferenceComparison.BANDS.get(0))).isCloseTo(10.0,
        org.assertj.core.data.Offset.offset(1e-9));
    assertThat(c.mapePercent(ReferenceComparison.BANDS.get(1))).isCloseTo(25.0,
        org.assertj.core.data.Offset.offset(1e-9));
    assertThat(c.mapePercent(ReferenceComparison.BANDS.get(2))).isCloseTo(2.5,
        org.assertj.core.data.Offset.offset(1e-9));
    assertThat(c.commentLines()).isEqualTo(
        "# fabemu: busbw against --reference published.csv (in-place half): Source: a table\n"
        + "#     size (B)    emulated   published     error\n"
        + "#         1024         1.1           1    +10.0%\n"
        + "#      2097152          30          40    -25.0%\n"
        + "#    134217728         380         400     -5.0%\n"
        + "#    268435456         400         400     +0.0%\n"
        + "# fabemu: MAPE 10.0 % over 4 sizes (below 1 MiB 10.0 % over 1 size; 1 MiB to 64 MiB 25.0 % over 1 size; "
        + "64 MiB and above 2.5 % over 2 sizes)\n"
        + "# fabemu: not compared: 1 published sizes not run, 1 sizes run but not published\n");
  }

  @Test
  void shouldCompareTheOutOfPlaceHalfWhenNoInPlaceHalfWasMeasuredAndLeaveAZeroFigureOutOfTheMape() {
    NcclTestsReport.Table table = new NcclTestsReport.Table(List.of(row(8, 2.0, null), row(16, 3.0, null)), 0, 1);

    ReferenceComparison c = ReferenceComparison.of(table, curve(8, 0, 16, 20));

    assertThat(c.half()).isEqualTo("out-of-place");
    assertThat(c.rows().get(0).errorPercent()).isNaN();
    assertThat(c.count(null)).isEqualTo(1);
    assertThat(c.mapePercent(null)).isCloseTo(50.0, org.assertj.core.data.Offset.offset(1e-9));
    assertThat(c.mapePercent(ReferenceComparison.BANDS.get(2))).isNaN();
    assertThat(c.commentLines()).contains("#            8           2           0       n/a\n")
        .contains("# fabemu: MAPE 50.0 % over 1 size (below 1 MiB 50.0 % over 1 size)\n")
        .doesNotContain("not compared");
  }

  @Test
  void shouldSaySoWhenNoSizeMatches() {
    NcclTestsReport.Table table = new NcclTestsReport.Table(List.of(row(8, 2.0, 2.0)), 0, 1);

    ReferenceComparison c = ReferenceComparison.of(table, curve(16, 10, 32, 10));

    assertThat(c.rows()).isEmpty();
    assertThat(c.commentLines()).endsWith("# fabemu: no size of the run is in the reference (2 published sizes not "
        + "run)\n");
  }

  @Test
  void shouldDrawBothLinesAndTheMapeInTheReportSection() {
    NcclTestsReport.Table table = new NcclTestsReport.Table(List.of(row(1024, 9, 1.1), row(2048, 9, 2.0)), 0, 1);
    ReferenceSection section = new ReferenceSection(ReferenceComparison.of(table, curve(1024, 10, 2048, 20)),
        "ring");
    Markup out = new Markup();

    section.render(out);

    String html = out.toString();
    assertThat(section.id()).isEqualTo("reference");
    assertThat(html).contains("<svg").contains("fabemu ring (in-place)").contains("published: published.csv")
        .contains("5.0 % over 2 sizes").contains("Source: a table").contains("+10.0 %");
  }

  @Test
  void shouldSayThereIsNothingToDrawWhenNoSizeMatches() {
    NcclTestsReport.Table table = new NcclTestsReport.Table(List.of(row(8, 2.0, 2.0)), 0, 1);
    Markup out = new Markup();

    new ReferenceSection(ReferenceComparison.of(table, curve(16, 10)), "ring").render(out);

    assertThat(out.toString()).contains("n/a (no size)").contains("nothing to draw").doesNotContain("<svg");
  }
}
