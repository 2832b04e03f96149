package io.fabemu.node.actor;

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

  public static Behavior<DeviceActor.Command> create(ComputeNodeCore core,
                                                     ActorRef<MemberScheduler.Command> scheduler) {
    return DeviceActor.create(core, scheduler);
  }
}
