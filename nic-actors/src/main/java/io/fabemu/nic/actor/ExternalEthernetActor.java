package io.fabemu.nic.actor;

import io.fabemu.core.sim.DeviceRunner;
import io.fabemu.engine.DeviceActor;
import io.fabemu.engine.MemberScheduler;
import io.fabemu.nic.ExternalEthernetCore;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.Behavior;

/**
 * The actor of the external Ethernet (its hosts and learning switch). A thin shell: frames, learning and checks live
 * in {@link ExternalEthernetCore}; the window protocol is {@link DeviceActor}'s.
 */
public final class ExternalEthernetActor {
  private ExternalEthernetActor() {}

  /** The actor for the {@link ExternalEthernetCore} {@code runner} drives, reporting to {@code scheduler}. */
  public static Behavior<DeviceActor.Command> create(DeviceRunner runner,
                                                     ActorRef<MemberScheduler.Command> scheduler) {
    return DeviceActor.create(ExternalEthernetCore.class, runner, scheduler);
  }
}
