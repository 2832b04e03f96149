package io.fabemu.cluster;

import io.fabemu.engine.Coordinator;
import io.fabemu.engine.MemberWatcher;
import org.apache.pekko.actor.Address;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.cluster.ClusterEvent;
import org.apache.pekko.cluster.typed.Cluster;
import org.apache.pekko.cluster.typed.Subscribe;

/**
 * The {@link MemberWatcher} of distributed runs: subscribes to the cluster's reachability events and tells the
 * run's coordinator of every member the failure detector marks unreachable. That is how a member whose JVM died
 * without leaving (SIGKILL, power loss, a cut network) is noticed within a few seconds
 * ({@code pekko.cluster.failure-detector}: heartbeats every second, unreachable after about 3 to 5 s of silence),
 * before anything downs it (the embedded cluster has no downing provider; member processes down an unreachable
 * member only after the split-brain resolver's {@code stable-after}, see {@link MemberSettings}). Death watch on
 * the schedulers stays in place for members that stop, leave or are downed.
 */
final class ReachabilityWatcher {
  private ReachabilityWatcher() {}

  /** The watcher for runs coordinated on a cluster member. */
  static final MemberWatcher CLUSTER = coordinator -> Behaviors.<ClusterEvent.UnreachableMember>setup(context -> {
    Cluster.get(context.getSystem()).subscriptions()
        .tell(new Subscribe<>(context.getSelf(), ClusterEvent.UnreachableMember.class));
    return Behaviors.receiveMessage(unreachable -> {
      Address address = unreachable.member().address();
      coordinator.tell(new Coordinator.MemberUnreachable(address.getHost().orElse(""),
          address.getPort().orElse(0)));
      return Behaviors.same();
    });
  });
}
