package io.fabemu.app.osu;

import io.fabemu.app.CommandPipeline;
import io.fabemu.cluster.scenario.ScenarioLoader;
import io.fabemu.collectives.WorkloadSpec;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code fabemu osu-bw --profile FILE [--nodes N --ppn P] [-m MIN:MAX] [-i ITER] [-x WARMUP] [-W WINDOW] [-c]
 * [-z[P,...]] [-T TYPE] [H H] ...}: OSU Micro-Benchmarks 7.5 {@code osu_bw}, an {@link OsuPointToPointCommand}:
 * fabemu's send/recv {@code window} from rank 0 to rank 1 (a window of sends, then one acknowledgement,
 * {@code workload.window} messages per window); the bandwidth printed is {@code size x window / time of a window} in
 * MB/s, as OMB computes it.
 */
@Command(name = "osu-bw", mixinStandardHelpOptions = true, sortOptions = false,
    description = {"Run osu_bw (OSU Micro-Benchmarks 7.5) on an emulated cluster described by a profile, and print "
        + "its table.", "Sizes are bytes of MPI_FLOAT data; the bandwidth is size x window / time of one window "
        + "(sends, then the acknowledgement), in MB/s of virtual time."})
public final class OsuBandwidthCommand extends OsuPointToPointCommand {

  @Option(names = {"-W", "--window-size"}, paramLabel = "SIZE", defaultValue = "" + WorkloadSpec.DEFAULT_WINDOW,
      description = "Messages sent before each acknowledgement (default ${DEFAULT-VALUE}).")
  int window;

  public OsuBandwidthCommand(CommandPipeline pipeline) {
    super(pipeline);
  }

  @Override
  OsuBenchmark benchmark() {
    return OsuBenchmark.BW;
  }

  @Override
  void checkOwnArguments() {
    super.checkOwnArguments();
    if (window < 1 || window > ScenarioLoader.MAX_WINDOW) {
      throw bad("-W must be 1 to " + ScenarioLoader.MAX_WINDOW + ", not " + window);
    }
  }

  @Override
  void addOwnOverrides(Map<String, Object> overrides) {
    overrides.put("workload.window", window);
  }

  @Override
  String ownOptionOf(String key) {
    return key.equals("workload.window") ? "-W " + window : null;
  }
}
