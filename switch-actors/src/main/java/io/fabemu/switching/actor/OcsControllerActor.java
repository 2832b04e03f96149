package io.fabemu.switching.actor;

import io.fabemu.core.sim.DeviceRunner;
import io.fabemu.engine.DeviceActor;
import io.fabemu.engine.MemberScheduler;
import io.fabemu.switching.optical.OcsControllerCore;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.Behavior;

/**
 * The actor of the optical circuit switch's controller. A thin shell: the circuits' setup lives in
 * {@link OcsControllerCore}; the window protocol is {@link DeviceActor}'s.
 */
public final class OcsControllerActor {
  private OcsControllerActor() {}

  /** The actor for the {@link OcsControllerCore} {@code runner} drives, reporting to {@code scheduler}. */
  public static Behavior<DeviceActor.Command> create(DeviceRunner runner,
                                                     ActorRef<MemberScheduler.Command> scheduler) {
    return DeviceActor.create(OcsControllerCore.class, runner, scheduler);
  }
}
