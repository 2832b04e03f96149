package io.fabemu.cluster.scenario;

import com.typesafe.config.ConfigException;
import com.typesafe.config.ConfigFactory;
import com.typesafe.config.ConfigValueFactory;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.MathContext;
import java.math.RoundingMode;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Parsers for the quantities a scenario writes with units: durations ({@code 1.2 us}), rates ({@code 25 Gbps},
 * {@code 10 GBps}), byte sizes ({@code 4 KiB}) and clock frequencies ({@code 1 GHz}, read as a cycle in picoseconds).
 *
 * <p>Contract: every parse is exact. Numbers are read as {@link BigDecimal} and scaled by an integer factor, so
 * {@code 1.2 us} is exactly 1,200,000 ps; a value that is not a whole number of the base unit (picoseconds, bits per
 * second, bytes) is rejected rather than rounded. A missing or unknown unit, a negative value or one that overflows a
 * {@code long} is rejected with an {@link IllegalArgumentException} whose message is a short reason that quotes the
 * text (callers add file and key path). Units are case-sensitive because {@code Gbps} (bits) and {@code GBps} (bytes)
 * differ by a factor of eight. A clock is the one rounded quantity: its cycle, {@code 1e12 / Hz} picoseconds, is
 * rounded to the nearest picosecond, and refused when that moves it by more than {@link #MAX_CYCLE_ROUNDING}.
 */
public final class Quantities {

  /** Picoseconds per duration unit, in the order messages list them. */
  private static final Map<String, Long> DURATION_UNITS_PS = new LinkedHashMap<>();
  /** Bits per second per rate unit. */
  private static final Map<String, Long> RATE_UNITS_BITS_PER_SECOND = new LinkedHashMap<>();
  /** Hertz per frequency unit. */
  private static final Map<String, Long> FREQUENCY_UNITS_HZ = new LinkedHashMap<>();
  /** Shortest clock cycle: at 1 ps the rounding to whole picoseconds would be as large as the cycle itself. */
  public static final long MIN_CYCLE_PS = 2L;
  /** Largest relative change rounding a clock's cycle to whole picoseconds may make (0.5 %). */
  public static final BigDecimal MAX_CYCLE_ROUNDING = new BigDecimal("0.005");
  private static final BigDecimal PS_PER_SECOND = BigDecimal.valueOf(1_000_000_000_000L);

  static {
    DURATION_UNITS_PS.put("ps", 1L);
    DURATION_UNITS_PS.put("ns", 1_000L);
    DURATION_UNITS_PS.put("us", 1_000_000L);
    DURATION_UNITS_PS.put("µs", 1_000_000L);
    DURATION_UNITS_PS.put("ms", 1_000_000_000L);
    DURATION_UNITS_PS.put("s", 1_000_000_000_000L);

    String[] prefixes = {"", "K", "M", "G", "T"};
    long scale = 1L;
    for (String prefix : prefixes) {
      // Bits per second: Gbps, Gb/s (and a lower-case k for kilo, as commonly written).
      RATE_UNITS_BITS_PER_SECOND.put(prefix + "bps", scale);
      RATE_UNITS_BITS_PER_SECOND.put(prefix + "b/s", scale);
      // Bytes per second: GBps, GB/s.
      RATE_UNITS_BITS_PER_SECOND.put(prefix + "Bps", 8 * scale);
      RATE_UNITS_BITS_PER_SECOND.put(prefix + "B/s", 8 * scale);
      if (prefix.equals("K")) {
        RATE_UNITS_BITS_PER_SECOND.put("kbps", scale);
        RATE_UNITS_BITS_PER_SECOND.put("kb/s", scale);
        RATE_UNITS_BITS_PER_SECOND.put("kBps", 8 * scale);
        RATE_UNITS_BITS_PER_SECOND.put("kB/s", 8 * scale);
      }
      scale *= 1000L;
    }

    FREQUENCY_UNITS_HZ.put("Hz", 1L);
    FREQUENCY_UNITS_HZ.put("kHz", 1_000L);
    FREQUENCY_UNITS_HZ.put("MHz", 1_000_000L);
    FREQUENCY_UNITS_HZ.put("GHz", 1_000_000_000L);
    FREQUENCY_UNITS_HZ.put("THz", 1_000_000_000_000L);
  }

  private static final String DURATION_HINT = "use ps, ns, us, ms or s, e.g. '500 ns'";
  private static final String RATE_HINT = "use bps, Kbps, Mbps, Gbps, Tbps (bits/s) or Bps, KBps, MBps, GBps, "
      + "TBps (bytes/s), e.g. '25 Gbps'";
  private static final String FREQUENCY_HINT = "use Hz, kHz, MHz, GHz or THz, e.g. '1 GHz'";

  /** A number (optionally signed, decimal, with exponent) and an optional unit, spaces allowed between. */
  private static final Pattern QUANTITY = Pattern.compile(
      "\\s*([+-]?(?:\\d+(?:\\.\\d*)?|\\.\\d+)(?:[eE][+-]?\\d+)?)\\s*(\\S*)\\s*");

  private Quantities() {}

  /**
   * Parses a duration such as {@code 500 ns}, {@code 1.2 us} or {@code 0 s} into picoseconds.
   *
   * @throws IllegalArgumentException when the text has no or an unknown unit, is negative, is not a whole number of
   *                                  picoseconds, or does not fit a long
   */
  public static long parseDurationPs(String text) {
    return parse(text, DURATION_UNITS_PS, "duration", "picoseconds", DURATION_HINT);
  }

  /**
   * Parses a rate such as {@code 25 Gbps}, {@code 100 Gb/s} or {@code 12.5 GBps} into bits per second.
   *
   * @throws IllegalArgumentException when the text has no or an unknown unit, is negative, is not a whole number of
   *                                  bits per second, or does not fit a long
   */
  public static long parseBandwidthBitsPerSecond(String text) {
    return parse(text, RATE_UNITS_BITS_PER_SECOND, "bandwidth", "bits per second", RATE_HINT);
  }

  /**
   * Parses a clock frequency such as {@code 1 GHz}, {@code 500 MHz} or {@code 2.5 GHz} into its cycle in
   * picoseconds, {@code 1e12 / Hz} rounded to the nearest picosecond ({@code 2.5 GHz} is 400 ps).
   *
   * @throws IllegalArgumentException when the text has no or an unknown unit, is not greater than 0, has a cycle
   *                                  shorter than {@link #MIN_CYCLE_PS} or one that rounding moves by more than
   *                                  {@link #MAX_CYCLE_ROUNDING}, or a cycle that does not fit a long
   */
  public static long parseClockCyclePs(String text) {
    BigDecimal hz = scaled(text, FREQUENCY_UNITS_HZ, "clock frequency", FREQUENCY_HINT);
    if (hz.signum() <= 0) {
      throw new IllegalArgumentException("'" + text + "' is not a clock: a frequency must be greater than 0");
    }
    BigDecimal cyclePs;
    try {
      cyclePs = PS_PER_SECOND.divide(hz, MathContext.DECIMAL128);
    } catch (ArithmeticException e) { // an exponent beyond BigDecimal's range
      throw new IllegalArgumentException("'" + text + "' is out of range for a clock frequency");
    }
    if (cyclePs.compareTo(BigDecimal.valueOf(Long.MAX_VALUE)) > 0) {
      throw new IllegalArgumentException("'" + text + "' is too slow: its cycle does not fit a long of picoseconds");
    }
    if (cyclePs.compareTo(BigDecimal.valueOf(MIN_CYCLE_PS)) < 0) {
      throw new IllegalArgumentException("'" + text + "' has a cycle of " + fewDigits(cyclePs) + " ps, below the "
          + "shortest of " + MIN_CYCLE_PS + " ps: virtual time counts whole picoseconds, too coarse for a faster "
          + "clock");
    }
    BigInteger rounded = cyclePs.setScale(0, RoundingMode.HALF_UP).toBigIntegerExact();
    BigDecimal change = new BigDecimal(rounded).subtract(cyclePs).abs().divide(cyclePs, MathContext.DECIMAL128);
    if (change.compareTo(MAX_CYCLE_ROUNDING) > 0) {
      throw new IllegalArgumentException("'" + text + "' has a cycle of " + fewDigits(cyclePs) + " ps, which rounds "
          + "to " + rounded + " ps, " + fewDigits(change.movePointRight(2)) + " % off: virtual time counts whole "
          + "picoseconds, so a cycle must round within " + MAX_CYCLE_ROUNDING.movePointRight(2).toPlainString()
          + " % (choose a clock whose cycle is closer to a whole number of ps)");
    }
    return rounded.longValueExact();
  }

  /**
   * A duration in the largest unit of ps, ns, us, ms and s that keeps it at least 1, to four significant digits, for
   * messages: {@code 7 ns}, {@code 1.5 s}, {@code 0 ps}.
   */
  public static String formatDuration(long ps) {
    String[] units = {"s", "ms", "us", "ns"};
    long[] factors = {1_000_000_000_000L, 1_000_000_000L, 1_000_000L, 1_000L};
    for (int i = 0; i < units.length; i++) {
      if (ps >= factors[i]) {
        return fewDigits(BigDecimal.valueOf(ps).divide(BigDecimal.valueOf(factors[i]))) + " " + units[i];
      }
    }
    return ps + " ps";
  }

  /** Four significant digits without trailing zeros, for messages: {@code 3.333}, {@code 10}. */
  private static String fewDigits(BigDecimal value) {
    return value.round(new MathContext(4)).stripTrailingZeros().toPlainString();
  }

  /**
   * Parses a byte size the way HOCON does ({@code Config.getBytes}): {@code 4 B}, {@code 4 KiB} or {@code 4 K}
   * (1024), {@code 4 kB} (1000), {@code 1 MiB}, {@code 1 MB}, ..., and a bare number means bytes.
   *
   * @throws IllegalArgumentException when the text is not a size or is negative
   */
  public static long parseSizeBytes(String text) {
    requireAsciiDigits(text);
    long bytes;
    try {
      bytes = ConfigFactory.empty().withValue("size", ConfigValueFactory.fromAnyRef(text)).getBytes("size");
    } catch (ConfigException e) {
      throw new IllegalArgumentException("'" + text + "' is not a byte size (write e.g. '4 B', '64 KiB', '1 MiB')");
    }
    if (bytes < 0) {
      throw new IllegalArgumentException("'" + text + "' is negative");
    }
    return bytes;
  }

  /** A byte count in the largest binary unit that divides it exactly: {@code 4 B}, {@code 64 KiB}, {@code 1 MiB}. */
  public static String formatBytes(long bytes) {
    String[] units = {"B", "KiB", "MiB", "GiB", "TiB"};
    long value = bytes;
    int unit = 0;
    while (unit < units.length - 1 && value != 0 && value % 1024 == 0) {
      value /= 1024;
      unit++;
    }
    return value + " " + units[unit];
  }

  private static long parse(String text, Map<String, Long> units, String what, String baseUnit, String hint) {
    BigDecimal value = scaled(text, units, what, hint);
    if (value.signum() < 0) {
      throw new IllegalArgumentException("'" + text + "' is negative");
    }
    BigInteger whole;
    try {
      whole = value.toBigIntegerExact();
    } catch (ArithmeticException e) {
      throw new IllegalArgumentException("'" + text + "' is not a whole number of " + baseUnit);
    }
    if (whole.bitLength() > 63) {
      throw new IllegalArgumentException("'" + text + "' is too large");
    }
    return whole.longValueExact();
  }

  /**
   * Refuses a digit outside ASCII 0-9 (Arabic-Indic, full-width, ...): Java's number parsers read them as numbers,
   * HOCON's do not, so such a value would mean one thing here and another to every other tool.
   *
   * @throws IllegalArgumentException naming the first such digit
   */
  public static void requireAsciiDigits(String text) {
    for (int i = 0; i < text.length(); ) {
      int c = text.codePointAt(i);
      if (Character.isDigit(c) && (c < '0' || c > '9')) {
        throw new IllegalArgumentException("'" + text + "' holds the digit '" + new String(Character.toChars(c))
            + "' (U+" + String.format("%04X", c) + "): write numbers with the ASCII digits 0-9");
      }
      i += Character.charCount(c);
    }
  }

  /** The number of {@code text} times its unit's factor in {@code units}; refuses a missing or unknown unit. */
  private static BigDecimal scaled(String text, Map<String, Long> units, String what, String hint) {
    requireAsciiDigits(text);
    Matcher m = QUANTITY.matcher(text);
    if (!m.matches()) {
      throw new IllegalArgumentException("'" + text + "' is not a " + what + " (" + hint + ")");
    }
    String unit = m.group(2);
    if (unit.isEmpty()) {
      throw new IllegalArgumentException("'" + text + "' has no unit (" + hint + ")");
    }
    Long factor = units.get(unit);
    if (factor == null) {
      String suggestion = Suggestions.closest(unit, units.keySet())
          .map(s -> ", did you mean '" + s + "'?").orElse("");
      throw new IllegalArgumentException("'" + text + "' has an unknown unit '" + unit + "' (" + hint + suggestion
          + ")");
    }
    return new BigDecimal(m.group(1)).multiply(BigDecimal.valueOf(factor));
  }
}
