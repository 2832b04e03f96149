package io.fabemu.app.osu;

import io.fabemu.core.data.DataType;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import picocli.CommandLine.Option;

/**
 * The options some OSU commands take and others do not, as picocli mixins (each command lists exactly the options
 * its OMB program accepts), and the parsing of the option values that OMB gives a meaning of its own.
 *
 * <p>Contract: the parsers are pure and throw {@link IllegalArgumentException} with the option, its value and the
 * reason in one line; the commands turn it into a usage error (exit code 2).
 */
final class OsuOptions {
  /** The names {@code -T} takes in OMB 7 ({@code MPI_CHAR}, {@code MPI_INT}, {@code MPI_FLOAT}, {@code ALL}). */
  static final String OMB_TYPE_NAMES = "MPI_CHAR, MPI_INT, MPI_FLOAT, ALL";

  private OsuOptions() {}

  /** {@code --nodes N --ppn P}, both required (the collectives). */
  static final class RequiredWorld {
    @Option(names = "--nodes", required = true, paramLabel = "N", description = "Compute nodes (topology.hosts).")
    int nodes;

    @Option(names = "--ppn", required = true, paramLabel = "P", description = "MPI processes per node.")
    int ppn;
  }

  /** {@code --nodes N --ppn P} of osu_latency and osu_bw: two processes, by default one on each of two nodes. */
  static final class PairWorld {
    @Option(names = "--nodes", paramLabel = "N", defaultValue = "2",
        description = "Compute nodes (topology.hosts; default ${DEFAULT-VALUE}); nodes x ppn must be 2.")
    int nodes;

    @Option(names = "--ppn", paramLabel = "P", defaultValue = "1",
        description = "MPI processes per node (default ${DEFAULT-VALUE}; --nodes 1 --ppn 2: both on one node).")
    int ppn;
  }

  /** {@code -f}: min, max and iterations too (the collectives). */
  static final class Full {
    @Option(names = {"-f", "--full"},
        description = "Print full format listing (min and max latency and iterations in addition to the average).")
    boolean full;
  }

  /** {@code -c}: the validation column. */
  static final class Validation {
    @Option(names = {"-c", "--validation"}, description = "Print a Validation column: Pass when every output element "
        + "of every iteration equals the exact answer, else Fail (fabemu checks every element anyway).")
    boolean validation;
  }

  /** {@code -T}: the MPI datatype. */
  static final class Type {
    @Option(names = {"-T", "--type"}, paramLabel = "TYPE",
        description = "MPI datatype: MPI_FLOAT (default), MPI_INT or MPI_CHAR (a signed byte). ALL is refused: one "
            + "datatype per run.")
    String type;
  }

  /** {@code -M}: OMB's memory limit per process, which caps the largest message of the collectives. */
  static final class MemLimit {
    @Option(names = {"-M", "--mem-limit"}, paramLabel = "SIZE",
        description = "Per-process memory limit in bytes (default 536870912): caps MAX at SIZE / ranks for "
            + "allgather, alltoall, gather and scatter, at SIZE for the others, as OMB does.")
    Long bytes;
  }

  /**
   * The data type of {@code -T}'s value, as OMB matches it (case-insensitive): MPI_FLOAT is float32, MPI_INT int32,
   * MPI_CHAR int8 (C's char, signed, wrapping as in C); null stays null (the default).
   */
  static DataType dataType(String value) {
    if (value == null) return null;
    String name = value.toUpperCase(Locale.ROOT);
    return switch (name) {
      case "MPI_FLOAT" -> DataType.FLOAT32;
      case "MPI_INT" -> DataType.INT32;
      case "MPI_CHAR" -> DataType.INT8;
      case "ALL" -> throw new IllegalArgumentException("-T " + value + ": fabemu prints one table per run; run once "
          + "per type (MPI_CHAR, MPI_INT, MPI_FLOAT)");
      default -> throw new IllegalArgumentException("-T '" + value + "' is not one of " + OMB_TYPE_NAMES);
    };
  }

  /**
   * The percentiles of {@code -z}'s value (comma-separated, as OMB splits it), at most
   * {@value OsuFormatter#MAX_PERCENTILES}, each 0 to 100; null (no {@code -z}) is none.
   */
  static List<Integer> percentiles(String value) {
    if (value == null) return List.of();
    List<Integer> out = new ArrayList<>();
    for (String part : value.split(",", -1)) {
      int p;
      try {
        p = Integer.parseInt(part.strip());
      } catch (NumberFormatException e) {
        throw new IllegalArgumentException("-z '" + value + "': expected percentiles such as 50,90,99");
      }
      if (p < 0 || p > 100) {
        throw new IllegalArgumentException("-z '" + value + "': percentile range must be in between 0 and 100");
      }
      out.add(p);
    }
    if (out.size() > OsuFormatter.MAX_PERCENTILES) {
      throw new IllegalArgumentException("-z '" + value + "': at most " + OsuFormatter.MAX_PERCENTILES
          + " percentiles, as OMB keeps");
    }
    return List.copyOf(out);
  }
}
