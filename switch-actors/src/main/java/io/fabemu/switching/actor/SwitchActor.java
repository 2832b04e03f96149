package io.fabemu.switching.actor;

import io.fabemu.core.sim.DeviceRunner;
import io.fabemu.engine.DeviceActor;
import io.fabemu.engine.MemberScheduler;
import io.fabemu.switching.SwitchCore;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.Behavior;

/**
 * The actor of a packet switch. A thin shell: forwarding, queues and counters live in {@link SwitchCore}; the window
 * protocol is {@link DeviceActor}'s.
 */
public final class SwitchActor {
  private SwitchActor() {}

  /** The actor for the {@link SwitchCore} {@code runner} drives, reporting to {@code scheduler}. */
  public static Behavior<DeviceActor.Command> create(DeviceRunner runner,
                                                     ActorRef<MemberScheduler.Command> scheduler) {
    return DeviceActor.create(SwitchCore.class, runner, scheduler);
  }
}
