package io.fabemu.engine;

import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.Behavior;

/**
 * Tells a distributed run's coordinator about members the cluster finds unreachable: the engine depends on no
 * cluster module, so the caller (cluster-config) supplies this. The coordinator spawns the behavior as its child
 * (so it stops with the run); the behavior sends {@link Coordinator.MemberUnreachable} for every member the
 * cluster's failure detector marks unreachable. The coordinator fails the run when that member hosts one of its
 * schedulers and ignores the others.
 */
@FunctionalInterface
public interface MemberWatcher {

  /** No watcher: only death watch (a scheduler stopped, its node removed from the cluster) detects a loss. */
  MemberWatcher NONE = coordinator -> null;

  /** The watcher's behavior, or null for none. */
  Behavior<?> create(ActorRef<Coordinator.Command> coordinator);
}
