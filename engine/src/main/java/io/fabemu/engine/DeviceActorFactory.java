package io.fabemu.engine;

import io.fabemu.core.sim.DeviceRunner;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.Behavior;

/**
 * Chooses the actor that drives a device core. The runs of fabemu use {@link #GENERIC} for every device (no device
 * type has an actor of its own); tests pass others, to mix actors or to fail one. Every behavior it returns must
 * speak {@link DeviceActor}'s window protocol: answer each {@link DeviceActor.Tick} with one
 * {@link MemberScheduler.TickDone} and each {@link DeviceActor.CollectReport} with one
 * {@link MemberScheduler.ReportCollected}, both sent to {@code scheduler}. Extending {@link DeviceActor} or
 * delegating to {@link DeviceActor#create} gives that for free.
 */
@FunctionalInterface
public interface DeviceActorFactory {

  /** Drives every core with the generic {@link DeviceActor}. */
  DeviceActorFactory GENERIC = DeviceActor::create;

  /**
   * The behavior of the actor for the core {@code runner} drives ({@link DeviceRunner#core()}); it reports to
   * {@code scheduler}, which shares the runner. The actor must drive this very runner, never a new one over the
   * same core: the runner numbers the device's events, and two runners would number them twice.
   */
  Behavior<DeviceActor.Command> create(DeviceRunner runner, ActorRef<MemberScheduler.Command> scheduler);
}
