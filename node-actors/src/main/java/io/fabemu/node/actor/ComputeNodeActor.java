package io.fabemu.node.actor;

import io.fabemu.core.sim.DeviceRunner;
import io.fabemu.engine.DeviceActor;
import io.fabemu.engine.MemberScheduler;
import io.fabemu.node.ComputeNodeCore;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.Behavior;

/**
 * The actor of a compute node. A thin shell: its ranks, their collectives and the memory model live in
 * {@link ComputeNodeCore}; the window protocol is {@link DeviceActor}'s.
 */
public final class ComputeNodeActor {
  private ComputeNodeActor() {}

  /** The actor for the {@link ComputeNodeCore} {@code runner} drives, reporting to {@code scheduler}. */
  public static Behavior<DeviceActor.Command> create(DeviceRunner runner,
                                                     ActorRef<MemberScheduler.Command> scheduler) {
    return DeviceActor.create(ComputeNodeCore.class, runner, scheduler);
  }
}
