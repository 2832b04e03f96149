package io.fabemu.app.osu;

import io.fabemu.app.CommandPipeline;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;

/**
 * The options osu_latency and osu_bw share ({@link OsuLatencyCommand}, {@link OsuBandwidthCommand}): exactly two
 * processes, by default one on each of two nodes ({@code --nodes 2 --ppn 1}; OMB: "This test requires exactly two
 * processes"), {@code -c}, {@code -T}, and OMB's buffer locations {@code [SRC DST]}, of which fabemu takes only host
 * memory ({@code H H}): device ({@code D}) and managed ({@code M}, {@code MD}, {@code MH}) buffers are refused in
 * one line.
 */
abstract class OsuPointToPointCommand extends OsuCommand {

  @Mixin
  OsuOptions.PairWorld world;

  @Mixin
  OsuOptions.Validation validation;

  @Mixin
  OsuOptions.Type type;

  @Parameters(arity = "0..2", paramLabel = "SRC DST",
      description = "Buffer locations as OMB takes them; fabemu emulates host memory: H H (the default) only.")
  List<String> buffers = new ArrayList<>();

  OsuPointToPointCommand(CommandPipeline pipeline) {
    super(pipeline);
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
  String typeValue() {
    return type.type;
  }

  @Override
  boolean validation() {
    return validation.validation;
  }

  @Override
  void checkOwnArguments() {
    long ranks = (long) nodes() * ppn();
    if (ranks != 2) {
      throw bad(benchmark().program() + " requires exactly two processes, not --nodes " + nodes() + " x --ppn "
          + ppn() + " = " + ranks);
    }
    if (buffers.size() == 1) {
      throw bad("buffer locations: give both SRC and DST (H H) or neither");
    }
    for (String b : buffers) {
      if (!b.equals("H")) {
        throw bad("buffer location '" + b + "': fabemu emulates host memory only (H); device (D) and managed (M, "
            + "MD, MH) buffers cannot apply");
      }
    }
  }
}
