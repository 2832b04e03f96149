package io.fabemu.app.output;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** C's printf conversions, rounding the exact binary value ties to even, as glibc does. */
class CNumbersTest {

  @Test
  void shouldRoundTheExactBinaryValueWhenFixed() {
    assertThat(CNumbers.fixed(2.675, 2)).isEqualTo("2.67"); // 2.67499999... in binary
    assertThat(CNumbers.fixed(0.125, 2)).isEqualTo("0.12"); // an exact tie: to even
    assertThat(CNumbers.fixed(0.375, 2)).isEqualTo("0.38");
    assertThat(CNumbers.fixed(250, 2)).isEqualTo("250.00");
    assertThat(CNumbers.fixed(1_636.48, 0)).isEqualTo("1636");
    assertThat(CNumbers.fixed(0, 6)).isEqualTo("0.000000");
    assertThat(CNumbers.fixed(-0.0, 1)).isEqualTo("0.0");
  }

  @Test
  void shouldWriteMantissaAndTwoDigitExponentWhenExponent() {
    assertThat(CNumbers.exponent(123_456_789, 1)).isEqualTo("1.2e+08");
    assertThat(CNumbers.exponent(9.96e9, 1)).isEqualTo("1.0e+10");
    assertThat(CNumbers.exponent(0.000123, 2)).isEqualTo("1.23e-04");
    assertThat(CNumbers.exponent(5e123, 0)).isEqualTo("5e+123");
    assertThat(CNumbers.exponent(0, 1)).isEqualTo("0.0e+00");
  }

  @Test
  void shouldKeepSixSignificantDigitsAndDropTrailingZerosWhenG() {
    assertThat(CNumbers.g(0)).isEqualTo("0");
    assertThat(CNumbers.g(3)).isEqualTo("3");
    assertThat(CNumbers.g(1.234)).isEqualTo("1.234");
    assertThat(CNumbers.g(12.3456789)).isEqualTo("12.3457");
    assertThat(CNumbers.g(0.236973_4)).isEqualTo("0.236973");
    assertThat(CNumbers.g(999_999.5)).isEqualTo("1e+06");
    assertThat(CNumbers.g(1_234_567)).isEqualTo("1.23457e+06");
    assertThat(CNumbers.g(0.0001)).isEqualTo("0.0001");
    assertThat(CNumbers.g(0.00001)).isEqualTo("1e-05");
    assertThat(CNumbers.padLeft(CNumbers.g(42), 6)).isEqualTo("    42");
  }

  @Test
  void shouldRefuseNonFiniteNumbers() {
    assertThatThrownBy(() -> CNumbers.g(Double.NaN)).isInstanceOf(IllegalArgumentException.class);
  }
}
