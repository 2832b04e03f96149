package io.fabemu.app.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import org.junit.jupiter.api.Test;

class AxisTest {

  private static List<String> labels(Axis axis) {
    return axis.ticks().stream().map(Axis.Tick::label).toList();
  }

  @Test
  void shouldPutATickOnEveryPowerOfTwoWhenSizesSpanFewOfThem() {
    Axis axis = Axis.log2Bytes("size", 4, 64);

    assertThat(labels(axis)).containsExactly("4", "8", "16", "32", "64");
    assertThat(axis.fraction(4)).isEqualTo(0.0);
    assertThat(axis.fraction(16)).isCloseTo(0.5, within(1e-12));
    assertThat(axis.fraction(64)).isCloseTo(1.0, within(1e-12));
  }

  @Test
  void shouldThinPowerOfTwoTicksToAtMostTwelve() {
    Axis axis = Axis.log2Bytes("size", 4, 1 << 20);

    assertThat(labels(axis)).containsExactly("4", "16", "64", "256", "1K", "4K", "16K", "64K", "256K", "1M");
    assertThat(Axis.log2Bytes("size", 1, 1L << 40).ticks()).hasSizeLessThanOrEqualTo(Axis.MAX_LOG2_TICKS);
  }

  @Test
  void shouldCoverWholeDecadesWithTwoAndFiveBetweenWhenTheSpanIsShort() {
    Axis wide = Axis.log10("us", 15, 1800);
    assertThat(labels(wide)).containsExactly("10", "100", "1000", "10000");

    Axis narrow = Axis.log10("us", 15, 90);
    assertThat(labels(narrow)).containsExactly("10", "20", "50", "100");
    assertThat(narrow.fraction(10)).isEqualTo(0.0);
    assertThat(narrow.fraction(100)).isCloseTo(1.0, within(1e-12));
  }

  @Test
  void shouldPickNiceLinearTicksFromZero() {
    Axis axis = Axis.linear("GB/s", 0.12, 0.57, true);

    assertThat(labels(axis)).containsExactly("0.0", "0.2", "0.4", "0.6");
    assertThat(axis.fraction(0.3)).isCloseTo(0.5, within(1e-12));
    assertThat(labels(Axis.linear("hosts", 8, 16, false))).containsExactly("8", "10", "12", "14", "16");
  }

  @Test
  void shouldWidenAnEmptyLinearRange() {
    Axis axis = Axis.linear("x", 5, 5, false);

    assertThat(axis.min()).isLessThan(5);
    assertThat(axis.max()).isGreaterThan(5);
  }

  @Test
  void shouldChooseLogOnlyForPositiveValuesSpanningMoreThanTenTimes() {
    assertThat(Axis.auto("latency", List.of(2.0, 30.0)).kind()).isEqualTo(Axis.Kind.LOG10);
    assertThat(Axis.auto("latency", List.of(2.0, 30.0)).title()).isEqualTo("latency, log");
    assertThat(Axis.auto("latency", List.of(2.0, 19.0)).kind()).isEqualTo(Axis.Kind.LINEAR);
    assertThat(Axis.auto("busbw", List.of(0.0, 30.0)).kind()).isEqualTo(Axis.Kind.LINEAR);
    assertThat(Axis.auto("none", List.of()).kind()).isEqualTo(Axis.Kind.LINEAR);
  }

  @Test
  void shouldPlaceCategoriesInTheMiddleOfTheirSlots() {
    Axis axis = Axis.categories("point", List.of("a", "b", "c", "d"));

    assertThat(axis.fraction(0)).isEqualTo(0.125);
    assertThat(axis.fraction(3)).isEqualTo(0.875);
    assertThat(labels(axis)).containsExactly("a", "b", "c", "d");
  }

  @Test
  void shouldRefuseValuesALogAxisCannotPlace() {
    Axis axis = Axis.log10("us", 1, 10);

    assertThat(axis.accepts(0)).isFalse();
    assertThat(axis.accepts(Double.NaN)).isFalse();
    assertThat(axis.accepts(3)).isTrue();
    assertThatThrownBy(() -> axis.fraction(0)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> Axis.log2Bytes("size", 0, 8)).isInstanceOf(IllegalArgumentException.class);
  }
}
