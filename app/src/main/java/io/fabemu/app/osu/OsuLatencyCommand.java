package io.fabemu.app.osu;

import io.fabemu.app.CommandPipeline;
import picocli.CommandLine.Command;

/**
 * {@code fabemu osu-latency --profile FILE [--nodes N --ppn P] [-m MIN:MAX] [-i ITER] [-x WARMUP] [-c] [-z[P,...]]
 * [-T TYPE] [H H] ...}: OSU Micro-Benchmarks 7.5 {@code osu_latency}, an {@link OsuPointToPointCommand}: fabemu's
 * send/recv {@code ping-pong} between rank 0 and rank 1; the latency printed is half the round trip measured at rank
 * 0, as OMB prints it.
 */
@Command(name = "osu-latency", mixinStandardHelpOptions = true, sortOptions = false,
    description = {"Run osu_latency (OSU Micro-Benchmarks 7.5) on an emulated cluster described by a profile, and "
        + "print its table.", "Sizes are bytes of MPI_FLOAT data; the latency is half the round trip of a ping-pong "
        + "between two processes, in virtual microseconds."})
public final class OsuLatencyCommand extends OsuPointToPointCommand {

  public OsuLatencyCommand(CommandPipeline pipeline) {
    super(pipeline);
  }

  @Override
  OsuBenchmark benchmark() {
    return OsuBenchmark.LATENCY;
  }
}
