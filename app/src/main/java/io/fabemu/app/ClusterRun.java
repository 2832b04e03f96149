package io.fabemu.app;

import com.typesafe.config.Config;
import io.fabemu.app.member.LocalMembers;
import io.fabemu.app.member.MemberCpuSets;
import io.fabemu.cluster.EmbeddedCluster;
import io.fabemu.cluster.KubernetesDiscovery;
import io.fabemu.cluster.MemberLostException;
import io.fabemu.cluster.MemberSettings;
import io.fabemu.cluster.ScenarioRunner;
import io.fabemu.cluster.Transport;
import io.fabemu.cluster.scenario.ResourceEstimate;
import io.fabemu.core.sim.ProgressListener;
import io.fabemu.core.topology.Topology;
import io.fabemu.engine.MemberTraffic;
import io.fabemu.fabric.ScenarioSpec;
import io.fabemu.fabric.result.RunResult;
import java.io.IOException;
import java.io.PrintStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.apache.pekko.actor.Address;

/**
 * A run over several members: the coordinator's own member in this JVM, plus either {@code members - 1} member JVMs
 * started here on 127.0.0.1 ({@link LocalMembers}), or members already running elsewhere that this one joins
 * through {@code seedNodes} or through the Kubernetes API ({@code kubernetes}: Pekko Management's cluster bootstrap,
 * as a member pod joins).
 *
 * <p>Contract: waits for all members to be Up, within the member timeout counted from the start (its own join
 * included), else {@link Failure} saying how many joined in how long, with the logs of local members; a local
 * member JVM that exits meanwhile is that failure at once. Then runs {@link ScenarioRunner#runDistributed}, and on
 * every way out (result, exception, Ctrl-C through a shutdown hook) stops the local member JVMs and its own member.
 * Exceptions of the run itself ({@code MemberLostException}, {@code EngineFailedException}) pass through unchanged.
 */
public final class ClusterRun implements ScenarioExecutor {
  /** How long the coordinator waits for the member agents once every member is Up. */
  private static final Duration AGENT_TIMEOUT = Duration.ofSeconds(30);
  private static final long POLL_MILLIS = 100;
  /** How long stopping waits for members (JVMs, then its own) after a failed run. */
  private static final Duration FAILED_GRACE = Duration.ofSeconds(2);

  private final int members;
  private final List<Address> seedNodes;
  private final KubernetesDiscovery kubernetes;
  private final String host;
  private final int port;
  private final Transport transport;
  private final Duration memberTimeout;
  private final PrintStream stderr;

  /**
   * A run over {@code members} members that joins through {@code seedNodes}, else through {@code kubernetes},
   * else starts {@code members - 1} member JVMs (both null or empty); {@code memberTimeout} bounds the join and the
   * wait for all members.
   */
  ClusterRun(int members, List<Address> seedNodes, KubernetesDiscovery kubernetes, String host, int port,
             Transport transport, Duration memberTimeout, PrintStream stderr) {
    this.members = members;
    this.seedNodes = seedNodes == null ? List.of() : seedNodes;
    this.kubernetes = kubernetes;
    this.host = host;
    this.port = port;
    this.transport = transport;
    this.memberTimeout = memberTimeout;
    this.stderr = stderr;
  }

