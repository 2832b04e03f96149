package io.fabemu.cluster;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigException;
import com.typesafe.config.ConfigFactory;
import com.typesafe.config.ConfigValueFactory;
import io.fabemu.engine.PekkoWindowEngine;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.OptionalInt;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.apache.pekko.actor.Address;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.cluster.MemberStatus;
import org.apache.pekko.cluster.typed.Cluster;
import org.apache.pekko.cluster.typed.Join;
import org.apache.pekko.cluster.typed.JoinSeedNodes;
import org.apache.pekko.cluster.typed.Leave;
import org.apache.pekko.cluster.typed.SelfUp;
import org.apache.pekko.cluster.typed.Subscribe;
import org.apache.pekko.management.cluster.bootstrap.ClusterBootstrap;
import org.apache.pekko.management.javadsl.PekkoManagement;

/**
 * A Pekko cluster member inside this JVM. By default a cluster of one, the way fabemu runs with no set-up: it
 * binds Artery (tcp) to 127.0.0.1 on a free port, joins itself, and is ready once the member is Up.
 * {@link #join} starts a member that joins another's cluster instead (several members in one JVM for tests),
 * {@link #joinSeedNodes} one that joins a cluster of other processes or machines, and {@link #bootstrap} one that
 * finds them through the Kubernetes API (Pekko Management's cluster bootstrap, {@link KubernetesDiscovery}).
 *
 * <p>Transport: the setting {@code fabemu.transport} ({@link Transport}) is mapped onto
 * {@code pekko.remote.artery.transport}. For {@code aeron-udp} the member runs an embedded Aeron media driver in a
 * directory of its own ({@code /dev/shm/fabemu-aeron-<pid>-<n>}, removed when the member stops or the JVM exits;
 * directories left by killed JVMs are removed at the next start), with the term length of
 * {@code fabemu.aeron.term-buffer-length} (Aeron's largest message is 1/8 of it; frames must fit).
 * Artery binds the canonical host only ({@code bind.hostname = canonical.hostname}).
 *
 * <p>Failure: a member that cannot start throws {@link ClusterStartException} with one line of explanation, after
 * terminating whatever it had started, so a failed start-up never leaves threads that keep the JVM alive.
 */
public final class EmbeddedCluster implements AutoCloseable {
  /** The actor system's name: the same on every member, part of every member address. */
  public static final String SYSTEM_NAME = "fabemu";

  private static final Duration START_TIMEOUT = Duration.ofSeconds(30);
  private static final String AERON_DIR_PREFIX = "fabemu-aeron-";
  private static final AtomicInteger AERON_DIRS = new AtomicInteger();

  private final ActorSystem<Void> system;
  private final Path aeronDir;
  private final Thread aeronDirCleaner;

  private EmbeddedCluster(ActorSystem<Void> system, Path aeronDir, Thread aeronDirCleaner) {
    this.system = system;
    this.aeronDir = aeronDir;
    this.aeronDirCleaner = aeronDirCleaner;
  }

  /** Starts the member with fabemu's settings (see {@code fabemu-cluster.conf}) over {@code overrides}. */
  public static EmbeddedCluster start(Config overrides) {
    return start(overrides, List.of(), JoinMode.FIRST_SEED, null, START_TIMEOUT);
  }

  /**
   * Starts a member that joins the cluster of {@code seed} (its own address when null: a new cluster), with
   * fabemu's settings under {@code overrides}; returns once this member is Up.
   */
  public static EmbeddedCluster join(Config overrides, Address seed) {
    return start(overrides, seed == null ? List.of() : List.of(seed), JoinMode.FIRST_SEED, null, START_TIMEOUT);
  }

  /**
   * Starts a member that joins the cluster through {@code seedNodes} (Pekko's seed-node join: the first seed forms
   * the cluster when it is this member itself); an empty list forms a new cluster of this member. Returns once this
   * member is Up.
   *
   * @throws ClusterStartException when the transport cannot start or the member is not Up within {@code upTimeout}
   */
  public static EmbeddedCluster joinSeedNodes(Config overrides, List<Address> seedNodes, Duration upTimeout) {
    return start(overrides, List.copyOf(seedNodes), JoinMode.SEED_NODES, null, upTimeout);
  }

