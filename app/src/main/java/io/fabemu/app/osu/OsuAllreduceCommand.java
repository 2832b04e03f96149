package io.fabemu.app.osu;

import io.fabemu.app.CommandPipeline;
import io.fabemu.collectives.Algorithm;
import java.util.Arrays;
import picocli.CommandLine.Command;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.TypeConversionException;

/**
 * {@code fabemu osu-allreduce --profile FILE --nodes N --ppn P [--sockets S] --mode host|inc-node|inc-socket
 * [-m MIN:MAX] [-i ITER] [-x WARMUP] [-f] [-c] [-z[P,...]] [-T TYPE] [-M SIZE] ...}: OSU Micro-Benchmarks 7.5
 * {@code osu_allreduce} on an emulated cluster, an {@link OsuCommand} whose algorithm is the mode: {@code auto} for
 * {@code host}, {@code inc-node} or {@code inc-socket} for the in-network modes (the INC paper's Node and Socket
 * modes). Sums of MPI_FLOAT (or MPI_INT with {@code -T}).
 */
@Command(name = "osu-allreduce", mixinStandardHelpOptions = true, sortOptions = false,
    description = {"Run osu_allreduce (OSU Micro-Benchmarks 7.5) on an emulated cluster described by a profile, and "
        + "print its table.", "Sizes are bytes of MPI_FLOAT data; avg/min/max latency over ranks of each rank's "
        + "mean, in virtual microseconds."})
public final class OsuAllreduceCommand extends OsuCommand {

  /** The modes: the name on the command line and the allreduce algorithm of the scenario. */
  enum Mode {
    HOST("host", Algorithm.AUTO),
    INC_NODE("inc-node", Algorithm.INC_NODE),
    INC_SOCKET("inc-socket", Algorithm.INC_SOCKET);

    final String optionName;
    final Algorithm algorithm;

    Mode(String optionName, Algorithm algorithm) {
      this.optionName = optionName;
      this.algorithm = algorithm;
    }

    static String names() {
      return String.join(", ", Arrays.stream(values()).map(m -> m.optionName).toList());
    }

    /** {@code --mode}'s converter: the names are lower case and case-sensitive, like the scenario's. */
    static final class Converter implements ITypeConverter<Mode> {
      @Override
      public Mode convert(String value) {
        for (Mode m : values()) {
          if (m.optionName.equals(value)) return m;
        }
        throw new TypeConversionException("'" + value + "' is not one of " + names());
      }
    }
  }

  @Mixin
  OsuOptions.RequiredWorld world;

  @Option(names = "--mode", required = true, paramLabel = "MODE", converter = Mode.Converter.class,
      description = "host (the host-based allreduce, algorithm auto), inc-node or inc-socket (in-network).")
  Mode mode;

  @Mixin
  OsuOptions.Full full;

  @Mixin
  OsuOptions.Validation validation;

  @Mixin
  OsuOptions.Type type;

  @Mixin
  OsuOptions.MemLimit memLimit;

  public OsuAllreduceCommand(CommandPipeline pipeline) {
    super(pipeline);
  }

  @Override
  OsuBenchmark benchmark() {
    return OsuBenchmark.ALLREDUCE;
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
    return mode.algorithm;
  }

  @Override
  String algorithmOption() {
    return "--mode " + mode.optionName;
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

  /** The plot names the series by the mode (host: with the algorithms auto chose). */
  @Override
  String plotLabel() {
    return mode.optionName;
  }
}
