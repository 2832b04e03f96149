package io.fabemu.core.time;

import java.math.BigInteger;

/**
 * Unit conversions for virtual time (a {@code long} count of picoseconds) and link rates (bits per second).
 * Every conversion is exact integer arithmetic, rounded up, so results never depend on floating point.
 */
public final class Units {
  public static final long PS_PER_NS = 1_000L;
  public static final long PS_PER_US = 1_000_000L;
  public static final long PS_PER_MS = 1_000_000_000L;
  public static final long PS_PER_S = 1_000_000_000_000L;
  public static final long GBPS = 1_000_000_000L;

  private static final BigInteger BITS_PS = BigInteger.valueOf(8L * PS_PER_S);

  private Units() {}

  /**
   * Time to move {@code bytes} at {@code bitsPerSecond}, in picoseconds, rounded up.
   * A rate of 0 means "infinitely fast" and costs nothing.
   */
  public static long transferPs(long bytes, long bitsPerSecond) {
    if (bitsPerSecond <= 0 || bytes <= 0) {
      return 0L;
    }
    // bytes * 8e12 overflows a long beyond ~1.1 MB: use exact wide arithmetic there.
    if (bytes < 1_000_000L) {
      long numerator = bytes * 8L * PS_PER_S;
      // Rounded up without adding bitsPerSecond - 1, which overflows for rates near Long.MAX_VALUE.
      return (numerator - 1) / bitsPerSecond + 1;
    }
    BigInteger[] qr = BigInteger.valueOf(bytes).multiply(BITS_PS).divideAndRemainder(BigInteger.valueOf(bitsPerSecond));
    return qr[0].longValueExact() + (qr[1].signum() == 0 ? 0 : 1);
  }

  /** Picoseconds as microseconds, for reports. */
  public static double toMicros(long ps) {
    return ps / (double) PS_PER_US;
  }

  /** Human form of a picosecond time, e.g. {@code 1.25 us}. */
  public static String format(long ps) {
    if (ps >= PS_PER_S) return trim(ps / (double) PS_PER_S) + " s";
    if (ps >= PS_PER_MS) return trim(ps / (double) PS_PER_MS) + " ms";
    if (ps >= PS_PER_US) return trim(ps / (double) PS_PER_US) + " us";
    if (ps >= PS_PER_NS) return trim(ps / (double) PS_PER_NS) + " ns";
    return ps + " ps";
  }

  private static String trim(double v) {
    String s = String.format(java.util.Locale.ROOT, "%.3f", v);
    s = s.replaceAll("0+$", "");
    return s.endsWith(".") ? s.substring(0, s.length() - 1) : s;
  }
}
