package io.fabemu.engine;

import io.fabemu.core.sim.DeviceCore;
import io.fabemu.core.sim.DeviceRunner;
import io.fabemu.core.sim.Event;
import java.util.ArrayList;
import java.util.List;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.javadsl.AbstractBehavior;
import org.apache.pekko.actor.typed.javadsl.ActorContext;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.actor.typed.javadsl.Receive;
import org.apache.pekko.actor.typed.javadsl.ReceiveBuilder;

/**
 * Thin actor shell over one {@link DeviceCore}: all device logic lives in the core, and the window rules live in
 * {@link DeviceRunner}, so this actor handles events exactly as the plain {@link io.fabemu.core.sim.WindowedEngine}
 * does.
 *
 * <p>Contract: each {@link Tick} is answered with exactly one {@link MemberScheduler.TickDone} to the scheduler
 * given at creation; {@link CollectReport} with one {@link MemberScheduler.ReportCollected}. A core that throws
 * fails (stops) the actor; its scheduler watches it and fails the run. The {@link DeviceRunner} is the scheduler's,
 * shared: the scheduler runs the device's small windows itself and sends the actor ticks for the large ones, never
 * both at once (see {@link MemberScheduler}). So {@link #onTick} sees only the windows that fan out: a subclass
 * must not rely on it for every window.
 *
 * <p>It serves every device ({@link DeviceActorFactory#GENERIC}): the device modules hold plain cores and no actor.
 * A device that needed commands of its own could extend it: a subclass adds them (implementing {@link Command}) to
 * {@link #windowReceive()} in its {@link #createReceive()}.
 */
public class DeviceActor extends AbstractBehavior<DeviceActor.Command> {

  /** Messages a device actor accepts. Not sealed: device modules may add their own. */
  public interface Command extends WireMessage {}

  /**
   * Handle the window ending at {@code windowEndPs} (exclusive).
   *
   * @param events this device's events due in the window, in (time, source, sequence) order; an ArrayList
   */
  public record Tick(long windowEndPs, List<Event> events) implements Command {}

  /** Send the core's {@link io.fabemu.core.sim.DeviceReport} to the scheduler (after the last window). */
  public enum CollectReport implements Command { INSTANCE }

  private final DeviceCore core;
  private final DeviceRunner runner;
  private final int deviceId;
  private final ActorRef<MemberScheduler.Command> scheduler;
  /** Largest presized outgoing list: a tick that sent more (a huge message cut up) grows its own list. */
  private static final int MAX_OUTGOING_CAPACITY = 4_096;
  /** Capacity of the next tick's outgoing list: the most any tick sent so far, up to the cap. */
  private int outgoingCapacity = 4;

  /** The generic device actor for the core {@code runner} drives, reporting to {@code scheduler}. */
  public static Behavior<Command> create(DeviceRunner runner, ActorRef<MemberScheduler.Command> scheduler) {
    return Behaviors.setup(context -> new DeviceActor(context, runner, scheduler));
  }

  protected DeviceActor(ActorContext<Command> context, DeviceRunner runner,
                        ActorRef<MemberScheduler.Command> scheduler) {
    super(context);
    this.core = runner.core();
    this.runner = runner;
    this.deviceId = core.deviceId();
    this.scheduler = scheduler;
  }

  @Override
  public Receive<Command> createReceive() {
    return windowReceive().build();
  }

  /** A builder that already handles {@link Tick} and {@link CollectReport}; subclasses add their commands. */
  protected final ReceiveBuilder<Command> windowReceive() {
    return newReceiveBuilder()
        .onMessage(Tick.class, this::onTick)
        .onMessageEquals(CollectReport.INSTANCE, this::onCollectReport);
  }

  protected final DeviceCore core() {
    return core;
  }

  protected final int deviceId() {
    return deviceId;
  }

  protected Behavior<Command> onTick(Tick tick) {
    // A fresh list per tick: it is handed over to the scheduler inside TickDone and must not be reused. Sized as the
    // largest one so far, so that a NIC cutting a large message into many segments does not grow it step by step.
    ArrayList<Event> outgoing = new ArrayList<>(outgoingCapacity);
    int handled = runner.runWindow(tick.events(), tick.windowEndPs(), outgoing);
    outgoingCapacity = Math.min(MAX_OUTGOING_CAPACITY, Math.max(outgoingCapacity, outgoing.size()));
    scheduler.tell(new MemberScheduler.TickDone(deviceId, outgoing, handled, core.progress(),
        core.takeFinishedResults()));
    return this;
  }

  protected Behavior<Command> onCollectReport() {
    scheduler.tell(new MemberScheduler.ReportCollected(deviceId, core.report(), runner.lastEventTimePs()));
    return this;
  }
}
