package io.fabemu.app.osu;

import io.fabemu.cluster.scenario.ScenarioLoader;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/**
 * The message sizes of an OSU command, by OMB 7's rules: from MIN (default 1 byte, 0 for osu_latency and osu_bw) the
 * size doubles while it is at most MAX (default 1 MiB for the collectives, 4 MiB for osu_latency and osu_bw); a size
 * that holds no whole element of the datatype is skipped (OMB's {@code num_elements == 0}), but for osu_latency and
 * osu_bw 0 bytes is a size of its own: a message without payload, which still pays its headers, overheads and
 * latency (the collectives refuse a MIN of 0); for the collectives
 * OMB's memory limit ({@code -M}, default 512 MiB) caps MAX: at {@code limit / ranks} for the collectives whose
 * buffers hold a block per rank (allgather, alltoall, gather, scatter), at {@code limit} for the others.
 *
 * <p>What fabemu cannot run is refused, not approximated: a first size that is not a whole number of elements (OMB
 * would send fewer bytes than it prints), or no size at all. osu_reduce_scatter's size is the whole buffer, cut among
 * the ranks; OMB gives the first ranks one element more when it does not divide, fabemu's reduce-scatter gives every
 * rank the same count, so the sizes that do not divide into whole elements per rank are skipped with a note.
 *
 * <p>Contract: pure. {@link #plan} returns the sizes OMB prints, the workload's per-rank sizes as the scenario's
 * {@code min-size} and {@code max-size} (its doublings are exactly those sizes), and the notes to print on stderr; or
 * throws {@link Refused} with one line naming {@code -m}.
 */
final class OsuSizes {
  /** OMB's default memory limit per process ({@code MAX_MEM_LIMIT}, {@code -M}). */
  static final long DEFAULT_MEM_LIMIT_BYTES = 512L << 20;
  /** OMB's smallest memory limit ({@code MAX_MEM_LOWER_LIMIT}): a lower {@code -M} is raised to it. */
  static final long MIN_MEM_LIMIT_BYTES = 1L << 20;

  private OsuSizes() {}

  /** A size plan could not be made: one line starting with {@code -m} and its value (or its default). */
  static final class Refused extends RuntimeException {
    private static final long serialVersionUID = 1L;

    Refused(String message) {
      super(message);
    }
  }

  /**
   * The plan: {@code shownBytes} the sizes the table prints, in order; {@code minSizeBytes}..{@code maxSizeBytes} the
   * workload's per-rank sizes (every doubling); {@code notes} lines for stderr (OMB's warnings and fabemu's skips).
   */
  record Plan(List<Long> shownBytes, long minSizeBytes, long maxSizeBytes, List<String> notes) {}

  /**
   * {@code -m} as given: {@code min} and {@code max} in bytes, null where the option left them out (OMB's
   * {@code set_message_size}: {@code MAX}, {@code MIN:MAX}, {@code MIN:}, {@code :MAX}).
   */
  record Range(String text, Long min, Long max) {
    private static final Pattern FORM = Pattern.compile("(\\d+)?(:)?(\\d+)?");

    /** Parses {@code -m}'s value; a malformed one is a {@link TypeConversionException}. */
    static Range parse(String text) {
      Matcher m = FORM.matcher(text);
      boolean colon = m.matches() && m.group(2) != null;
      if (!m.matches() || (m.group(1) == null && m.group(3) == null) || (!colon && m.group(3) != null)) {
        throw new TypeConversionException("'" + text + "' is not MAX, MIN:MAX, MIN: or :MAX in bytes (e.g. "
            + "4:1048576)");
      }
      Long first = number(text, m.group(1));
      Long second = number(text, m.group(3));
      Range range = colon ? new Range(text, first, second) : new Range(text, null, first);
      return range;
    }

    private static Long number(String text, String digits) {
      if (digits == null) return null;
      try {
        return Long.parseLong(digits);
      } catch (NumberFormatException e) {
        throw new TypeConversionException("'" + text + "': " + digits + " is too large");
      }
    }

    /** picocli's converter for {@code -m}. */
    static final class Converter implements ITypeConverter<Range> {
      @Override
      public Range convert(String value) {
        return parse(value);
      }
    }
  }

