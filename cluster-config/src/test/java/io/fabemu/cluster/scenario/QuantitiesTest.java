package io.fabemu.cluster.scenario;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.typesafe.config.ConfigFactory;
import com.typesafe.config.ConfigValueFactory;
import java.util.List;
import org.junit.jupiter.api.Test;

class QuantitiesTest {

  @Test
  void shouldParseEveryDurationUnitExactlyWhenGivenDecimals() {
    assertThat(Quantities.parseDurationPs("1.2 us")).isEqualTo(1_200_000L);
    assertThat(Quantities.parseDurationPs("7 ps")).isEqualTo(7L);
    assertThat(Quantities.parseDurationPs("500 ns")).isEqualTo(500_000L);
    assertThat(Quantities.parseDurationPs("500ns")).isEqualTo(500_000L);
    assertThat(Quantities.parseDurationPs("0.25 µs")).isEqualTo(250_000L);
    assertThat(Quantities.parseDurationPs("1.000001 ms")).isEqualTo(1_000_001_000L);
    assertThat(Quantities.parseDurationPs("2 s")).isEqualTo(2_000_000_000_000L);
    assertThat(Quantities.parseDurationPs("1e3 ns")).isEqualTo(1_000_000L);
    assertThat(Quantities.parseDurationPs("0 s")).isZero();
  }

  @Test
  void shouldRejectDurationWhenUnitIsMissingOrUnknown() {
    assertThatThrownBy(() -> Quantities.parseDurationPs("500"))
        .hasMessage("'500' has no unit (use ps, ns, us, ms or s, e.g. '500 ns')");
    assertThatThrownBy(() -> Quantities.parseDurationPs("500 nsec"))
        .hasMessageStartingWith("'500 nsec' has an unknown unit 'nsec' (use ps, ns, us, ms or s");
    assertThatThrownBy(() -> Quantities.parseDurationPs("fast"))
        .hasMessageStartingWith("'fast' is not a duration");
  }

  @Test
  void shouldRejectDurationWhenNotWholePicosecondsNegativeOrTooLarge() {
    assertThatThrownBy(() -> Quantities.parseDurationPs("0.5 ps"))
        .hasMessage("'0.5 ps' is not a whole number of picoseconds");
    assertThatThrownBy(() -> Quantities.parseDurationPs("-1 ns")).hasMessage("'-1 ns' is negative");
    assertThatThrownBy(() -> Quantities.parseDurationPs("1e7 s")).hasMessage("'1e7 s' is too large");
  }

  @Test
  void shouldParseBitAndByteRatesWhenGivenEitherSpelling() {
    assertThat(Quantities.parseBandwidthBitsPerSecond("25 Gbps")).isEqualTo(25_000_000_000L);
    assertThat(Quantities.parseBandwidthBitsPerSecond("100 Gb/s")).isEqualTo(100_000_000_000L);
    assertThat(Quantities.parseBandwidthBitsPerSecond("400 Mbps")).isEqualTo(400_000_000L);
    assertThat(Quantities.parseBandwidthBitsPerSecond("56 Kbps")).isEqualTo(56_000L);
    assertThat(Quantities.parseBandwidthBitsPerSecond("56 kbps")).isEqualTo(56_000L);
    assertThat(Quantities.parseBandwidthBitsPerSecond("9600 bps")).isEqualTo(9_600L);
    assertThat(Quantities.parseBandwidthBitsPerSecond("1.6 Tbps")).isEqualTo(1_600_000_000_000L);
    assertThat(Quantities.parseBandwidthBitsPerSecond("10 GBps")).isEqualTo(80_000_000_000L);
    assertThat(Quantities.parseBandwidthBitsPerSecond("12.5 GB/s")).isEqualTo(100_000_000_000L);
    assertThat(Quantities.parseBandwidthBitsPerSecond("3 MBps")).isEqualTo(24_000_000L);
  }

  @Test
  void shouldSuggestTheRateUnitWhenMisspelled() {
    assertThatThrownBy(() -> Quantities.parseBandwidthBitsPerSecond("25 Gpbs"))
        .hasMessageContaining("unknown unit 'Gpbs'")
        .hasMessageEndingWith("did you mean 'Gbps'?)");
    assertThatThrownBy(() -> Quantities.parseBandwidthBitsPerSecond("25"))
        .hasMessageStartingWith("'25' has no unit");
    assertThatThrownBy(() -> Quantities.parseBandwidthBitsPerSecond("0.5 bps"))
        .hasMessage("'0.5 bps' is not a whole number of bits per second");
  }

