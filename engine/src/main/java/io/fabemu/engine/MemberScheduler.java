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
import java.util.TreeMap;
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
 * events, and answers one {@link Coordinator.WindowDone}, which also carries the case results its devices finished
 * in the window (streamed, so that a run cut short still has them). Devices are its children and watched: a device that
 * fails (or stops) is reported once as {@link Coordinator.MemberFailed}.
 *
 * <p>Across members (a placement plan given as {@code memberOfDevice}): the events its devices create for
 * devices hosted elsewhere are collected during the window and sent, at its end, to each other member as
 * {@link EventBatch}es (one per member, split into chunks of at most {@link #MAX_BATCH_EVENTS} events or about
 * {@link #MAX_BATCH_BYTES} bytes so each fits one Artery frame). The Done report says how many events went to
 * each member and the earliest of their times; the coordinator adds up what each member must receive and puts
 * it in the next {@link RunWindow}, which waits until that many events have arrived. Batches may arrive before
 * or after that RunWindow: their events go straight into the calendar (they are due at or after the end of the
 * window that sent them, so never in a window already run), and the calendar's (time, source, sequence) order
 * makes the arrival order irrelevant.
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
   * @param finished case results the device finished in the window ({@link DeviceCore#takeFinishedResults()});
   *                 usually the shared empty list
   */
  public record TickDone(int deviceId, List<Event> outgoing, int handled, long progress,
                         List<DeviceReport.RankResult> finished) implements Command {}

  /** Coordinator to member, after the last window: gather the reports of every hosted device. */
  public enum CollectReports implements Command { INSTANCE }

  /** Device to scheduler: its report, answering {@link DeviceActor.CollectReport}. */
  public record ReportCollected(int deviceId, DeviceReport report) implements Command {}

  /**
   * Coordinator to member, once before {@link Inject}: the schedulers of the run, indexed by member id (an
   * ArrayList, this member included).
   */
  public record Peers(List<ActorRef<Command>> schedulers) implements Command {}

  /**
   * Member to member: events (an ArrayList) for devices the receiver hosts, created in window
   * {@code windowIndex} of the sender (Inject is window 0, the n-th RunWindow window n).
   */
  public record EventBatch(int fromMember, long windowIndex, List<Event> events) implements Command {}

  /** Coordinator to member, after the run (or its failure): stop this scheduler and its devices. */
  public enum Stop implements Command { INSTANCE }

  /** Most events in one {@link EventBatch}. */
  public static final int MAX_BATCH_EVENTS = 1_000;

  /** About the most payload bytes in one {@link EventBatch} (see {@link EventSizes}); below Artery's frame. */
  public static final long MAX_BATCH_BYTES = 1L << 20;

  private enum Phase { IDLE, WAITING, WINDOW, REPORTS }

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
  /** The member of each device id; null when every device is local (a one-member run). */
  private final int[] memberOfDevice;
  /** Schedulers by member id, once {@link Peers} arrived. */
  private List<ActorRef<Command>> peers;
  /** Events for other members collected in the current window, by member id. */
  private final ArrayList<Event>[] outbound;
  /** Index of the last window started (Inject is 0). */
  private long windowIndex;
  /** Events received from other members, by the sender's window index; entries are dropped once used. */
  private final TreeMap<Long, Long> receivedByWindow = new TreeMap<>();
  /** Case results the devices finished in the current window; null when none (no allocation per window). */
  private ArrayList<DeviceReport.RankResult> finishedInWindow;
  /** A RunWindow waiting for inbound events, or null. */
  private RunWindow waitingWindow;

  /**
   * @param memberId    this member's index in the run
   * @param memberCount members in the run (sizes the per-member counters of the Done report)
   * @param devices     cores indexed by device id; only the ones this member hosts are non-null
   * @param factory     picks the actor per device
   * @param coordinator receives the Done, report and failure messages
   */
  public static Behavior<Command> create(int memberId, int memberCount, DeviceCore[] devices,
                                         DeviceActorFactory factory, ActorRef<Coordinator.Command> coordinator) {
    return create(memberId, memberCount, devices, null, factory, coordinator);
  }

  /**
   * A scheduler of a run spread over several members.
   *
   * @param memberOfDevice the member of every device id (the placement plan); null when every device is local
   * @see #create(int, int, DeviceCore[], DeviceActorFactory, ActorRef)
   */
  public static Behavior<Command> create(int memberId, int memberCount, DeviceCore[] devices, int[] memberOfDevice,
                                         DeviceActorFactory factory, ActorRef<Coordinator.Command> coordinator) {
    if (memberOfDevice != null) {
      for (int id = 0; id < devices.length; id++) {
        if (devices[id] != null && (id >= memberOfDevice.length || memberOfDevice[id] != memberId)) {
          throw new IllegalArgumentException("member " + memberId + " was given device " + id
              + ", which the placement plan puts elsewhere");
        }
      }
    }
    return Behaviors.setup(context -> new MemberScheduler(context, memberId, memberCount, devices,
        memberOfDevice == null ? null : memberOfDevice.clone(), factory, coordinator));
  }

  @SuppressWarnings("unchecked")
  private MemberScheduler(ActorContext<Command> context, int memberId, int memberCount, DeviceCore[] cores,
                          int[] memberOfDevice, DeviceActorFactory factory,
                          ActorRef<Coordinator.Command> coordinator) {
    super(context);
    this.memberId = memberId;
    this.memberCount = memberCount;
    this.coordinator = coordinator;
    this.memberOfDevice = memberOfDevice;
    this.outbound = (ArrayList<Event>[]) new ArrayList<?>[memberCount];
    for (int m = 0; m < memberCount; m++) {
      outbound[m] = new ArrayList<>();
    }
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
        .onMessage(Peers.class, this::onPeers)
        .onMessage(EventBatch.class, this::onEventBatch)
        .onMessageEquals(Stop.INSTANCE, Behaviors::stopped)
        .onSignal(ChildFailed.class, this::onDeviceFailed)
        .onSignal(Terminated.class, this::onDeviceStopped)
        .build();
  }

  private Behavior<Command> onInject(Inject inject) {
    expectPhase(Phase.IDLE, "Inject");
    for (Event event : inject.events()) {
      if (!isLocal(event.targetDevice())) {
        throw new IllegalStateException("member " + memberId + " was injected an event for device "
            + event.targetDevice() + ", which it does not host: " + event);
      }
    }
    calendar.addAll(inject.events());
    coordinator.tell(doneReport(0L, new long[memberCount], Long.MAX_VALUE));
    return this;
  }

  private Behavior<Command> onPeers(Peers message) {
    if (message.schedulers().size() != memberCount) {
      throw new IllegalStateException("member " + memberId + " got " + message.schedulers().size()
          + " peers for a run of " + memberCount + " members");
    }
    peers = List.copyOf(message.schedulers());
    return this;
  }

  private Behavior<Command> onEventBatch(EventBatch batch) {
    if (batch.windowIndex() < windowIndex) {
      // Window windowIndex needed these; it already ran, so a count was wrong: never run on silently.
      throw new IllegalStateException("member " + memberId + " got " + batch.events().size()
          + " event(s) from member " + batch.fromMember() + " of window " + batch.windowIndex()
          + " after its window " + windowIndex + " started");
    }
    for (Event event : batch.events()) {
      if (!isLocal(event.targetDevice())) {
        throw new IllegalStateException("member " + memberId + " got an event from member " + batch.fromMember()
            + " for device " + event.targetDevice() + ", which it does not host: " + event);
      }
    }
    calendar.addAll(batch.events());
    receivedByWindow.merge(batch.windowIndex(), (long) batch.events().size(), Long::sum);
    if (phase == Phase.WAITING) {
      tryStartWindow();
    }
    return this;
  }

  private Behavior<Command> onRunWindow(RunWindow window) {
    expectPhase(Phase.IDLE, "RunWindow");
    waitingWindow = window;
    phase = Phase.WAITING;
    tryStartWindow();
    return this;
  }

  /** Starts the waiting window once every event other members sent in the previous window is here. */
  private void tryStartWindow() {
    RunWindow window = waitingWindow;
    long received = receivedByWindow.getOrDefault(windowIndex, 0L);
    if (received < window.inboundEvents()) {
      return;
    }
    if (received > window.inboundEvents()) {
      throw new IllegalStateException("member " + memberId + " received " + received + " events of window "
          + windowIndex + " but was told to expect " + window.inboundEvents());
    }
    receivedByWindow.remove(windowIndex);
    waitingWindow = null;
    windowIndex++;
    phase = Phase.WINDOW;
    windowStartPs = window.startPs();
    windowEndPs = window.endPs();
    windowEvents = 0L;
    pendingReplies = 0;
    calendar.drainWindow(windowEndPs, tickSender);
    if (pendingReplies == 0) {
      finishWindow();
    }
  }

  private boolean isLocal(int deviceId) {
    return memberOfDevice == null
        || (deviceId >= 0 && deviceId < memberOfDevice.length && memberOfDevice[deviceId] == memberId);
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
    if (memberOfDevice == null) {
      calendar.addAll(done.outgoing());
    } else {
      List<Event> outgoing = done.outgoing();
      for (int i = 0, n = outgoing.size(); i < n; i++) {
        Event event = outgoing.get(i);
        int target = event.targetDevice();
        int member = target >= 0 && target < memberOfDevice.length ? memberOfDevice[target] : -1;
        if (member == memberId) {
          calendar.add(event);
        } else if (member >= 0) {
          outbound[member].add(event);
        } else {
          throw new IllegalStateException("device " + done.deviceId() + " sent an event to unknown device "
              + target + ": " + event);
        }
      }
    }
    windowEvents += done.handled();
    List<DeviceReport.RankResult> finished = done.finished();
    if (!finished.isEmpty()) {
      if (finishedInWindow == null) {
        finishedInWindow = new ArrayList<>();
      }
      finishedInWindow.addAll(finished);
    }
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
    long[] sent = new long[memberCount];
    long earliestSent = Long.MAX_VALUE;
    for (int m = 0; m < memberCount; m++) {
      ArrayList<Event> events = outbound[m];
      if (events.isEmpty()) {
        continue;
      }
      if (peers == null) {
        throw new IllegalStateException("member " + memberId + " has events for member " + m
            + " but was never told its peers");
      }
      for (int i = 0, n = events.size(); i < n; i++) {
        earliestSent = Math.min(earliestSent, events.get(i).timePs());
      }
      sendBatches(m, events);
      sent[m] = events.size();
      outbound[m] = new ArrayList<>();
    }
    coordinator.tell(doneReport(windowEvents, sent, earliestSent));
  }

  /** Sends {@code events} to member {@code m} in chunks that each fit one Artery frame. */
  private void sendBatches(int m, ArrayList<Event> events) {
    ActorRef<Command> peer = peers.get(m);
    for (ArrayList<Event> chunk : chunks(events, MAX_BATCH_EVENTS, MAX_BATCH_BYTES)) {
      peer.tell(new EventBatch(memberId, windowIndex, chunk));
    }
  }

  /**
   * Cuts {@code events} into consecutive chunks of at most {@code maxEvents} events and about {@code maxBytes}
   * estimated bytes each (a single larger event gets a chunk of its own).
   */
  static List<ArrayList<Event>> chunks(List<Event> events, int maxEvents, long maxBytes) {
    List<ArrayList<Event>> chunks = new ArrayList<>();
    int from = 0;
    int n = events.size();
    while (from < n) {
      int to = from;
      long bytes = 0L;
      while (to < n && to - from < maxEvents) {
        long size = EventSizes.estimate(events.get(to));
        if (to > from && bytes + size > maxBytes) {
          break;
        }
        bytes += size;
        to++;
      }
      chunks.add(new ArrayList<>(events.subList(from, to)));
      from = to;
    }
    return chunks;
  }

  private Coordinator.WindowDone doneReport(long eventsHandled, long[] sent, long earliestSentPs) {
    List<DeviceReport.RankResult> finished = finishedInWindow == null ? List.of() : finishedInWindow;
    finishedInWindow = null;
    return new Coordinator.WindowDone(memberId, calendar.nextTimePs(), eventsHandled, progressSum, sent,
        earliestSentPs, finished);
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
      case WAITING -> "while waiting for events from other members";
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
