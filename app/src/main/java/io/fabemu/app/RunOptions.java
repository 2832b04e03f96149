package io.fabemu.app;

import java.nio.file.Path;
import java.util.List;
import java.util.function.BooleanSupplier;
import org.apache.pekko.actor.Address;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * The options every command that runs a scenario ({@code run}, the {@code osu-*} commands, the nccl-tests programs)
 * shares, as a picocli mixin: the result files, the progress bar, and where the run happens (this JVM, or N cluster
 * members with {@code --members}, {@code --seed-nodes} or {@code --discovery kubernetes-api}
 * ({@link DiscoveryOptions}), and {@link ClusterOptions}). {@link CommandPipeline} checks and uses them; the values
 * here are as given.
 */
public final class RunOptions {

  @Option(names = "--out", paramLabel = "DIR",
      description = "Also write DIR/results.json, DIR/results.csv, the latency plot DIR/latency.svg and "
          + "DIR/latency.png, DIR/nccl-tests/PROGRAM.ALGORITHM.txt, DIR/osu/<program>.<algorithm>.txt and the HTML "
          + "report DIR/report.html (DIR is created if needed).")
  public Path out;

  @Option(names = "--progress",
      description = "Show the progress bar on stderr even when stderr is no terminal (a file, a pipe); by default it "
          + "shows on a terminal only.")
  boolean progress;

  @Option(names = "--no-progress", description = "Never show the progress bar on stderr.")
  boolean noProgress;

  @Option(names = "--members", paramLabel = "N", defaultValue = "1",
      description = "Spread the run over N cluster members (default ${DEFAULT-VALUE}: this JVM alone). Without "
          + "--seed-nodes or --discovery kubernetes-api, N-1 member JVMs are started on 127.0.0.1 and stopped "
          + "afterwards; the digest is the same.")
  int members;

  @Option(names = "--seed-nodes", paramLabel = "HOST:PORT[,...]", converter = ClusterOptions.SeedNodesConverter.class,
      description = "Use members already running ('fabemu member'), joined through these (or --discovery "
          + "kubernetes-api); N counts this one too.")
  List<Address> seedNodes;

  @Option(names = "--port", paramLabel = "P", defaultValue = "0",
      description = "Port of this (the coordinator's) member with --members, --seed-nodes or --discovery "
          + "(default: a free one).")
  int port;

  @Option(names = "--member-timeout", paramLabel = "SECONDS", defaultValue = "60",
      description = "Fail when not all N members are up within this many seconds (default ${DEFAULT-VALUE}).")
  int memberTimeoutSeconds;

  @Option(names = "--skip-estimate",
      description = "Run even when the pre-flight estimate says the run needs more heap than this JVM has.")
  boolean skipEstimate;

  @Mixin
  ClusterOptions cluster;

  @Mixin
  DiscoveryOptions discovery;

  /**
   * Whether the run shows its progress bar on stderr: never with {@code --no-progress}, always with
   * {@code --progress}, else when stderr is a terminal ({@code stderrIsTerminal}, asked only then).
   *
   * @throws BadInputException when both options are given
   */
  boolean showProgress(BooleanSupplier stderrIsTerminal) {
    if (progress && noProgress) throw new BadInputException("--progress and --no-progress exclude each other");
    return !noProgress && (progress || stderrIsTerminal.getAsBoolean());
  }

  /** These options with the result files written into {@code dir} instead (a sweep's point folder). */
  public RunOptions withOut(Path dir) {
    RunOptions copy = new RunOptions();
    copy.out = dir;
    copy.progress = progress;
    copy.noProgress = noProgress;
    copy.members = members;
    copy.seedNodes = seedNodes;
    copy.port = port;
    copy.memberTimeoutSeconds = memberTimeoutSeconds;
    copy.skipEstimate = skipEstimate;
    copy.cluster = cluster;
    copy.discovery = discovery;
    return copy;
  }
}