  @Override
  public RunResult run(ScenarioSpec spec, Topology topology, ProgressListener listener) {
    // --member-timeout bounds the whole wait, the coordinator's own join included: a member that dies while the
    // cluster forms costs at most that long.
    long deadline = System.nanoTime() + memberTimeout.toNanos();
    boolean startsMembers = seedNodes.isEmpty() && kubernetes == null && members > 1;
    // Bad input, refused before any member is up.
    MemberCpuSets cpus = startsMembers ? MemberCpuSets.fromEnvironment(members - 1) : null;
    Config settings = MemberSettings.member(host, port, transport);
    EmbeddedCluster coordinator = kubernetes != null ? EmbeddedCluster.bootstrap(settings, kubernetes, memberTimeout)
        : EmbeddedCluster.joinSeedNodes(settings, seedNodes, memberTimeout);
    LocalMembers local = null;
    Thread cleanup = null;
    boolean keepLogs = false;
    boolean failed = true;
    try {
      ScenarioRunner.serveAsMember(coordinator);
      if (startsMembers) {
        try {
          local = LocalMembers.start(members - 1, MemberSettings.hostPort(coordinator.address()), transport, cpus);
        } catch (IOException e) {
          throw new Failure("cannot start member JVMs: " + e.getMessage(), List.of());
        }
        LocalMembers toStop = local;
        cleanup = new Thread(() -> {
          toStop.close();
          coordinator.close();
        }, "fabemu-stop-members");
        Runtime.getRuntime().addShutdownHook(cleanup);
      }
      try {
        awaitMembers(coordinator, local, deadline);
        RunResult result = ScenarioRunner.runDistributed(coordinator, spec, topology, members, AGENT_TIMEOUT,
            listener, traffic -> traffic.forEach(member -> stderr.println(trafficLine(member))));
        failed = false;
        return result;
      } catch (RuntimeException e) {
        keepLogs = local != null;
        if (local != null && !(e instanceof Failure) && !(e instanceof MemberLostException)) {
          // Whatever the run says, the member logs may say why; show those of members that died.
          LocalMembers.Child dead = local.firstExited();
          if (dead != null) {
            stderr.println("fabemu: member " + dead.number() + " exited with code " + dead.process().exitValue()
                + "; the end of its log (" + dead.log() + "):");
            local.logTail(dead).forEach(stderr::println);
          }
        }
        throw e;
      }
    } finally {
      // After a failure nobody waits for graceful leaves: a lost member keeps the cluster from converging.
      if (local != null) {
        if (!failed) {
          // Members this run started leave first, so none is seen unreachable while the JVMs stop.
          coordinator.removeOtherMembers(Duration.ofSeconds(10));
        }
        local.close(failed ? FAILED_GRACE : Duration.ofSeconds(10));
        if (!keepLogs) local.deleteLogs();
      }
      coordinator.close(failed ? FAILED_GRACE : Duration.ofSeconds(30));
      if (cleanup != null) {
        try {
          Runtime.getRuntime().removeShutdownHook(cleanup);
        } catch (IllegalStateException e) {
          // The JVM is shutting down: the hook is running or will run; both stops are idempotent.
        }
      }
    }
  }

  /**
   * Waits until {@link #members} members are Up, at the latest until {@code deadline} ({@link System#nanoTime});
   * fails early when a local member JVM exits.
   */
  private void awaitMembers(EmbeddedCluster coordinator, LocalMembers local, long deadline) {
    int up = coordinator.upMembers();
    while (up < members) {
      if (local != null) {
        LocalMembers.Child dead = local.firstExited();
        if (dead != null) {
          List<String> details = new ArrayList<>();
          details.add("the end of its log (" + dead.log() + "):");
          details.addAll(local.logTail(dead));
          throw new Failure("member " + dead.number() + " exited with code " + dead.process().exitValue()
              + " before the run started (" + up + " of " + members + " members up)", details);
        }
      }
      if (System.nanoTime() >= deadline) {
        List<String> details = new ArrayList<>();
        if (local != null) {
          details.add("member logs are in " + local.logDir() + "; their last lines:");
          for (LocalMembers.Child c : local.children()) details.addAll(local.logTail(c));
        }
        throw new Failure("only " + up + " of " + members + " members joined within " + memberTimeout.toSeconds()
            + " s", details);
      }
      try {
        Thread.sleep(POLL_MILLIS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new Failure("interrupted while waiting for members (" + up + " of " + members + " up)", List.of());
      }
      up = coordinator.upMembers();
    }
  }

  /** A distributed run could not start: one line for the user, then details (member logs). Exit code 1. */
  public static final class Failure extends RuntimeException {
    private static final long serialVersionUID = 1L;
    private final transient List<String> details;

    Failure(String message, List<String> details) {
      super(message);
      this.details = List.copyOf(details);
    }

    public List<String> details() {
      return details;
    }
  }

  /** One member's line after a distributed run: what it hosted and sent to the other members. */
  static String trafficLine(MemberTraffic member) {
    return String.format(java.util.Locale.ROOT, "# member %d: %d devices, %d cross-member events sent (%s)",
        member.memberId(), member.devices(), member.crossEvents(), ResourceEstimate.formatBytes(member.crossBytes()));
  }
}
