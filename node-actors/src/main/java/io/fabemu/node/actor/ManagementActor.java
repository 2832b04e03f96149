package io.fabemu.node.actor;

import io.fabemu.core.sim.DeviceRunner;
import io.fabemu.engine.DeviceActor;
import io.fabemu.engine.MemberScheduler;
import io.fabemu.node.management.ManagementCore;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.Behavior;

/**
 * The actor of the management node of a run with faults. A thin shell: views, detours and updates live in
 * {@link ManagementCore}; the window protocol is {@link DeviceActor}'s.
 */
public final class ManagementActor {
  private ManagementActor() {}

  /** The actor for the {@link ManagementCore} {@code runner} drives, reporting to {@code scheduler}. */
  public static Behavior<DeviceActor.Command> create(DeviceRunner runner,
                                                     ActorRef<MemberScheduler.Command> scheduler) {
    return DeviceActor.create(ManagementCore.class, runner, scheduler);
  }
}
