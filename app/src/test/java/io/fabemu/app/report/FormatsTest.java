package io.fabemu.app.report;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class FormatsTest {

  @Test
  void shouldLabelSizesWithBinarySuffixesOnlyWhenWhole() {
    assertThat(Formats.sizeLabel(0)).isEqualTo("0");
    assertThat(Formats.sizeLabel(4)).isEqualTo("4");
    assertThat(Formats.sizeLabel(1024)).isEqualTo("1K");
    assertThat(Formats.sizeLabel(65536)).isEqualTo("64K");
    assertThat(Formats.sizeLabel(1 << 20)).isEqualTo("1M");
    assertThat(Formats.sizeLabel(1536)).isEqualTo("1536");
    assertThat(Formats.sizeLabel(3L << 30)).isEqualTo("3G");
  }

  @Test
  void shouldWriteByteCountsWithThreeSignificantDigits() {
    assertThat(Formats.bytes(640)).isEqualTo("640 B");
    assertThat(Formats.bytes(1536)).isEqualTo("1.5 KiB");
    assertThat(Formats.bytes(603_979_776L)).isEqualTo("576 MiB");
    assertThat(Formats.bytes(1_000_000)).isEqualTo("977 KiB");
  }

  @Test
  void shouldWriteSignificantDigitsWithExponentsOnlyForTinyAndHugeNumbers() {
    assertThat(Formats.significant(0.0001234, 3)).isEqualTo("1.23e-4");
    assertThat(Formats.significant(0.01234, 3)).isEqualTo("0.0123");
    assertThat(Formats.significant(12.5, 3)).isEqualTo("12.5");
    assertThat(Formats.significant(100, 3)).isEqualTo("100");
    assertThat(Formats.significant(2_500_000, 3)).isEqualTo("2.5e6");
    assertThat(Formats.significant(0, 3)).isEqualTo("0");
    assertThat(Formats.us(12.345)).isEqualTo("12.35 us");
    assertThat(Formats.percent(0.4862)).isEqualTo("48.6 %");
  }
}