  @Test
  void shouldParseSizesExactlyAsHoconDoesWhenGivenAnyHoconUnit() {
    for (String text : List.of("4 B", "4B", "64", "4 KiB", "4 K", "4k", "4 kB", "1 MiB", "1 MB", "1 M", "2 GiB",
        "3 bytes", "1 kibibyte")) {
      long hocon = ConfigFactory.empty().withValue("x", ConfigValueFactory.fromAnyRef(text)).getBytes("x");
      assertThat(Quantities.parseSizeBytes(text)).as(text).isEqualTo(hocon);
    }
    assertThat(Quantities.parseSizeBytes("4 KiB")).isEqualTo(4096L);
    assertThat(Quantities.parseSizeBytes("4 kB")).isEqualTo(4000L);
  }

  @Test
  void shouldRejectSizeWhenUnitUnknownOrNegative() {
    assertThatThrownBy(() -> Quantities.parseSizeBytes("3 XB"))
        .hasMessage("'3 XB' is not a byte size (write e.g. '4 B', '64 KiB', '1 MiB')");
    assertThatThrownBy(() -> Quantities.parseSizeBytes("-4 B")).hasMessageContaining("'-4 B'");
  }

  @Test
  void shouldFormatBytesInTheLargestExactBinaryUnit() {
    assertThat(Quantities.formatBytes(0)).isEqualTo("0 B");
    assertThat(Quantities.formatBytes(4)).isEqualTo("4 B");
    assertThat(Quantities.formatBytes(4096)).isEqualTo("4 KiB");
    assertThat(Quantities.formatBytes(1 << 20)).isEqualTo("1 MiB");
    assertThat(Quantities.formatBytes(1536)).isEqualTo("1536 B");
  }

  @Test
  void shouldGiveTheClockCycleRoundedToTheNearestPicosecondWhenWithinHalfAPercent() {
    assertThat(Quantities.parseClockCyclePs("1 GHz")).isEqualTo(1_000L);
    assertThat(Quantities.parseClockCyclePs("500 MHz")).isEqualTo(2_000L);
    assertThat(Quantities.parseClockCyclePs("2.5 GHz")).isEqualTo(400L);
    assertThat(Quantities.parseClockCyclePs("2.5GHz")).isEqualTo(400L);
    assertThat(Quantities.parseClockCyclePs("100 kHz")).isEqualTo(10_000_000L);
    assertThat(Quantities.parseClockCyclePs("1 Hz")).isEqualTo(1_000_000_000_000L);
    // 333.33 ps rounds to 333 (0.1 % off), 2.8571 ps would round to 3 (5 % off) and is refused below.
    assertThat(Quantities.parseClockCyclePs("3 GHz")).isEqualTo(333L);
    assertThat(Quantities.parseClockCyclePs("1.5 GHz")).isEqualTo(667L);
    assertThat(Quantities.parseClockCyclePs("0.5 THz")).isEqualTo(2L);
  }

  @Test
  void shouldRejectClockWhenItsCycleIsTooShortOrRoundingMovesIt() {
    assertThatThrownBy(() -> Quantities.parseClockCyclePs("1 THz"))
        .hasMessage("'1 THz' has a cycle of 1 ps, below the shortest of 2 ps: virtual time counts whole picoseconds, "
            + "too coarse for a faster clock");
    assertThatThrownBy(() -> Quantities.parseClockCyclePs("350 GHz"))
        .hasMessageStartingWith("'350 GHz' has a cycle of 2.857 ps, which rounds to 3 ps, 5 % off:");
    assertThatThrownBy(() -> Quantities.parseClockCyclePs("-1 GHz"))
        .hasMessage("'-1 GHz' is not a clock: a frequency must be greater than 0");
    assertThatThrownBy(() -> Quantities.parseClockCyclePs("1 ghz"))
        .hasMessageEndingWith("did you mean 'GHz'?)");
    assertThatThrownBy(() -> Quantities.parseClockCyclePs("1e-20 Hz"))
        .hasMessage("'1e-20 Hz' is too slow: its cycle does not fit a long of picoseconds");
    assertThatThrownBy(() -> Quantities.parseClockCyclePs("fast"))
        .hasMessageStartingWith("'fast' is not a clock frequency");
  }

  @Test
  void shouldFormatDurationsInTheLargestUnitAtLeastOne() {
    assertThat(Quantities.formatDuration(0)).isEqualTo("0 ps");
    assertThat(Quantities.formatDuration(999)).isEqualTo("999 ps");
    assertThat(Quantities.formatDuration(6_000)).isEqualTo("6 ns");
    assertThat(Quantities.formatDuration(1_500_000)).isEqualTo("1.5 us");
    assertThat(Quantities.formatDuration(1_004_000_000_000L)).isEqualTo("1.004 s");
  }
}
