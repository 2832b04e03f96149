package io.fabemu.cluster;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.pekko.actor.Address;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.cluster.typed.Cluster;
import org.apache.pekko.cluster.typed.Join;
import org.apache.pekko.cluster.typed.SelfUp;
import org.apache.pekko.cluster.typed.Subscribe;

/**
 * A Pekko cluster member inside this JVM. By default a cluster of one, the way fabemu runs with no set-up: it
 * binds Artery (tcp) to 127.0.0.1 on a free port, joins itself, and is ready once the member is Up.
 * {@link #join} starts a member that joins another's cluster instead (several members in one JVM for tests).
 */
public final class EmbeddedCluster implements AutoCloseable {
  private static final Duration START_TIMEOUT = Duration.ofSeconds(30);

  private final ActorSystem<Void> system;

  private EmbeddedCluster(ActorSystem<Void> system) {
    this.system = system;
  }

  /** Starts the member with fabemu's settings (see {@code fabemu-cluster.conf}) over {@code overrides}. */
  public static EmbeddedCluster start(Config overrides) {
    return start(overrides, null);
  }

  /**
   * Starts a member that joins the cluster of {@code seed} (its own address when null: a new cluster), with
   * fabemu's settings under {@code overrides}; returns once this member is Up.
   */
  public static EmbeddedCluster join(Config overrides, Address seed) {
    return start(overrides, seed);
  }

  private static EmbeddedCluster start(Config overrides, Address seed) {
    Config config = overrides.withFallback(ConfigFactory.parseResources("fabemu-cluster.conf"))
        .withFallback(ConfigFactory.load());
    CompletableFuture<Void> up = new CompletableFuture<>();
    ActorSystem<Void> system = ActorSystem.create(guardian(up, seed), "fabemu", config);
    try {
      up.get(START_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
    } catch (TimeoutException e) {
      system.terminate();
      throw new IllegalStateException("the embedded cluster member did not come up within " + START_TIMEOUT.toSeconds()
          + " s", e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      system.terminate();
      throw new IllegalStateException("interrupted while starting the embedded cluster", e);
    } catch (ExecutionException e) {
      system.terminate();
      throw new IllegalStateException("the embedded cluster failed to start: " + e.getCause().getMessage(), e);
    }
    return new EmbeddedCluster(system);
  }

  public static EmbeddedCluster start() {
    return start(ConfigFactory.empty());
  }

  private static Behavior<Void> guardian(CompletableFuture<Void> up, Address seed) {
    return Behaviors.setup(context -> {
      Cluster cluster = Cluster.get(context.getSystem());
      context.spawn(Behaviors.<SelfUp>setup(watcher -> {
        cluster.subscriptions().tell(new Subscribe<>(watcher.getSelf(), SelfUp.class));
        return Behaviors.receiveMessage(selfUp -> {
          up.complete(null);
          return Behaviors.stopped();
        });
      }), "self-up-watcher");
      cluster.manager().tell(new Join(seed != null ? seed : cluster.selfMember().address()));
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

  @Override
  public void close() {
    system.terminate();
    try {
      system.getWhenTerminated().toCompletableFuture().get(30, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (ExecutionException | TimeoutException e) {
      // Shutting down is best effort: a run's results are already complete at this point.
    }
  }
}
