package io.fabemu.app.report;

import java.util.ArrayList;
import java.util.List;

/**
 * One axis of a chart: where a data value falls along it (a fraction from 0 at the start to 1 at the end) and its
 * labelled ticks. Four kinds: linear with "nice" ticks (1, 2 or 5 times a power of ten), log10 (a tick per decade,
 * with 2 and 5 between when it spans at most two decades), log2 of message sizes (a tick per power of two, thinned
 * to at most {@value #MAX_LOG2_TICKS}, labelled {@code 4}, {@code 1K}, {@code 1M}) and categories (one slot per
 * label).
 *
 * <p>Contract: immutable; the range always covers the data given and is never empty; a log axis takes only values
 * above 0 ({@link #fraction} refuses others, and {@link #auto} picks linear when a value is 0 or less).
 */
public final class Axis {

  /** The most ticks a log2 axis shows. */
  static final int MAX_LOG2_TICKS = 12;

  /** How values are spaced. */
  public enum Kind { LINEAR, LOG10, LOG2, CATEGORY }

  /** A tick: its value on the axis and its label. */
  public record Tick(double value, String label) {}

  private final String title;
  private final Kind kind;
  private final double min;
  private final double max;
  private final List<Tick> ticks;

  private Axis(String title, Kind kind, double min, double max, List<Tick> ticks) {
    this.title = title;
    this.kind = kind;
    this.min = min;
    this.max = max;
    this.ticks = List.copyOf(ticks);
  }

  /**
   * A linear axis over {@code [low, high]} widened to whole ticks; from 0 when {@code fromZero} and no value is
   * negative.
   */
  public static Axis linear(String title, double low, double high, boolean fromZero) {
    if (fromZero && low >= 0) low = 0;
    if (low == high) {
      double pad = low == 0 ? 1 : Math.abs(low) * 0.1;
      low = fromZero && low >= 0 ? Math.max(0, low - pad) : low - pad;
      high = high + pad;
    }
    double step = niceStep((high - low) / 5);
    double start = Math.floor(low / step + 1e-9) * step;
    double end = Math.ceil(high / step - 1e-9) * step;
    int decimals = Math.max(0, -(int) Math.floor(Math.log10(step) + 1e-9));
    List<Tick> ticks = new ArrayList<>();
    for (long i = 0; ; i++) {
      double v = start + i * step;
      if (v > end + step * 1e-6) break;
      ticks.add(new Tick(v, String.format(java.util.Locale.ROOT, "%." + decimals + "f", v + 0.0)));
    }
    return new Axis(title, Kind.LINEAR, start, end, ticks);
  }

  /** A log10 axis over whole decades covering {@code [low, high]}; both above 0. */
  public static Axis log10(String title, double low, double high) {
    requirePositive(low, high);
    int first = (int) Math.floor(Math.log10(low) + 1e-9);
    int last = (int) Math.ceil(Math.log10(high) - 1e-9);
    if (last == first) last++;
    List<Tick> ticks = new ArrayList<>();
    for (int e = first; e <= last; e++) {
      double decade = Math.pow(10, e);
      ticks.add(new Tick(decade, Formats.significant(decade, 1)));
      if (last - first <= 2 && e < last) {
        ticks.add(new Tick(2 * decade, Formats.significant(2 * decade, 1)));
        ticks.add(new Tick(5 * decade, Formats.significant(5 * decade, 1)));
      }
    }
    return new Axis(title, Kind.LOG10, Math.pow(10, first), Math.pow(10, last), ticks);
  }

  /** A log2 axis of message sizes in bytes over whole powers of two covering {@code [low, high]}; both above 0. */
  public static Axis log2Bytes(String title, double low, double high) {
    requirePositive(low, high);
    int first = (int) Math.floor(Math.log(low) / Math.log(2) + 1e-9);
    int last = (int) Math.ceil(Math.log(high) / Math.log(2) - 1e-9);
    if (last == first) last++;
    int every = (last - first) / MAX_LOG2_TICKS + 1;
    List<Tick> ticks = new ArrayList<>();
    for (int e = first; e <= last; e++) {
      if (Math.floorMod(e, every) != 0) continue;
      double v = Math.pow(2, e);
      ticks.add(new Tick(v, e >= 0 && e < 63 ? Formats.sizeLabel(1L << e) : Formats.significant(v, 3)));
    }
    return new Axis(title, Kind.LOG2, Math.pow(2, first), Math.pow(2, last), ticks);
  }