  /**
   * Starts a member that joins through the Kubernetes API ({@link KubernetesDiscovery}): it starts Pekko
   * Management's HTTP endpoint on the member's host and {@code discovery}'s port (health checks and bootstrap's
   * contact point only) and the cluster bootstrap, which joins the cluster the other pods report or, with none yet,
   * lets the pod with the lowest address form it. Returns once this member is Up.
   *
   * @throws ClusterStartException when this is no pod that can reach the Kubernetes API (its environment variables
   *                               and service-account files), the transport or the management endpoint cannot
   *                               start, or the member is not Up within {@code upTimeout}
   */
  public static EmbeddedCluster bootstrap(Config overrides, KubernetesDiscovery discovery, Duration upTimeout) {
    return start(overrides, List.of(), JoinMode.BOOTSTRAP, discovery, upTimeout);
  }

  /**
   * The settings a member started with {@code overrides} reads, before fabemu maps its transport onto Pekko's:
   * {@code overrides}, then {@code -D} system properties, then {@code fabemu-cluster.conf}, then the application's
   * and the libraries' settings ({@code application.conf}, {@code -Dconfig.file}, {@code reference.conf}).
   */
  public static Config settings(Config overrides) {
    return settings(overrides, ConfigFactory.empty());
  }

  /** {@link #settings(Config)} with {@code memberDefaults} between the {@code -D} settings and fabemu's file. */
  private static Config settings(Config overrides, Config memberDefaults) {
    return overrides.withFallback(ConfigFactory.systemProperties())
        .withFallback(memberDefaults)
        .withFallback(ConfigFactory.parseResources("fabemu-cluster.conf"))
        .withFallback(ConfigFactory.load())
        .resolve();
  }

  public static EmbeddedCluster start() {
    return start(ConfigFactory.empty());
  }

  /** Starts a cluster of one that no other member joins (a run in this JVM alone): {@link SingleMemberSettings}. */
  public static EmbeddedCluster startAlone() {
    return start(ConfigFactory.empty(), List.of(), JoinMode.ALONE, null, START_TIMEOUT);
  }

  /** How a member joins: itself or one member's cluster, seed nodes, cluster bootstrap, or itself for good. */
  private enum JoinMode { FIRST_SEED, SEED_NODES, BOOTSTRAP, ALONE }

