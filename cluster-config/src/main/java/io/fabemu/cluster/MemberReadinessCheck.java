package io.fabemu.cluster;

import io.fabemu.engine.MemberAgent;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.Supplier;
import org.apache.pekko.actor.ActorSystem;
import org.apache.pekko.actor.typed.javadsl.Adapter;
import org.apache.pekko.actor.typed.javadsl.AskPattern;
import org.apache.pekko.actor.typed.receptionist.Receptionist;
import org.apache.pekko.cluster.MemberStatus;
import org.apache.pekko.cluster.typed.Cluster;

/**
 * The readiness check of a member's management endpoint ({@code GET /ready}, configured in
 * {@code fabemu-cluster.conf}; Pekko Management creates it with the member's actor system): ready when this member
 * is Up in the cluster and its {@link MemberAgent} is registered with the receptionist, i.e. a coordinator that
 * starts a run now finds it.
 *
 * <p>Contract: never throws; answers false while joining, after leaving, or when the receptionist does not answer
 * within a second.
 */
public final class MemberReadinessCheck implements Supplier<CompletionStage<Boolean>> {
  private static final Duration ASK_TIMEOUT = Duration.ofSeconds(1);

  private final org.apache.pekko.actor.typed.ActorSystem<Void> system;

  /** The check of {@code system}'s member (the constructor Pekko Management calls). */
  public MemberReadinessCheck(ActorSystem system) {
    this.system = Adapter.toTyped(system);
  }

  @Override
  public CompletionStage<Boolean> get() {
    if (Cluster.get(system).selfMember().status() != MemberStatus.up()) {
      return CompletableFuture.completedFuture(false);
    }
    return AskPattern.<Receptionist.Command, Receptionist.Listing>ask(system.receptionist(),
            replyTo -> Receptionist.find(MemberAgent.SERVICE_KEY, replyTo), ASK_TIMEOUT, system.scheduler())
        .thenApply(listing -> listing.getServiceInstances(MemberAgent.SERVICE_KEY).stream()
            .anyMatch(agent -> agent.path().address().hasLocalScope()))
        .exceptionally(failure -> false);
  }
}
