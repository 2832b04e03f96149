package io.fabemu.engine;

import io.fabemu.core.engine.DeviceCore;
import io.fabemu.core.engine.DeviceReport;
import io.fabemu.core.engine.Event;
import io.fabemu.core.engine.EventCalendar;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.ChildFailed;
import org.apache.pekko.actor.typed.Terminated;
import org.apache.pekko.actor.typed.javadsl.AbstractBehavior;
import org.apache.pekko.actor.typed.javadsl.ActorContext;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.actor.typed.javadsl.Receive;

/**
 * The scheduler of one cluster member: owns the pending events of the devices the member hosts and runs them
 * through the windows the {@link Coordinator} opens.
 *
 * <p>Contract per window: on {@link RunWindow} it drains the events due before the window's end, sends each
 * device with events one {@link DeviceActor.Tick}, waits for every {@link TickDone}, files the devices' new
 * events, and answers one {@link Coordinator.WindowDone}. Devices are its children and watched: a device that
 * fails (or stops) is reported once as {@link Coordinator.MemberFailed}.
 *
 * <p>Today a run has one member and every event is local. The Done report already carries, per destination
 * member, how many events this member sent there, and {@link RunWindow} how many it must receive before
 * starting: the hooks for batching cross-member events per window.
 */
public final class MemberScheduler extends AbstractBehavior<MemberScheduler.Command> {

  /** Messages a member scheduler accepts. */
  public interface Command extends WireMessage {}

  /** Coordinator to member, once at the start: file these initial events (an ArrayList), then answer Done. */
  public record Inject(List<Event> events) implements Command {}

  /**
   * Coordinator to member: run window [startPs, endPs).
   *
   * @param inboundEvents events other members sent to this one in the previous window, which must have arrived
   *                      before the window runs (always 0 while runs have one member)
   */
  public record RunWindow(long startPs, long endPs, long inboundEvents) implements Command {}

  /**
   * Device to scheduler: a {@link DeviceActor.Tick} is done.
   *
   * @param outgoing the events the device created that are due at or after the window's end (an ArrayList)
   * @param handled  events handled in the window, self-events included
   * @param progress the device's cumulative progress ({@link DeviceCore#progress()})
   */
  public record TickDone(int deviceId, List<Event> outgoing, int handled, long progress) implements Command {}

  /** Coordinator to member, after the last window: gather the reports of every hosted device. */
  public enum CollectReports implements Command { INSTANCE }

  /** Device to scheduler: its report, answering {@link DeviceActor.CollectReport}. */
  public record ReportCollected(int deviceId, DeviceReport report) implements Command {}

  private enum Phase { IDLE, WINDOW, REPORTS }

  private final int memberId;
  private final int memberCount;
  private final ActorRef<Coordinator.Command> coordinator;
  private final EventCalendar calendar = new EventCalendar();
  /** Hosted device actors indexed by device id; null for ids hosted elsewhere or unused. */
  private final ActorRef<DeviceActor.Command>[] devices;
  private final int hostedDevices;
  private final Map<ActorRef<?>, Integer> deviceIdsByRef = new HashMap<>();
  /** Last cumulative progress each device reported, to keep {@link #progressSum} without a sweep per window. */
  private final long[] lastProgress;
  // A bound method reference kept in a field: drainWindow gets the same object every window, no allocation.
  private final EventCalendar.BatchConsumer tickSender = this::sendTick;

  private Phase phase = Phase.IDLE;
  private long windowStartPs;
  private long windowEndPs;
  private int pendingReplies;
  private long windowEvents;
  private long progressSum;
  private List<DeviceReport> reports;
  private boolean failureReported;

  /**
   * @param memberId    this member's index in the run
   * @param memberCount members in the run (sizes the per-member counters of the Done report)
   * @param devices     cores indexed by device id; only the ones this member hosts are non-null
   * @param factory     picks the actor per device
   * @param coordinator receives the Done, report and failure messages
   */
  public static Behavior<Command> create(int memberId, int memberCount, DeviceCore[] devices,
                                         DeviceActorFactory factory, ActorRef<Coordinator.Command> coordinator) {
    return Behaviors.setup(context -> new MemberScheduler(context, memberId, memberCount, devices, factory,
        coordinator));
  }

  @SuppressWarnings("unchecked")
  private MemberScheduler(ActorContext<Command> context, int memberId, int memberCount, DeviceCore[] cores,
                          DeviceActorFactory factory, ActorRef<Coordinator.Command> coordinator) {
    super(context);
    this.memberId = memberId;
    this.memberCount = memberCount;
    this.coordinator = coordinator;
    this.devices = (ActorRef<DeviceActor.Command>[]) new ActorRef<?>[cores.length];
    this.lastProgress = new long[cores.length];
    int hosted = 0;
    for (int id = 0; id < cores.length; id++) {
      if (cores[id] != null) {
        ActorRef<DeviceActor.Command> device =
            context.spawn(factory.create(cores[id], context.getSelf()), "device-" + id);
        context.watch(device);
        devices[id] = device;
        deviceIdsByRef.put(device, id);
        hosted++;
      }
    }
    this.hostedDevices = hosted;
  }