  private static EmbeddedCluster start(Config overrides, List<Address> seeds, JoinMode mode,
                                       KubernetesDiscovery discovery, Duration upTimeout) {
    // -D settings win over fabemu's file, which wins over the libraries' reference settings.
    Config merged = settings(overrides,
        mode == JoinMode.ALONE ? SingleMemberSettings.config() : ConfigFactory.empty());
    Transport transport;
    try {
      transport = Transport.parse(merged.getString("fabemu.transport"));
    } catch (IllegalArgumentException | ConfigException e) {
      throw new ClusterStartException("cannot start the cluster member: fabemu.transport: " + e.getMessage(), e);
    }
    // The engine reads these in every member's scheduler; a bad value is reported here, once, in one line.
    try {
      PekkoWindowEngine.byteSetting(merged, PekkoWindowEngine.FAN_OUT_MIN_DATA_BYTES_PATH);
      PekkoWindowEngine.byteSetting(merged, PekkoWindowEngine.FAN_OUT_MIN_DATA_BYTES_PER_DEVICE_PATH);
      PekkoWindowEngine.checkParallelSettings(merged);
    } catch (IllegalArgumentException e) {
      throw new ClusterStartException("cannot start the cluster member: " + e.getMessage(), e);
    }
    // Checked whatever the transport, so that a bad value is reported where it is written.
    OptionalInt idleLevel = aeronIdleCpuLevel(
        overrides.withFallback(ConfigFactory.systemProperties()).withFallback(ConfigFactory.defaultApplication()),
        merged, Runtime.getRuntime().availableProcessors());
    String host = merged.getString("pekko.remote.artery.canonical.hostname");
    if (mode == JoinMode.BOOTSTRAP) {
      String problem = KubernetesDiscovery.environmentProblem(merged, System.getenv());
      if (problem != null) {
        throw new ClusterStartException("cannot join through the Kubernetes API: " + problem, null);
      }
      merged = discovery.pekkoSettings(host).withFallback(merged);
    }
    Config transportConfig = ConfigFactory.empty()
        .withValue("pekko.remote.artery.transport", ConfigValueFactory.fromAnyRef(transport.configName()))
        .withValue("pekko.remote.artery.bind.hostname", ConfigValueFactory.fromAnyRef(host));
    Path aeronDir = null;
    if (transport == Transport.AERON_UDP) {
      checkAeronCanStart(merged);
      aeronDir = newAeronDir();
      if (idleLevel.isPresent()) {
        transportConfig = transportConfig.withValue(AERON_IDLE_PATH, ConfigValueFactory.fromAnyRef(
            idleLevel.getAsInt()));
      }
      transportConfig = transportConfig
          .withValue("pekko.remote.artery.advanced.aeron.embedded-media-driver", ConfigValueFactory.fromAnyRef(true))
          .withValue("pekko.remote.artery.advanced.aeron.aeron-dir", ConfigValueFactory.fromAnyRef(
              aeronDir.toString()))
          .withValue("pekko.remote.artery.advanced.aeron.delete-aeron-dir", ConfigValueFactory.fromAnyRef(true));
    }
    Config config = transportConfig.withFallback(merged);
    String where = host + ":" + config.getInt("pekko.remote.artery.canonical.port") + " over " + transport;

    Thread cleaner = aeronDir == null ? null : deleteOnExit(aeronDir);
    CompletableFuture<Void> up = new CompletableFuture<>();
    ActorSystem<Void> system;
    try {
      system = ActorSystem.create(guardian(up, seeds, mode), SYSTEM_NAME, config);
    } catch (Throwable e) {
      removeAeronDir(aeronDir, cleaner);
      throw new ClusterStartException("cannot start the cluster member on " + where + ": " + rootMessage(e), e);
    }
    if (mode == JoinMode.BOOTSTRAP) {
      startBootstrap(system, host + ":" + discovery.managementPort(), aeronDir, cleaner);
    }
    try {
      up.get(upTimeout.toMillis(), TimeUnit.MILLISECONDS);
    } catch (TimeoutException e) {
      terminate(system, aeronDir, cleaner);
      throw new ClusterStartException("the cluster member on " + where + " did not come up within "
          + upTimeout.toSeconds() + " s" + (mode == JoinMode.BOOTSTRAP ? " (" + bootstrapHint(discovery) + ")"
          : seeds.isEmpty() ? "" : " (seed nodes " + seeds.stream().map(MemberSettings::hostPort).toList()
          + " not reachable?)"), e);
    } catch (InterruptedException e) {
      // Terminated first: with the flag set again, the wait for the actor system to stop would return at once and
      // its Aeron folder be removed under it.
      terminate(system, aeronDir, cleaner);
      Thread.currentThread().interrupt();
      throw new ClusterStartException("interrupted while starting the cluster member on " + where, e);
    } catch (ExecutionException e) {
      terminate(system, aeronDir, cleaner);
      throw new ClusterStartException("the cluster member on " + where + " failed to start: "
          + rootMessage(e.getCause()), e);
    }
    return new EmbeddedCluster(system, aeronDir, cleaner);
  }

