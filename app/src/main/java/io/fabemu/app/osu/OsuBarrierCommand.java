package io.fabemu.app.osu;

import io.fabemu.app.CommandPipeline;
import io.fabemu.collectives.Algorithm;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code fabemu osu-barrier --profile FILE --nodes N --ppn P [--algorithm A] [-i ITER] [-x WARMUP] [-f] [-z[P,...]]
 * [-M SIZE] ...}: OSU Micro-Benchmarks 7.5 {@code osu_barrier}, an {@link OsuCommand}. Its table has no sizes and no
 * {@code # Datatype:} line; as in OMB, {@code -m} and {@code -M} are accepted and change nothing (a barrier moves no
 * data), and there is no {@code -c} or {@code -T}.
 */
@Command(name = "osu-barrier", mixinStandardHelpOptions = true, sortOptions = false,
    description = {"Run osu_barrier (OSU Micro-Benchmarks 7.5) on an emulated cluster described by a profile, and "
        + "print its table.", "Avg/min/max latency over ranks of each rank's mean, in virtual microseconds."})
public final class OsuBarrierCommand extends OsuCommand {

  @Mixin
  OsuOptions.RequiredWorld world;

  @Option(names = "--algorithm", paramLabel = "A",
      description = "fabemu's barrier algorithm: auto (default) or dissemination.")
  String algorithmName;

  @Mixin
  OsuOptions.Full full;

  @Mixin
  OsuOptions.MemLimit memLimit;

  public OsuBarrierCommand(CommandPipeline pipeline) {
    super(pipeline);
  }

  @Override
  OsuBenchmark benchmark() {
    return OsuBenchmark.BARRIER;
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
    Algorithm a = algorithmName == null ? null : Algorithm.fromConfigName(algorithmName);
    return a == null ? Algorithm.AUTO : a;
  }

  @Override
  String algorithmOption() {
    return algorithmName == null ? null : "--algorithm " + algorithmName;
  }

  @Override
  void checkOwnArguments() {
    if (algorithmName == null) return;
    if (Algorithm.forCollective(algorithmName, benchmark().collective()) == null) {
      throw bad("--algorithm '" + algorithmName + "' is not an algorithm of barrier (use "
          + Algorithm.namesFor(benchmark().collective()) + ")");
    }
  }

  @Override
  boolean full() {
    return full.full;
  }
}