  /**
   * The sizes of {@code benchmark} for {@code range} (null: OMB's defaults) on {@code ranks} ranks, with elements of
   * {@code elementBytes} named {@code typeName} (e.g. MPI_FLOAT) and OMB's memory limit {@code memLimitBytes} (null:
   * the default; ignored by osu_latency and osu_bw, which OMB does not limit).
   */
  static Plan plan(OsuBenchmark benchmark, Range range, int elementBytes, String typeName, int ranks,
                   Long memLimitBytes) {
    long min = range == null || range.min() == null ? (benchmark.pointToPoint() ? 0 : 1) : range.min();
    long max = range == null || range.max() == null ? benchmark.defaultMaxBytes() : range.max();
    String text = range == null ? "-m (default " + min + ":" + max + ")" : "-m '" + range.text() + "'";
    if (min > max) throw refused(text, "MIN " + min + " is above MAX " + max);
    if (min < 1 && !benchmark.pointToPoint()) {
      throw refused(text, "MIN must be at least 1 byte (0-byte messages: osu-latency and osu-bw only)");
    }
    if (max > ScenarioLoader.MAX_SIZE_BYTES) {
      throw refused(text, "MAX " + max + " is above the limit of " + ScenarioLoader.MAX_SIZE_BYTES + " bytes (1 GiB)");
    }
    List<String> notes = new ArrayList<>();
    String limited = "";
    if (!benchmark.pointToPoint()) {
      long limit = memLimitBytes == null ? DEFAULT_MEM_LIMIT_BYTES : memLimitBytes;
      if (limit < MIN_MEM_LIMIT_BYTES) {
        notes.add("Requested memory limit too low, using [" + MIN_MEM_LIMIT_BYTES + "] instead.");
        limit = MIN_MEM_LIMIT_BYTES;
      }
      long cap = benchmark.blockPerRank() ? limit / ranks : limit;
      if (max > cap) {
        max = cap;
        notes.add("Warning! Limiting max message size to: " + max + ". Increase -M, --mem-limit for higher message "
            + "sizes.");
        limited = " (-M limits MAX to " + max + " bytes" + (benchmark.blockPerRank() ? " on " + ranks + " ranks" : "")
            + ")";
      }
    }
    List<Long> shown = new ArrayList<>();
    for (long s = min; s <= max; s = s == 0 ? 1 : s * 2) {
      if (s == 0 || s / elementBytes > 0) shown.add(s);
    }
    if (shown.isEmpty()) {
      throw refused(text, "no size from " + min + " to " + max + " bytes holds one " + typeName + " (" + elementBytes
          + " bytes)" + limited);
    }
    long first = shown.get(0);
    if (first % elementBytes != 0) {
      throw refused(text, "the first size, " + first + " bytes, is not a whole number of " + typeName + " elements ("
          + elementBytes + " bytes each); OMB would send " + first / elementBytes * elementBytes + " bytes and print "
          + first);
    }
    if (benchmark != OsuBenchmark.REDUCE_SCATTER) {
      return new Plan(List.copyOf(shown), first, shown.get(shown.size() - 1), List.copyOf(notes));
    }
    // Reduce-scatter: the size is the whole buffer; every rank gets size / ranks.
    long perRankMultiple = (long) elementBytes * ranks;
    List<Long> runnable = shown.stream().filter(s -> s % perRankMultiple == 0).toList();
    if (runnable.isEmpty()) {
      throw refused(text, "no size from " + first + " to " + shown.get(shown.size() - 1) + " bytes divides into "
          + "whole " + typeName + " elements among " + ranks + " ranks (fabemu's reduce-scatter gives every rank the "
          + "same count)");
    }
    if (runnable.size() < shown.size()) {
      String skipped = shown.stream().filter(s -> s % perRankMultiple != 0).map(String::valueOf)
          .collect(Collectors.joining(", "));
      notes.add("fabemu: " + benchmark.commandName() + " skips " + skipped + " bytes: their " + typeName
          + " elements do not divide evenly among " + ranks + " ranks (fabemu's reduce-scatter gives every rank the "
          + "same count)");
    }
    return new Plan(runnable, runnable.get(0) / ranks, runnable.get(runnable.size() - 1) / ranks,
        List.copyOf(notes));
  }

  private static Refused refused(String option, String message) {
    return new Refused(option + ": " + message);
  }
}
