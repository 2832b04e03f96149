package io.fabemu.app.osu;

import io.fabemu.collectives.Algorithm;
import io.fabemu.collectives.Collective;

/**
 * The OSU Micro-Benchmarks programs fabemu emulates, with what their output depends on: the test name of the first
 * line ({@code # OSU MPI Allreduce Latency Test v7.5}), whether a row starts with the message size and whether the
 * table has a {@code # Datatype:} line (osu_barrier has neither), whether the figure is a latency or a bandwidth, and
 * OMB's default message sizes and iterations.
 *
 * <p>Contract: {@link #of} maps every (collective, algorithm) of a scenario to the one program that measures it:
 * send/recv {@link Algorithm#WINDOW} is osu_bw, any other send/recv osu_latency.
 */
public enum OsuBenchmark {
  ALLREDUCE("osu_allreduce", "Allreduce Latency Test", Collective.ALLREDUCE),
  BCAST("osu_bcast", "Broadcast Latency Test", Collective.BROADCAST),
  REDUCE("osu_reduce", "Reduce Latency Test", Collective.REDUCE),
  ALLGATHER("osu_allgather", "Allgather Latency Test", Collective.ALLGATHER),
  ALLTOALL("osu_alltoall", "All-to-All Personalized Exchange Latency Test", Collective.ALLTOALL),
  REDUCE_SCATTER("osu_reduce_scatter", "Reduce_scatter Latency Test", Collective.REDUCE_SCATTER),
  GATHER("osu_gather", "Gather Latency Test", Collective.GATHER),
  SCATTER("osu_scatter", "Scatter Latency Test", Collective.SCATTER),
  BARRIER("osu_barrier", "Barrier Latency Test", Collective.BARRIER),
  LATENCY("osu_latency", "Latency Test", Collective.SENDRECV),
  BW("osu_bw", "Bandwidth Test", Collective.SENDRECV);

  /** The OMB release whose output fabemu reproduces; the first line of every table names it. */
  static final String OMB_VERSION = "7.5";
  /** OMB's largest default message of the collectives ({@code MAX_MSG_SIZE_COLL}). */
  static final long COLLECTIVE_MAX_BYTES = 1L << 20;
  /** OMB's largest default message of the point-to-point programs ({@code MAX_MESSAGE_SIZE}). */
  static final long POINT_TO_POINT_MAX_BYTES = 1L << 22;

  private final String program;
  private final String testName;
  private final Collective collective;

  OsuBenchmark(String program, String testName, Collective collective) {
    this.program = program;
    this.testName = testName;
    this.collective = collective;
  }

  /** The OMB program: {@code osu_allreduce}, {@code osu_bw}, ... */
  String program() {
    return program;
  }

  /** The fabemu command: the program with dashes, {@code osu-allreduce}, {@code osu-reduce-scatter}, ... */
  public String commandName() {
    return program.replace('_', '-');
  }

  /** The first line of the table (without its newline): {@code # OSU MPI Allreduce Latency Test v7.5}. */
  String title() {
    return "# OSU MPI " + testName + " v" + OMB_VERSION;
  }

  Collective collective() {
    return collective;
  }

  /** The algorithm this program runs when the command sets none: the send/recv pattern, else {@code auto}. */
  Algorithm defaultAlgorithm() {
    return switch (this) {
      case LATENCY -> Algorithm.PING_PONG;
      case BW -> Algorithm.WINDOW;
      default -> Algorithm.AUTO;
    };
  }

  /** True for osu_latency and osu_bw: exactly two processes. */
  boolean pointToPoint() {
    return collective == Collective.SENDRECV;
  }

  /** True when the figure is a bandwidth in MB/s (osu_bw), false for a latency in microseconds. */
  boolean bandwidth() {
    return this == BW;
  }

  /** False for osu_barrier, whose rows are the latencies alone (OMB sets {@code show_size = 0}). */
  boolean showsSize() {
    return this != BARRIER;
  }

  /** False for osu_barrier, which moves no data and prints no {@code # Datatype:} line. */
  boolean printsDatatype() {
    return this != BARRIER;
  }

  /** True for the collectives whose buffers hold one block per rank, which OMB's {@code -M} limit divides by ranks. */
  boolean blockPerRank() {
    return this == ALLGATHER || this == ALLTOALL || this == GATHER || this == SCATTER;
  }

  /** OMB's default largest message: 1 MiB for the collectives, 4 MiB for osu_latency and osu_bw. */
  long defaultMaxBytes() {
    return pointToPoint() ? POINT_TO_POINT_MAX_BYTES : COLLECTIVE_MAX_BYTES;
  }

  /**
   * True when an OSU program measures {@code algorithm} of {@code collective}: every collective OMB has, and for
   * send/recv the ping-pong (osu_latency; {@code auto} runs it) and the window (osu_bw) but not the ring, whose
   * exchange on every rank at once is nccl-tests' sendrecv_perf, not an OMB figure; no OSU program runs a pipeline.
   */
  static boolean measures(Collective collective, Algorithm algorithm) {
    return collective != Collective.PIPELINE && (collective != Collective.SENDRECV || algorithm != Algorithm.RING);
  }

  /**
   * The program that measures {@code collective} run with {@code algorithm} as the workload asks for it: send/recv
   * {@code window} is osu_bw, any other send/recv (ping-pong, or auto, which picks it) osu_latency.
   */
  static OsuBenchmark of(Collective collective, Algorithm algorithm) {
    if (!measures(collective, algorithm)) {
      throw new IllegalArgumentException("no OSU program measures " + collective.configName() + " "
          + algorithm.configName());
    }
    if (collective == Collective.SENDRECV) return algorithm == Algorithm.WINDOW ? BW : LATENCY;
    for (OsuBenchmark b : values()) {
      if (b.collective == collective) return b;
    }
    throw new IllegalArgumentException("no OSU program measures " + collective.configName());
  }
}