  @Override
  public Receive<Command> createReceive() {
    return newReceiveBuilder()
        .onMessage(Inject.class, this::onInject)
        .onMessage(RunWindow.class, this::onRunWindow)
        .onMessage(TickDone.class, this::onTickDone)
        .onMessageEquals(CollectReports.INSTANCE, this::onCollectReports)
        .onMessage(ReportCollected.class, this::onReportCollected)
        .onSignal(ChildFailed.class, this::onDeviceFailed)
        .onSignal(Terminated.class, this::onDeviceStopped)
        .build();
  }

  private Behavior<Command> onInject(Inject inject) {
    expectPhase(Phase.IDLE, "Inject");
    calendar.addAll(inject.events());
    coordinator.tell(doneReport(0L));
    return this;
  }

  private Behavior<Command> onRunWindow(RunWindow window) {
    expectPhase(Phase.IDLE, "RunWindow");
    if (window.inboundEvents() != 0) {
      throw new IllegalStateException("member " + memberId + " was told to expect " + window.inboundEvents()
          + " events from other members; cross-member delivery is not wired into this scheduler yet");
    }
    phase = Phase.WINDOW;
    windowStartPs = window.startPs();
    windowEndPs = window.endPs();
    windowEvents = 0L;
    pendingReplies = 0;
    calendar.drainWindow(windowEndPs, tickSender);
    if (pendingReplies == 0) {
      finishWindow();
    }
    return this;
  }

  private void sendTick(int id, List<Event> events) {
    ActorRef<DeviceActor.Command> device = id >= 0 && id < devices.length ? devices[id] : null;
    if (device == null) {
      throw new IllegalStateException("member " + memberId + " has " + events.size() + " event(s) for device "
          + id + ", which it does not host (first: " + events.get(0) + ")");
    }
    device.tell(new DeviceActor.Tick(windowEndPs, events));
    pendingReplies++;
  }

  private Behavior<Command> onTickDone(TickDone done) {
    expectPhase(Phase.WINDOW, "TickDone");
    calendar.addAll(done.outgoing());
    windowEvents += done.handled();
    int id = done.deviceId();
    progressSum += done.progress() - lastProgress[id];
    lastProgress[id] = done.progress();
    if (--pendingReplies == 0) {
      finishWindow();
    }
    return this;
  }

  private void finishWindow() {
    phase = Phase.IDLE;
    coordinator.tell(doneReport(windowEvents));
  }

  private Coordinator.WindowDone doneReport(long eventsHandled) {
    // All events are local today, so nothing was sent to other members.
    return new Coordinator.WindowDone(memberId, calendar.nextTimePs(), eventsHandled, progressSum,
        new long[memberCount]);
  }

  private Behavior<Command> onCollectReports() {
    expectPhase(Phase.IDLE, "CollectReports");
    phase = Phase.REPORTS;
    reports = new ArrayList<>(hostedDevices);
    pendingReplies = hostedDevices;
    if (pendingReplies == 0) {
      sendReports();
      return this;
    }
    for (ActorRef<DeviceActor.Command> device : devices) {
      if (device != null) {
        device.tell(DeviceActor.CollectReport.INSTANCE);
      }
    }
    return this;
  }

  private Behavior<Command> onReportCollected(ReportCollected collected) {
    expectPhase(Phase.REPORTS, "ReportCollected");
    reports.add(collected.report());
    if (--pendingReplies == 0) {
      sendReports();
    }
    return this;
  }

  private void sendReports() {
    reports.sort(Comparator.comparingInt(DeviceReport::deviceId));
    coordinator.tell(new Coordinator.MemberReports(memberId, new ArrayList<>(reports)));
    reports = null;
    phase = Phase.IDLE;
  }

  private Behavior<Command> onDeviceFailed(ChildFailed failed) {
    Throwable cause = failed.getCause();
    reportFailure(failed.getRef(), "failed " + during() + ": " + cause);
    return this;
  }

  private Behavior<Command> onDeviceStopped(Terminated terminated) {
    reportFailure(terminated.getRef(), "stopped unexpectedly " + during());
    return this;
  }

  private void reportFailure(ActorRef<?> ref, String what) {
    if (failureReported) {
      return;  // the first failure is the one to explain; the run is over anyway
    }
    failureReported = true;
    Integer deviceId = deviceIdsByRef.get(ref);
    String who = deviceId == null ? "actor " + ref.path() : "device " + deviceId;
    // The member keeps running so that this message reaches the coordinator before any stop notice would.
    coordinator.tell(new Coordinator.MemberFailed(memberId, who + " " + what));
  }

  private String during() {
    return switch (phase) {
      case WINDOW -> "in window [" + windowStartPs + ", " + windowEndPs + ") ps";
      case REPORTS -> "while reporting";
      case IDLE -> "between windows";
    };
  }

  private void expectPhase(Phase expected, String message) {
    if (phase != expected) {
      throw new IllegalStateException("member " + memberId + " got " + message + " in phase " + phase
          + " (expected " + expected + ")");
    }
  }
}
