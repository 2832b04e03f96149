package io.fabemu.switching.actor;

import io.fabemu.core.sim.DeviceRunner;
import io.fabemu.engine.DeviceActor;
import io.fabemu.engine.MemberScheduler;
import io.fabemu.switching.router.RouterCore;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.Behavior;

/**
 * The actor of a router-network router. A thin shell: buffers, allocators and credits live in {@link RouterCore};
 * the window protocol is {@link DeviceActor}'s.
 */
public final class RouterActor {
  private RouterActor() {}

  /** The actor for the {@link RouterCore} {@code runner} drives, reporting to {@code scheduler}. */
  public static Behavior<DeviceActor.Command> create(DeviceRunner runner,
                                                     ActorRef<MemberScheduler.Command> scheduler) {
    return DeviceActor.create(RouterCore.class, runner, scheduler);
  }
}
