package io.fabemu.app;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabemu.collectives.Algorithm;
import io.fabemu.fabric.result.CaseResult;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The osu_allreduce table, byte for byte as OSU 5.x's {@code print_preamble}/{@code print_stats} print it. */
class OsuFormatterTest {

  private static final List<CaseResult> CASES = List.of(
      new CaseResult(0, Algorithm.RECURSIVE_DOUBLING, 4, 1, 1000, 6_890_000.0, 6_120_000.0, 7_335_000.0, 0),
      new CaseResult(1, Algorithm.RECURSIVE_DOUBLING, 8, 2, 1000, 6_770_000.0, 6_004_999.0, 7_555_001.0, 0),
      new CaseResult(2, Algorithm.RING, 1_048_576, 262_144, 100, 1_234_567_890.0, 1_200_000_000.0,
          1_299_999_999.0, 0));

  @Test
  void shouldPrintOsuColumnsWhenFormattingAPlainTable() {
    String expected = ""
        + "# OSU MPI Allreduce Latency Test (fabemu emulation, rack, 16 nodes x 2 ppn, mode host)\n"
        + "# Size       Avg Latency(us)\n"
        + "4                       6.89\n"
        + "8                       6.77\n"
        + "1048576              1234.57\n";

    String text = OsuFormatter.title("rack", 16, 2, "host") + OsuFormatter.table(CASES, false);

    assertThat(text).isEqualTo(expected);
  }

  @Test
  void shouldPrintMinMaxAndIterationsWhenFormattingAFullTable() {
    String expected = ""
        + "# Size       Avg Latency(us)   Min Latency(us)   Max Latency(us)  Iterations\n"
        + "4                       6.89              6.12              7.33        1000\n"
        + "8                       6.77              6.00              7.56        1000\n"
        + "1048576              1234.57           1200.00           1300.00         100\n";

    assertThat(OsuFormatter.table(CASES, true)).isEqualTo(expected);
  }

  @Test
  void shouldUseOsuWidthsForEveryColumn() {
    String row = OsuFormatter.row(CASES.get(0), true);

    // "%-*d" 10, then "%*.*f" with FIELD_WIDTH 18 and FLOAT_PRECISION 2 (three times), then "%*d" 12.
    assertThat(row).hasSize(10 + 18 * 3 + 12 + 1);
    assertThat(row.substring(0, 10)).isEqualTo("4         ");
    assertThat(row.substring(10, 28)).isEqualTo(" ".repeat(14) + "6.89");
    assertThat(row.substring(64, 76)).isEqualTo(" ".repeat(8) + "1000");
    assertThat(OsuFormatter.columns(false)).hasSize(10 + 18 + 1);
    assertThat(OsuFormatter.columns(true)).hasSize(10 + 18 * 3 + 12 + 1);
  }

  @Test
  void shouldRoundLikeCPrintfWhenTheDecimalFormIsATie() {
    // 2.675 is 2.67499999999999982236431605997495353221893310546875 in binary: C prints 2.67 (String.format: 2.68).
    assertThat(OsuFormatter.fixed(2.675, 18)).isEqualTo(" ".repeat(14) + "2.67");
    // Exact binary ties go to even, as glibc's printf rounds them.
    assertThat(OsuFormatter.fixed(0.125, 6)).isEqualTo("  0.12");
    assertThat(OsuFormatter.fixed(0.375, 6)).isEqualTo("  0.38");
    assertThat(OsuFormatter.fixed(123456789.0, 6)).isEqualTo("123456789.00");
  }

  @Test
  void shouldPrintOnlyTheColumnsWhenThereAreNoCases() {
    assertThat(OsuFormatter.table(List.of(), false)).isEqualTo("# Size       Avg Latency(us)\n");
  }
}
