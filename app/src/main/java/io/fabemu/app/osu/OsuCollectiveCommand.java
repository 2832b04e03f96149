package io.fabemu.app.osu;

import io.fabemu.app.CommandPipeline;
import io.fabemu.collectives.Algorithm;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine;

/**
 * {@code fabemu osu-bcast}, {@code osu-reduce}, {@code osu-allgather}, {@code osu-alltoall},
 * {@code osu-reduce-scatter}, {@code osu-gather} and {@code osu-scatter} {@code --profile FILE --nodes N --ppn P
 * [--algorithm A] [-m MIN:MAX] [-i ITER] [-x WARMUP] [-f] [-c] [-z[P,...]] [-T TYPE] [-M SIZE] ...}: the OSU
 * Micro-Benchmarks 7.5 collective of the {@link OsuBenchmark} it is built for, as an {@link OsuCommand}; one class
 * registered under each program's name ({@link #commandLine(CommandPipeline, OsuBenchmark)}).
 *
 * <p>{@code --algorithm} picks one of fabemu's algorithms of the collective ({@code auto} by default, which picks by
 * size as Open MPI's tuned module does). The sizes are OMB's: the message of broadcast and reduce, every rank's block
 * of allgather, alltoall, gather and scatter, and the whole buffer of reduce-scatter ({@link OsuSizes}); rooted
 * collectives use root 0, as OMB does by default.
 */
@Command(name = "osu-collective", mixinStandardHelpOptions = true, sortOptions = false)
public final class OsuCollectiveCommand extends OsuCommand {

  @Mixin
  OsuOptions.RequiredWorld world;

  @Option(names = "--algorithm", paramLabel = "A",
      description = "fabemu's algorithm of the collective (default auto: by size, as Open MPI's tuned module).")
  String algorithmName;

  @Mixin
  OsuOptions.Full full;

  @Mixin
  OsuOptions.Validation validation;

  @Mixin
  OsuOptions.Type type;

  @Mixin
  OsuOptions.MemLimit memLimit;

  private final OsuBenchmark benchmark;

  OsuCollectiveCommand(CommandPipeline pipeline, OsuBenchmark benchmark) {
    super(pipeline);
    if (benchmark.pointToPoint() || benchmark == OsuBenchmark.BARRIER || benchmark == OsuBenchmark.ALLREDUCE) {
      throw new IllegalArgumentException(benchmark.program() + " has a command of its own");
    }
    this.benchmark = benchmark;
  }

  /** The command of {@code benchmark}: named after its program, with its own description. */
  public static CommandLine commandLine(CommandPipeline pipeline, OsuBenchmark benchmark) {
    OsuCollectiveCommand command = new OsuCollectiveCommand(pipeline, benchmark);
    CommandLine cli = command.commandLine();
    cli.getCommandSpec().name(benchmark.commandName());
    String valid = Algorithm.namesFor(benchmark.collective());
    cli.getCommandSpec().usageMessage().description(
        "Run " + benchmark.program() + " (OSU Micro-Benchmarks " + OsuBenchmark.OMB_VERSION + ") on an emulated "
            + "cluster described by a profile, and print its table.",
        "Sizes are bytes of MPI_FLOAT data" + (benchmark == OsuBenchmark.REDUCE_SCATTER ? " (the whole buffer)"
            : benchmark.blockPerRank() ? " (each rank's block)" : "") + "; avg/min/max latency over ranks of each "
            + "rank's mean, in virtual microseconds. Algorithms: " + valid + ".");
    return cli;
  }

  @Override
  OsuBenchmark benchmark() {
    return benchmark;
  }

  @Override
  int nodes() {
    return world.nodes;
  }

  @Override
  int ppn() {
    return world.ppn;
  }

  @Override
  Algorithm algorithm() {
    if (algorithmName == null) return Algorithm.AUTO;
    Algorithm a = Algorithm.fromConfigName(algorithmName);
    return a == null ? Algorithm.AUTO : a;
  }

  @Override
  String algorithmOption() {
    return algorithmName == null ? null : "--algorithm " + algorithmName;
  }

  @Override
  void checkOwnArguments() {
    if (algorithmName == null) return;
    if (Algorithm.forCollective(algorithmName, benchmark.collective()) == null) {
      throw bad("--algorithm '" + algorithmName + "' is not an algorithm of " + benchmark.collective().configName()
          + " (use " + Algorithm.namesFor(benchmark.collective()) + ")");
    }
  }

  @Override
  String typeValue() {
    return type.type;
  }

  @Override
  boolean full() {
    return full.full;
  }

  @Override
  boolean validation() {
    return validation.validation;
  }

  @Override
  Long memLimitBytes() {
    return memLimit.bytes;
  }
}
