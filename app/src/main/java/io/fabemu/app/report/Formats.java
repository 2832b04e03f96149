package io.fabemu.app.report;

import java.util.Locale;

/**
 * How the report writes numbers: message sizes, byte counts, microseconds, bandwidths and axis labels.
 *
 * <p>Contract: pure functions, {@link Locale#ROOT}, no exponent in a label unless the number is below 0.001 or from
 * 10^6 up (then {@code 1e-4}, {@code 2.5e6}).
 */
public final class Formats {

  private static final String[] BINARY_SUFFIXES = {"", "K", "M", "G", "T", "P", "E"};

  private Formats() {}

  /**
   * A message size as osu and nccl tables label it on plots: {@code 0}, {@code 4}, {@code 512}, {@code 1K},
   * {@code 64K}, {@code 1M}; a size that is not a whole number of KiB (MiB, ...) in bytes.
   */
  public static String sizeLabel(long bytes) {
    int unit = 0;
    long value = bytes;
    while (value >= 1024 && value % 1024 == 0 && unit < BINARY_SUFFIXES.length - 1) {
      value /= 1024;
      unit++;
    }
    return value + BINARY_SUFFIXES[unit];
  }

  /** A byte count for people: {@code 640 B}, {@code 1.5 KiB}, {@code 12.3 MiB} (three significant digits). */
  public static String bytes(long bytes) {
    if (bytes < 1024) return bytes + " B";
    double value = bytes;
    int unit = 0;
    while (value >= 1024 && unit < BINARY_SUFFIXES.length - 1) {
      value /= 1024;
      unit++;
    }
    return significant(value, 3) + " " + BINARY_SUFFIXES[unit] + "iB";
  }

  /** Microseconds with two decimals, as the osu tables print them: {@code 12.34 us}. */
  public static String us(double micros) {
    return String.format(Locale.ROOT, "%.2f us", micros);
  }

  /** A share as a percentage with one decimal: {@code 12.5 %}. */
  public static String percent(double share) {
    return String.format(Locale.ROOT, "%.1f %%", share * 100);
  }

  /** A number with {@code digits} significant digits, trailing zeros dropped, exponent form only when huge or tiny. */
  public static String significant(double v, int digits) {
    if (v == 0 || Double.isNaN(v) || Double.isInfinite(v)) return v == 0 ? "0" : String.valueOf(v);
    double magnitude = Math.abs(v);
    if (magnitude < 1e-3 || magnitude >= 1e6) {
      String s = String.format(Locale.ROOT, "%." + (digits - 1) + "e", v);
      int e = s.indexOf('e');
      String mantissa = trimZeros(s.substring(0, e));
      return mantissa + "e" + Integer.parseInt(s.substring(e + 1));
    }
    int decimals = Math.max(0, digits - 1 - (int) Math.floor(Math.log10(magnitude)));
    return trimZeros(String.format(Locale.ROOT, "%." + decimals + "f", v));
  }

  private static String trimZeros(String s) {
    if (!s.contains(".")) return s;
    return s.replaceAll("0+$", "").replaceAll("\\.$", "");
  }
}
