package io.fabemu.engine;

import io.fabemu.core.sim.DeviceCore;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.Behavior;

/**
 * Chooses the actor that drives a device core, so the assembler can pick one per device type (compute node, NIC,
 * switch). Every behavior it returns must speak {@link DeviceActor}'s window protocol: answer each
 * {@link DeviceActor.Tick} with one {@link MemberScheduler.TickDone} and each {@link DeviceActor.CollectReport}
 * with one {@link MemberScheduler.ReportCollected}, both sent to {@code scheduler}. Extending {@link DeviceActor}
 * or delegating to {@link DeviceActor#create} gives that for free.
 */
@FunctionalInterface
public interface DeviceActorFactory {

  /** Drives every core with the generic {@link DeviceActor}. */
  DeviceActorFactory GENERIC = DeviceActor::create;

  /** The behavior of the actor for {@code core}; it reports to {@code scheduler}. */
  Behavior<DeviceActor.Command> create(DeviceCore core, ActorRef<MemberScheduler.Command> scheduler);
}
