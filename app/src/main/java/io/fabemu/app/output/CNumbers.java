package io.fabemu.app.output;

import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;

/**
 * Numbers written as C's {@code printf} writes them, for the reports that copy a C tool's layout (nccl-tests):
 * {@code %.Nf}, {@code %.Ne} and {@code %g}. C rounds the exact binary value of the double, ties to even (glibc), which
 * {@link String#format} does not (it rounds a shorter decimal form half up, e.g. 2.675 to 2.68 where C prints 2.67),
 * so every conversion here goes through the exact {@link BigDecimal} of the double.
 *
 * <p>Contract: pure functions; finite values only (reports never hold NaN or infinities: a zero time gives a zero
 * bandwidth upstream); {@code -0.0} prints as {@code 0}.
 */
public final class CNumbers {
  private CNumbers() {}

  /** C's {@code %.Nf}. */
  public static String fixed(double value, int decimals) {
    return exact(value).setScale(decimals, RoundingMode.HALF_EVEN).toPlainString();
  }

  /** C's {@code %.Ne}: one digit, the point and {@code decimals} digits, then {@code e}, a sign and 2+ digits. */
  public static String exponent(double value, int decimals) {
    BigDecimal v = exact(value);
    if (v.signum() == 0) {
      return (decimals == 0 ? "0" : "0." + "0".repeat(decimals)) + "e+00";
    }
    BigDecimal rounded = v.round(new MathContext(decimals + 1, RoundingMode.HALF_EVEN));
    int exp = rounded.precision() - rounded.scale() - 1;
    BigDecimal mantissa = rounded.movePointLeft(exp).setScale(decimals, RoundingMode.UNNECESSARY);
    return mantissa.toPlainString() + "e" + (exp < 0 ? "-" : "+") + (Math.abs(exp) < 10 ? "0" : "") + Math.abs(exp);
  }

  /**
   * C's {@code %g} (precision 6): {@code %e} when the exponent X of the value rounded to 6 significant digits is
   * below -4 or at least 6, else {@code %f} with {@code 5 - X} decimals; trailing zeros and a trailing point removed.
   */
  public static String g(double value) {
    BigDecimal v = exact(value);
    if (v.signum() == 0) return "0";
    BigDecimal rounded = v.round(new MathContext(6, RoundingMode.HALF_EVEN));
    int exp = rounded.precision() - rounded.scale() - 1;
    if (exp < -4 || exp >= 6) {
      String e = exponent(value, 5);
      int at = e.indexOf('e');
      return stripZeros(e.substring(0, at)) + e.substring(at);
    }
    return stripZeros(fixed(value, 5 - exp));
  }

  /** {@code s} right-aligned in {@code width} characters (C's {@code %*s}; longer strings are not cut). */
  public static String padLeft(String s, int width) {
    return s.length() >= width ? s : " ".repeat(width - s.length()) + s;
  }

  /** {@code s} followed by spaces up to {@code width} characters (C's {@code "%-*s"}); longer strings unchanged. */
  public static String padRight(String s, int width) {
    return s.length() >= width ? s : s + " ".repeat(width - s.length());
  }

  private static BigDecimal exact(double value) {
    if (!Double.isFinite(value)) {
      throw new IllegalArgumentException("not a finite number: " + value);
    }
    return value == 0 ? BigDecimal.ZERO : new BigDecimal(value);
  }

  private static String stripZeros(String s) {
    if (s.indexOf('.') < 0) return s;
    String t = s.replaceAll("0+$", "");
    return t.endsWith(".") ? t.substring(0, t.length() - 1) : t;
  }
}
