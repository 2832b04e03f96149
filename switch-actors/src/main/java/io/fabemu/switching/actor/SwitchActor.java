package io.fabemu.switching.actor;

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

  public static Behavior<DeviceActor.Command> create(SwitchCore core, ActorRef<MemberScheduler.Command> scheduler) {
    return DeviceActor.create(core, scheduler);
  }
}
