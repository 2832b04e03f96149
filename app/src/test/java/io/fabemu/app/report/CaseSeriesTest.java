package io.fabemu.app.report;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** Grouping cases into series, labels, and the in-network speed-up drawn from them. */
class CaseSeriesTest {

  /** A case of {@code asked} that ran {@code ran}, {@code size} bytes, {@code avgUs}; INC outcome for INC ones. */
  static CaseFigures figures(int index, String asked, String ran, String buffers, long size, double avgUs,
                             Boolean incUsed) {
    boolean inc = asked.startsWith("inc-");
    return new CaseFigures(index, "s", "t", 8, 4, 2, "allreduce", ran, asked, inc, buffers, size, size / 4, "float32",
        "sum", 2, avgUs, avgUs, avgUs, size * 1e-3 / avgUs, size * 1e-3 / avgUs * 1.75, 0, true,
        inc ? incUsed : null, inc ? (incUsed ? "INC in use" : "a switch on the tree has no free aggregation slots")
        : null);
  }

  @Test
  void shouldGroupByAlgorithmAskedAndBuffersInOrderOfFirstAppearanceWithSizesAscending() {
    List<CaseSeries> series = CaseSeries.of(List.of(
        figures(0, "auto", "recursive-doubling", CaseFigures.OUT_OF_PLACE, 8, 2, null),
        figures(1, "auto", "ring", CaseFigures.OUT_OF_PLACE, 1024, 9, null),
        figures(2, "ring", "ring", CaseFigures.OUT_OF_PLACE, 1024, 8, null),
        figures(3, "ring", "ring", CaseFigures.OUT_OF_PLACE, 8, 3, null),
        figures(4, "ring", "ring", CaseFigures.IN_PLACE, 8, 3, null)));

    assertThat(series).extracting(CaseSeries::label)
        .containsExactly("auto (recursive-doubling, ring)", "ring", "ring, in-place");
    assertThat(series.get(1).cases()).extracting(CaseFigures::sizeBytes).containsExactly(8L, 1024L);
    assertThat(series.get(2).buffers()).isEqualTo(CaseFigures.IN_PLACE);
  }

  @Test
  void shouldCompareEachInNetworkCaseWithTheFastestHostCaseOfItsSize() {
    List<CaseSeries> series = CaseSeries.of(List.of(
        figures(0, "ring", "ring", CaseFigures.OUT_OF_PLACE, 4, 20, null),
        figures(1, "ring", "ring", CaseFigures.OUT_OF_PLACE, 8, 20, null),
        figures(2, "recursive-doubling", "recursive-doubling", CaseFigures.OUT_OF_PLACE, 4, 10, null),
        figures(3, "recursive-doubling", "recursive-doubling", CaseFigures.OUT_OF_PLACE, 8, 30, null),
        figures(4, "inc-node", "inc-node", CaseFigures.OUT_OF_PLACE, 4, 5, true),
        figures(5, "inc-node", "inc-node", CaseFigures.OUT_OF_PLACE, 8, 19, false),
        figures(6, "inc-node", "inc-node", CaseFigures.OUT_OF_PLACE, 16, 19, true)));

    List<IncSpeedupSection.Comparison> comparisons = IncSpeedupSection.comparisons(series);

    assertThat(IncSpeedupSection.whyNoComparison(series)).isNull();
    assertThat(comparisons).hasSize(2);
    assertThat(comparisons.get(0).hostSeries().label()).isEqualTo("recursive-doubling");
    assertThat(comparisons.get(0).speedUp()).isEqualTo(2.0);
    assertThat(comparisons.get(1).hostSeries().label()).isEqualTo("ring");
    assertThat(comparisons.get(1).speedUp()).isEqualTo(20.0 / 19);
  }

  @Test
  void shouldSayWhyThereIsNoSpeedUp() {
    CaseFigures host = figures(0, "ring", "ring", CaseFigures.OUT_OF_PLACE, 4, 20, null);
    CaseFigures inc = figures(1, "inc-socket", "inc-socket", CaseFigures.OUT_OF_PLACE, 8, 5, true);

    assertThat(IncSpeedupSection.whyNoComparison(CaseSeries.of(List.of(host))))
        .isEqualTo("No speed-up to show: this run has no in-network cases (algorithms inc-node or inc-socket).");
    assertThat(IncSpeedupSection.whyNoComparison(CaseSeries.of(List.of(inc)))).startsWith(
        "No speed-up to show: this run has no host-algorithm cases");
    assertThat(IncSpeedupSection.whyNoComparison(CaseSeries.of(List.of(host, inc))))
        .isEqualTo("No speed-up to show: no message size was run both in the network and on the hosts.");
    assertThat(IncSpeedupSection.whyNoComparison(List.of())).isEqualTo("No speed-up to show: no case finished.");
  }

  @Test
  void shouldWriteCsvFieldsWithExactLatenciesAndSixDigitBandwidths() {
    CaseFigures c = new CaseFigures(0, "q", "leaf-spine: 2 hosts", 2, 2, 1, "allgather", "ring", "ring", false,
        CaseFigures.OUT_OF_PLACE, 4, 1, "int32", "none", 5, 1.000001, 1, 1.5, 0.0000395576123, 123456789.0, 0, false,
        null, null);

    assertThat(c.csvFields()).containsExactly("q", "leaf-spine: 2 hosts", "2", "2", "1", "allgather", "ring", "ring",
        "out-of-place", "4", "1", "int32", "none", "5", "1.000001", "1.000000", "1.500000", "0.0000395576",
        "123457000", "0", "false", "", "", "", "");
    assertThat(c.csvFields()).hasSameSizeAs(CaseFigures.CSV_HEADER);
  }
}