  /**
   * Message sizes in bytes titled {@code "message size (bytes, log2)"} on a {@link #log2Bytes log2 axis}, or
   * {@code "message size (bytes)"} on a linear one from 0 when a size is 0 (a barrier's); no size: 1 B.
   */
  public static Axis messageSizes(List<Double> sizes) {
    double low = sizes.stream().mapToDouble(Double::doubleValue).min().orElse(1);
    double high = sizes.stream().mapToDouble(Double::doubleValue).max().orElse(1);
    if (low > 0) return log2Bytes("message size (bytes, log2)", low, high);
    return linear("message size (bytes)", low, high, true);
  }

  /** A category axis: label {@code i} at value {@code i}, each in the middle of its slot. */
  public static Axis categories(String title, List<String> labels) {
    List<Tick> ticks = new ArrayList<>();
    for (int i = 0; i < labels.size(); i++) ticks.add(new Tick(i, labels.get(i)));
    return new Axis(title, Kind.CATEGORY, 0, Math.max(0, labels.size() - 1), ticks);
  }

  /**
   * The axis for {@code values}: log10 when every value is above 0 and the largest is more than 10 times the
   * smallest, else linear from 0. The title gets {@code ", log"} for a log axis. No value: linear 0 to 1.
   */
  public static Axis auto(String title, List<Double> values) {
    return auto(title, values, true);
  }

  /** {@link #auto(String, List)}, the linear axis starting from 0 only when {@code fromZero}. */
  public static Axis auto(String title, List<Double> values, boolean fromZero) {
    double low = values.stream().filter(Double::isFinite).mapToDouble(Double::doubleValue).min().orElse(0);
    double high = values.stream().filter(Double::isFinite).mapToDouble(Double::doubleValue).max().orElse(1);
    if (low > 0 && high > 10 * low) return log10(title + ", log", low, high);
    return linear(title, low, high, fromZero);
  }

  /** Where {@code value} falls: 0 at the start of the axis, 1 at its end (a category: the middle of its slot). */
  public double fraction(double value) {
    return switch (kind) {
      case LINEAR -> (value - min) / (max - min);
      case LOG10, LOG2 -> {
        if (value <= 0) throw new IllegalArgumentException(value + " cannot be placed on a log axis");
        yield Math.log(value / min) / Math.log(max / min);
      }
      case CATEGORY -> (value + 0.5) / (ticks.size() == 0 ? 1 : ticks.size());
    };
  }

  /** True when {@code value} can be placed: any finite number on a linear axis, above 0 on a log axis. */
  public boolean accepts(double value) {
    if (Double.isNaN(value) || Double.isInfinite(value)) return false;
    return (kind != Kind.LOG10 && kind != Kind.LOG2) || value > 0;
  }

  public String title() {
    return title;
  }

  public Kind kind() {
    return kind;
  }

  public double min() {
    return min;
  }

  public double max() {
    return max;
  }

  public List<Tick> ticks() {
    return ticks;
  }

  /** 1, 2 or 5 times a power of ten, at least {@code rough}. */
  static double niceStep(double rough) {
    double power = Math.pow(10, Math.floor(Math.log10(rough)));
    for (double m : new double[] {1, 2, 5, 10}) {
      if (m * power >= rough * (1 - 1e-9)) return m * power;
    }
    return 10 * power;
  }

  private static void requirePositive(double low, double high) {
    if (!(low > 0) || !(high > 0)) {
      throw new IllegalArgumentException("a log axis needs values above 0, not " + low + " to " + high);
    }
  }
}
