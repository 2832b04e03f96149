package io.fabemu.cluster.scenario;

import com.typesafe.config.ConfigException;
import com.typesafe.config.ConfigFactory;
import com.typesafe.config.ConfigValueFactory;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Parsers for the quantities a scenario writes with units: durations ({@code 1.2 us}), rates ({@code 25 Gbps},
 * {@code 10 GBps}) and byte sizes ({@code 4 KiB}).
 *
 * <p>Contract: every parse is exact. Numbers are read as {@link BigDecimal} and scaled by an integer factor, so
 * {@code 1.2 us} is exactly 1,200,000 ps; a value that is not a whole number of the base unit (picoseconds, bits per
 * second, bytes) is rejected rather than rounded. A missing or unknown unit, a negative value or one that overflows a
 * {@code long} is rejected with an {@link IllegalArgumentException} whose message is a short reason that quotes the
 * text (callers add file and key path). Units are case-sensitive because {@code Gbps} (bits) and {@code GBps} (bytes)
 * differ by a factor of eight.
 */
public final class Quantities {

  /** Picoseconds per duration unit, in the order messages list them. */
  private static final Map<String, Long> DURATION_UNITS_PS = new LinkedHashMap<>();
  /** Bits per second per rate unit. */
  private static final Map<String, Long> RATE_UNITS_BITS_PER_SECOND = new LinkedHashMap<>();

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
  }

  private static final String DURATION_HINT = "use ps, ns, us, ms or s, e.g. '500 ns'";
  private static final String RATE_HINT = "use bps, Kbps, Mbps, Gbps, Tbps (bits/s) or Bps, KBps, MBps, GBps, "
      + "TBps (bytes/s), e.g. '25 Gbps'";

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
   * Parses a byte size the way HOCON does ({@code Config.getBytes}): {@code 4 B}, {@code 4 KiB} or {@code 4 K}
   * (1024), {@code 4 kB} (1000), {@code 1 MiB}, {@code 1 MB}, ..., and a bare number means bytes.
   *
   * @throws IllegalArgumentException when the text is not a size or is negative
   */
  public static long parseSizeBytes(String text) {
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
    BigDecimal value = new BigDecimal(m.group(1)).multiply(BigDecimal.valueOf(factor));
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
}
