package io.fabemu.app.member;

import com.typesafe.config.Config;
import io.fabemu.app.BadInputException;
import io.fabemu.app.ClusterOptions;
import io.fabemu.app.DiscoveryOptions;
import io.fabemu.app.ExitCodes;
import io.fabemu.cluster.ClusterStartException;
import io.fabemu.cluster.EmbeddedCluster;
import io.fabemu.cluster.KubernetesDiscovery;
import io.fabemu.cluster.MemberSettings;
import io.fabemu.cluster.ScenarioRunner;
import java.io.PrintStream;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import org.apache.pekko.actor.Address;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code fabemu member --seed-nodes HOST:PORT[,...] | --discovery kubernetes-api [--management-port P]
 * [--required-contact-points N] [--pod-label-selector S]} with {@code [--host H] [--port P] [--transport T]}: one
 * cluster member that hosts its share of the devices of the runs a coordinator ({@code fabemu run} or
 * {@code osu-allreduce} with {@code --members N}) starts.
 *
 * <p>Contract: joins the cluster through the seed nodes (a member whose own address is the first seed forms the
 * cluster) or through the Kubernetes API ({@link DiscoveryOptions}: Pekko Management's endpoint on
 * {@code --host} with the health checks {@code /ready}, Up and serving runs, and {@code /alive}; cluster bootstrap
 * over the pods the API lists); exactly one way, else exit code 2 with one line. Prints one line on stdout once it
 * is Up ({@code fabemu member up: HOST:PORT over T, ...}), then serves
 * runs until the process is stopped (SIGTERM or Ctrl-C: it leaves the cluster gracefully), its actor system stops
 * (removed from the cluster: exit code 1 with one line), or, with {@code --parent-pid}, that process exits (so a
 * member started by a coordinator never outlives it: it stops within {@link #PARENT_EXITED_GRACE} of noticing,
 * exit code 0; a parent gone before the member is Up stops the join at once, exit code 0, whatever else went wrong
 * with the join). A member that cannot start or join says why on one line and exits 1.
 */
@Command(name = "member", mixinStandardHelpOptions = true,
    description = "Start a cluster member that serves runs (see docs/cluster.md, 'On several machines').")
public final class MemberCommand implements Callable<Integer> {
  public static final int SEED_NODES_JOIN_TIMEOUT_SECONDS = 60;
  /** Longer: pods of a fresh deployment start as their nodes pull the image, minutes apart. */
  static final int KUBERNETES_JOIN_TIMEOUT_SECONDS = 300;
  /** How long a member whose parent process exited waits for its actor system to stop before its JVM exits. */
  static final Duration PARENT_EXITED_GRACE = Duration.ofSeconds(2);

  @Option(names = "--seed-nodes", paramLabel = "HOST:PORT[,...]",
      converter = ClusterOptions.SeedNodesConverter.class,
      description = "Members to join through; the first member of a cluster lists its own address first. Or "
          + "--discovery kubernetes-api.")
  List<Address> seedNodes;

  @Option(names = "--port", paramLabel = "P", defaultValue = "" + MemberSettings.DEFAULT_PORT,
      description = "Port this member binds (default ${DEFAULT-VALUE}; 0 picks a free one).")
  int port;

  @Option(names = "--join-timeout", paramLabel = "SECONDS",
      description = "Give up when not Up within this many seconds (default " + SEED_NODES_JOIN_TIMEOUT_SECONDS
          + "; " + KUBERNETES_JOIN_TIMEOUT_SECONDS + " with --discovery kubernetes-api, where pods may still be "
          + "pulling their image).")
  Integer joinTimeoutSeconds;

  @Option(names = "--parent-pid", paramLabel = "PID", hidden = true,
      description = "Stop when this process exits (set by the coordinator's --members N).")
  Long parentPid;

  @Mixin
  ClusterOptions cluster;

  @Mixin
  DiscoveryOptions discovery;

  private final PrintStream stdout;
  private final PrintStream stderr;

  public MemberCommand(PrintStream stdout, PrintStream stderr) {
    this.stdout = stdout;
    this.stderr = stderr;
  }

  @Override
  public Integer call() throws Exception {
    if (port < 0 || port > 65535) throw new BadInputException("--port " + port + " is out of range (0 to 65535)");
    if (joinTimeoutSeconds != null && joinTimeoutSeconds < 1) {
      throw new BadInputException("--join-timeout must be at least 1 second");
    }
    KubernetesDiscovery kubernetes = discovery.kubernetes(seedNodes != null, true, port, cluster.transport());
    Duration joinTimeout = Duration.ofSeconds(joinTimeoutSeconds != null ? joinTimeoutSeconds
        : kubernetes != null ? KUBERNETES_JOIN_TIMEOUT_SECONDS : SEED_NODES_JOIN_TIMEOUT_SECONDS);
    CompletableFuture<Void> parentExited = new CompletableFuture<>();
    if (parentPid != null) {
      ProcessHandle.of(parentPid).ifPresentOrElse(p -> p.onExit().thenRun(() -> parentExited.complete(null)),
          () -> parentExited.complete(null));
    }
    Config settings = MemberSettings.member(cluster.host, port, cluster.transport());
    // A parent gone while this member still joins (its coordinator killed as it started) interrupts the join: the
    // member would otherwise retry the dead seed node for the whole join timeout.
    Thread joining = Thread.currentThread();
    Object joinLock = new Object();
    boolean[] joined = {false};
    parentExited.thenRun(() -> {
      synchronized (joinLock) {
        if (!joined[0]) joining.interrupt();
      }
    });
    EmbeddedCluster member;
    try {
      member = kubernetes != null ? EmbeddedCluster.bootstrap(settings, kubernetes, joinTimeout)
          : EmbeddedCluster.joinSeedNodes(settings, seedNodes, joinTimeout);
    } catch (ClusterStartException e) {
      if (!parentExited.isDone()) throw e;
      Thread.interrupted();
      stderr.println("fabemu member: parent process " + parentPid + " exited before this member was up; exiting");
      return ExitCodes.OK;
    } finally {
      synchronized (joinLock) {
        joined[0] = true;
        Thread.interrupted(); // an interrupt that came as the join returned: the wait below sees the parent gone
      }
    }
    Thread leaveOnExit = new Thread(member::close, "fabemu-member-leave");
    Runtime.getRuntime().addShutdownHook(leaveOnExit);
    ScenarioRunner.serveAsMember(member);
    stdout.println("fabemu member up: " + MemberSettings.hostPort(member.address()) + " over "
        + cluster.transport() + ", " + member.upMembers() + " member(s) up, pid " + ProcessHandle.current().pid()
        + (kubernetes == null ? "" : ", found through the Kubernetes API, management endpoint " + cluster.host + ":"
            + kubernetes.managementPort()));
    stdout.flush();

    CompletableFuture.anyOf(member.whenTerminated(), parentExited).join();
    if (parentExited.isDone()) {
      stderr.println("fabemu member: parent process " + parentPid + " exited; leaving the cluster");
      // The parent was the coordinator, the cluster's oldest member: with it gone (killed, most likely) a graceful
      // leave cannot complete (it waited out Pekko's 10 s cluster-exiting phase), and the other members are its
      // children, stopping too. A short grace, then the JVM exits without the hook's long wait.
      removeShutdownHook(leaveOnExit);
      member.close(PARENT_EXITED_GRACE);
      return ExitCodes.OK;
    }
    stderr.println("fabemu member: " + MemberSettings.hostPort(member.address())
        + " stopped (it left or was removed from the cluster)");
    return ExitCodes.RUN_FAILED;
  }

  private static void removeShutdownHook(Thread hook) {
    try {
      Runtime.getRuntime().removeShutdownHook(hook);
    } catch (IllegalStateException e) {
      // The JVM is already shutting down (SIGTERM as the parent went): the hook runs, and closing is idempotent.
    }
  }
}
