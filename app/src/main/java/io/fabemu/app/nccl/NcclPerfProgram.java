package io.fabemu.app.nccl;

import io.fabemu.app.output.ReportFormatter;
import io.fabemu.collectives.Algorithm;
import io.fabemu.collectives.Collective;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The nccl-tests programs fabemu emulates, as the commands named after them ({@code fabemu all-reduce-perf} for
 * {@code all_reduce_perf}, ...), with nccl-tests' arithmetic for turning its sizes into the counts each rank moves.
 *
 * <p>Sizes ({@link #perRankCount}): nccl-tests' {@code -b}/{@code -e} sizes are bytes of the whole operation; its
 * {@code getCollByteCount} turns {@code count = size / wordsize} into the count each rank sends: the count itself for
 * allreduce, broadcast, reduce and send/recv; {@code (count / (4 ranks)) x 4} for allgather and reduce-scatter (whole
 * multiples of 4 elements per rank); {@code (count / ranks) & -(16 / wordsize)} for alltoall (whole 16-byte
 * multiples per peer). The table's {@code size} is then that count times the blocks
 * ({@link ReportFormatter#ncclBlocks}) times the word size, its {@code count} the per-rank count.
 */
public enum NcclPerfProgram {
  ALL_REDUCE("all-reduce-perf", "all_reduce_perf", Collective.ALLREDUCE),
  ALL_GATHER("all-gather-perf", "all_gather_perf", Collective.ALLGATHER),
  REDUCE_SCATTER("reduce-scatter-perf", "reduce_scatter_perf", Collective.REDUCE_SCATTER),
  BROADCAST("broadcast-perf", "broadcast_perf", Collective.BROADCAST),
  REDUCE("reduce-perf", "reduce_perf", Collective.REDUCE),
  ALLTOALL("alltoall-perf", "alltoall_perf", Collective.ALLTOALL),
  SENDRECV("sendrecv-perf", "sendrecv_perf", Collective.SENDRECV);

  /** nccl-tests' {@code ALIGN} of allgather and reduce-scatter: elements per rank come in whole multiples of it. */
  static final int ALIGN = 4;
  /** A number as C's {@code strtod} reads it (nccl-tests parses sizes with {@code sscanf("%lf %1s")}). */
  private static final Pattern SIZE = Pattern.compile(
      "\\s*([+-]?(?:\\d+\\.?\\d*|\\.\\d+)(?:[eE][+-]?\\d+)?)\\s*(\\S?).*", Pattern.DOTALL);

  public final String commandName;
  final String program;
  final Collective collective;

  NcclPerfProgram(String commandName, String program, Collective collective) {
    this.commandName = commandName;
    this.program = program;
    this.collective = collective;
  }

  /**
   * The algorithm the command runs when {@code --algorithm} is not given: {@code auto}, except send/recv, whose
   * {@code ring} is what {@code sendrecv_perf} does (every rank sends to the next and receives from the previous;
   * {@code auto} there is the ping-pong, which measures a round trip).
   */
  Algorithm defaultAlgorithm() {
    return this == SENDRECV ? Algorithm.RING : Algorithm.AUTO;
  }

  /** Elements each rank sends for an nccl-tests size of {@code sizeBytes} on {@code ranks} ranks (may be 0). */
  long perRankCount(long sizeBytes, int wordBytes, int ranks) {
    long count = sizeBytes / wordBytes;
    return switch (this) {
      case ALL_REDUCE, BROADCAST, REDUCE, SENDRECV -> count;
      case ALL_GATHER, REDUCE_SCATTER -> count / ((long) ALIGN * ranks) * ALIGN;
      case ALLTOALL -> count / ranks & -(16L / wordBytes);
    };
  }

  /**
   * The sizes nccl-tests runs for {@code -b min -e max} with {@code -f factor} (when above 1) or else {@code -i step}:
   * {@code min}, then multiplied by the factor or grown by the step while at most {@code max}; at most
   * {@code limit + 1} of them (the caller refuses more).
   */
  static List<Long> sizes(long minBytes, long maxBytes, long stepFactor, long stepBytes, int limit) {
    List<Long> sizes = new ArrayList<>();
    for (long size = minBytes; size <= maxBytes && sizes.size() <= limit; ) {
      sizes.add(size);
      long next = stepFactor > 1 ? size * stepFactor : size + stepBytes;
      if (next <= size || (stepFactor > 1 && next / stepFactor != size)) break; // no progress, or overflow
      size = next;
    }
    return sizes;
  }

  /**
   * nccl-tests' {@code parsesize}: a number (decimals allowed) with an optional {@code K}, {@code M} or {@code G}
   * (binary, any case) after it, truncated to whole bytes; -1 when the text is no size (a negative number, another
   * letter). As in C, anything after the unit letter is ignored ({@code 1MB} is 1 MiB).
   */
  static long parseSize(String text) {
    Matcher m = SIZE.matcher(text);
    if (!m.matches()) return -1;
    double value = Double.parseDouble(m.group(1));
    long unit = switch (m.group(2)) {
      case "" -> 1;
      case "K", "k" -> 1L << 10;
      case "M", "m" -> 1L << 20;
      case "G", "g" -> 1L << 30;
      default -> -1;
    };
    if (unit < 0 || value < 0 || Double.isNaN(value)) return -1;
    double bytes = value * unit;
    return bytes >= Long.MAX_VALUE ? Long.MAX_VALUE : (long) bytes;
  }
}