  /**
   * Starts the management endpoint (bound before this returns, so a port in use is reported here) and the cluster
   * bootstrap of {@code system}; on failure terminates it and throws {@link ClusterStartException}.
   */
  private static void startBootstrap(ActorSystem<Void> system, String management, Path aeronDir, Thread cleaner) {
    try {
      PekkoManagement.get(system.classicSystem()).start().toCompletableFuture()
          .get(START_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
      ClusterBootstrap.get(system.classicSystem()).start();
    } catch (InterruptedException e) {
      terminate(system, aeronDir, cleaner); // before the flag is set again, as in start
      Thread.currentThread().interrupt();
      throw new ClusterStartException("interrupted while starting the management endpoint on " + management, e);
    } catch (Exception e) {
      // Pekko's Scala code also throws checked exceptions it does not declare (a CA file that holds no certificate).
      terminate(system, aeronDir, cleaner);
      Throwable cause = e instanceof ExecutionException && e.getCause() != null ? e.getCause() : e;
      throw new ClusterStartException("cannot start the management endpoint and cluster bootstrap on " + management
          + ": " + rootMessage(cause), e);
    }
  }

  /** What to look at when bootstrap formed or found no cluster in time. */
  private static String bootstrapHint(KubernetesDiscovery discovery) {
    return "no cluster found or formed through the Kubernetes API: are at least " + discovery.requiredContactPoints()
        + " pods labelled " + discovery.podLabelSelector() + " running, each with a container port named "
        + KubernetesDiscovery.PORT_NAME + " (" + discovery.managementPort() + "), and may this pod list pods? "
        + "-Dpekko.loglevel=INFO -Dorg.slf4j.simpleLogger.defaultLogLevel=info shows bootstrap's progress";
  }

  /** Cores at or below which {@code fabemu.aeron.idle-cpu-level = auto} picks level 1. */
  static final int FEW_CORES = 4;
  static final String AERON_IDLE_PATH = "pekko.remote.artery.advanced.aeron.idle-cpu-level";

  /**
   * The Aeron idle CPU level fabemu sets, if any: none when the user set Pekko's own setting
   * ({@value #AERON_IDLE_PATH}) in {@code explicit} (the caller's overrides, {@code -D} properties and the
   * application's config), else {@code fabemu.aeron.idle-cpu-level} of {@code merged} as
   * {@link #aeronIdleCpuLevel(String, int)} reads it (checked either way).
   */
  static OptionalInt aeronIdleCpuLevel(Config explicit, Config merged, int cores) {
    OptionalInt level = aeronIdleCpuLevel(merged.getValue("fabemu.aeron.idle-cpu-level").unwrapped().toString(),
        cores);
    return explicit.hasPath(AERON_IDLE_PATH) ? OptionalInt.empty() : level;
  }

  /**
   * Aeron's idle CPU level for the setting {@code fabemu.aeron.idle-cpu-level} on a machine with {@code cores}
   * cores: {@code auto} is 1 on at most {@link #FEW_CORES} cores (Aeron's spinning threads would take the cores the
   * emulation needs) and empty above (Pekko's default stays); a number from 1 to 10 is that level.
   *
   * @throws ClusterStartException naming the setting when it is neither
   */
  static OptionalInt aeronIdleCpuLevel(String setting, int cores) {
    String value = setting.strip();
    if (value.equals("auto")) {
      return cores <= FEW_CORES ? OptionalInt.of(1) : OptionalInt.empty();
    }
    try {
      int level = Integer.parseInt(value);
      if (level >= 1 && level <= 10) {
        return OptionalInt.of(level);
      }
    } catch (NumberFormatException e) {
      // Reported below.
    }
    throw new ClusterStartException("cannot start the cluster member: fabemu.aeron.idle-cpu-level = '" + setting
        + "' must be auto or a number from 1 to 10", null);
  }

  /** Aeron needs an opened {@code sun.nio.ch} (else it fails inside Agrona) and frames within its term length. */
  private static void checkAeronCanStart(Config config) {
    Module javaBase = Object.class.getModule();
    if (!javaBase.isOpen("sun.nio.ch", EmbeddedCluster.class.getModule())) {
      throw new ClusterStartException("cannot start the cluster member: transport aeron-udp needs the JVM option "
          + "--add-opens java.base/sun.nio.ch=ALL-UNNAMED (bin/fabemu sets it)", null);
    }
    long term = config.getBytes("fabemu.aeron.term-buffer-length");
    if (term < 65536 || term > 1L << 30 || Long.bitCount(term) != 1) {
      throw new ClusterStartException("cannot start the cluster member: fabemu.aeron.term-buffer-length = " + term
          + " B must be a power of two from 64 KiB to 1 GiB", null);
    }
    long frame = Math.max(config.getBytes("pekko.remote.artery.advanced.maximum-frame-size"),
        config.getBytes("pekko.remote.artery.advanced.maximum-large-frame-size"));
    if (frame > term / 8) {
      throw new ClusterStartException("cannot start the cluster member: frames of " + frame + " B exceed Aeron's "
          + "largest message (term length / 8 = " + term / 8 + " B); raise fabemu.aeron.term-buffer-length", null);
    }
    // Aeron reads its driver settings from system properties when the embedded driver starts; explicit -D wins.
    System.setProperty("aeron.term.buffer.length", System.getProperty("aeron.term.buffer.length",
        Long.toString(term)));
    long socketBuffer = config.getBytes("fabemu.aeron.socket-buffer");
    for (String p : List.of("aeron.socket.so_rcvbuf", "aeron.socket.so_sndbuf", "aeron.rcv.initial.window.length")) {
      System.setProperty(p, System.getProperty(p, Long.toString(socketBuffer)));
    }
  }

  /** A fresh media-driver directory under /dev/shm (else the temp folder); removes ones of JVMs that are gone. */
  private static Path newAeronDir() {
    Path shm = Paths.get("/dev/shm");
    Path base = Files.isDirectory(shm) && Files.isWritable(shm) ? shm : Paths.get(System.getProperty("java.io.tmpdir"));
    try (Stream<Path> old = Files.list(base)) {
      old.filter(p -> p.getFileName().toString().startsWith(AERON_DIR_PREFIX)).forEach(p -> {
        String[] parts = p.getFileName().toString().substring(AERON_DIR_PREFIX.length()).split("-");
        try {
          long pid = Long.parseLong(parts[0]);
          if (ProcessHandle.of(pid).isEmpty()) deleteRecursively(p);
        } catch (NumberFormatException e) {
          // Not one of ours after all.
        }
      });
    } catch (IOException e) {
      // Cleaning up after killed JVMs is best effort.
    }
    return base.resolve(AERON_DIR_PREFIX + ProcessHandle.current().pid() + "-" + AERON_DIRS.incrementAndGet());
  }

  private static Thread deleteOnExit(Path dir) {
    Thread cleaner = new Thread(() -> deleteRecursively(dir), "fabemu-aeron-dir-cleaner");
    Runtime.getRuntime().addShutdownHook(cleaner);
    return cleaner;
  }

  private static void removeAeronDir(Path dir, Thread cleaner) {
    if (dir == null) return;
    deleteRecursively(dir);
    try {
      Runtime.getRuntime().removeShutdownHook(cleaner);
    } catch (IllegalStateException e) {
      // The JVM is already shutting down; the hook runs anyway.
    }
  }

  private static void deleteRecursively(Path dir) {
    if (!Files.exists(dir)) return;
    try (Stream<Path> paths = Files.walk(dir)) {
      paths.sorted(Comparator.reverseOrder()).forEach(p -> {
        try {
          Files.deleteIfExists(p);
        } catch (IOException e) {
          // Best effort.
        }
      });
    } catch (IOException e) {
      // Best effort.
    }
  }

  private static void terminate(ActorSystem<Void> system, Path aeronDir, Thread cleaner) {
    system.terminate();
    try {
      system.getWhenTerminated().toCompletableFuture().get(10, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (ExecutionException | TimeoutException e) {
      // Best effort.
    }
    removeAeronDir(aeronDir, cleaner);
  }

  private static String rootMessage(Throwable e) {
    Throwable t = e;
    while (t.getCause() != null && t.getCause() != t) t = t.getCause();
    String m = t.getMessage() == null ? t.getClass().getSimpleName() : t.getClass().getSimpleName() + ": "
        + t.getMessage();
    return m.strip().replaceAll("\\s*[\\r\\n]+\\s*", " ");
  }

  private static Behavior<Void> guardian(CompletableFuture<Void> up, List<Address> seeds, JoinMode mode) {
    return Behaviors.setup(context -> {
      Cluster cluster = Cluster.get(context.getSystem());
      context.spawn(Behaviors.<SelfUp>setup(watcher -> {
        cluster.subscriptions().tell(new Subscribe<>(watcher.getSelf(), SelfUp.class));
        return Behaviors.receiveMessage(selfUp -> {
          up.complete(null);
          return Behaviors.stopped();
        });
      }), "self-up-watcher");
      if (mode == JoinMode.BOOTSTRAP) {
        // Nothing to send: cluster bootstrap (started right after the system) joins once it has found the pods.
        return Behaviors.empty();
      }
      if (seeds.isEmpty()) {
        cluster.manager().tell(new Join(cluster.selfMember().address()));
      } else if (mode == JoinMode.FIRST_SEED) {
        cluster.manager().tell(new Join(seeds.get(0)));
      } else {
        cluster.manager().tell(new JoinSeedNodes(seeds));
      }
      return Behaviors.empty();
    });
  }

  public ActorSystem<Void> system() {
    return system;
  }

  /** This member's address (host and the port Artery bound), e.g. to let other members join it. */
  public Address address() {
    return Cluster.get(system).selfMember().address();
  }

  /** How many members of the cluster (this one included) are Up now, as this member sees it. */
  public int upMembers() {
    int n = 0;
    for (org.apache.pekko.cluster.Member m : Cluster.get(system).state().getMembers()) {
      if (m.status() == MemberStatus.up()) n++;
    }
    return n;
  }

  /**
   * Asks every other member to leave and waits, at most {@code timeout}, until this member sees none of them: an
   * orderly end for members this one started, so that none is seen unreachable (and downed) while stopping.
   *
   * @return true when they were all removed in time
   */
  public boolean removeOtherMembers(Duration timeout) {
    Cluster cluster = Cluster.get(system);
    Address self = address();
    for (org.apache.pekko.cluster.Member m : cluster.state().getMembers()) {
      if (!m.address().equals(self)) {
        cluster.manager().tell(new Leave(m.address()));
      }
    }
    long deadline = System.nanoTime() + timeout.toNanos();
    while (!onlySelfLeft(cluster, self)) {
      if (System.nanoTime() >= deadline) {
        return false;
      }
      try {
        // Control plane only, at the very end of a run: a short poll is simpler than a subscription.
        Thread.sleep(50);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return false;
      }
    }
    return true;
  }

  private static boolean onlySelfLeft(Cluster cluster, Address self) {
    for (org.apache.pekko.cluster.Member m : cluster.state().getMembers()) {
      if (!m.address().equals(self)) return false;
    }
    return true;
  }

  /** Completes when this member's actor system has terminated (closed, or removed from the cluster). */
  public CompletableFuture<Void> whenTerminated() {
    return system.getWhenTerminated().toCompletableFuture().thenApply(done -> null);
  }

  @Override
  public void close() {
    close(Duration.ofSeconds(30));
  }

  /**
   * Terminates the member (leaving the cluster) and waits at most {@code wait} for it: after a failed run a short
   * wait, since leaving cannot complete while a lost member is still unreachable; the rest goes on in the
   * background. The Aeron directory is removed once the wait is over.
   */
  public void close(Duration wait) {
    system.terminate();
    try {
      system.getWhenTerminated().toCompletableFuture().get(wait.toMillis(), TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (ExecutionException | TimeoutException e) {
      // Shutting down is best effort: a run's results are already complete at this point.
    }
    removeAeronDir(aeronDir, aeronDirCleaner);
  }
}
