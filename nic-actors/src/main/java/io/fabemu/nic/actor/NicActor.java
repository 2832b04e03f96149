package io.fabemu.nic.actor;

import io.fabemu.core.sim.DeviceRunner;
import io.fabemu.engine.DeviceActor;
import io.fabemu.engine.MemberScheduler;
import io.fabemu.nic.NicCore;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.Behavior;

/**
 * The actor of a NIC. A thin shell: segmentation, reassembly and transit relaying live in {@link NicCore}; the window
 * protocol is {@link DeviceActor}'s.
 */
public final class NicActor {
  private NicActor() {}

  /** The actor for the {@link NicCore} {@code runner} drives, reporting to {@code scheduler}. */
  public static Behavior<DeviceActor.Command> create(DeviceRunner runner,
                                                     ActorRef<MemberScheduler.Command> scheduler) {
    return DeviceActor.create(NicCore.class, runner, scheduler);
  }
}
