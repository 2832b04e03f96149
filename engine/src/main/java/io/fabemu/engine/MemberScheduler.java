package io.fabemu.engine;

import io.fabemu.core.sim.DeviceCore;
import io.fabemu.core.sim.DeviceReport;
import io.fabemu.core.sim.DeviceRunner;
import io.fabemu.core.sim.Event;
import io.fabemu.core.sim.EventCalendar;
import io.fabemu.core.sim.ModelVerdict;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.ToLongFunction;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.ChildFailed;
import org.apache.pekko.actor.typed.PostStop;
import org.apache.pekko.actor.typed.Terminated;
import org.apache.pekko.actor.typed.javadsl.AbstractBehavior;
import org.apache.pekko.actor.typed.javadsl.ActorContext;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.actor.typed.javadsl.Receive;

/**
 * The scheduler of one cluster member: owns the pending events of the devices the member hosts and runs them
 * through global windows, each cut into local sub-windows.
 *
 * <p><b>Two levels of windows.</b> A global window [T, E) has length {@code windowPs}, the cross-member lookahead
 * (no event a device sends to another member is due less than that after the event that caused it); with one
 * member it is the local lookahead. Inside it the member runs local sub-windows of the local lookahead, exactly as
 * the plain engine's windows: at the earliest pending local time S it drains [S, min(S + lookahead, E)) into one
 * {@link DeviceActor.Tick} per device with events, waits for every {@link TickDone}, files the events for local
 * devices in its calendar (they are due at or after the sub-window's end) and collects those for other members
 * (due at or after E, which it checks); it repeats until its next event is at or after E. Every device therefore
 * gets the same events in the same (time, source, sequence) order as in the plain engine, however the windows fall.
 *
 * <p><b>Between global windows</b> (no coordinator round trip): at the end of global window k the member sends every
 * other member a {@link PeerDone} (its next event time, the earliest event it sent to any member, how many events
 * it sent to that member) carrying the events for that member's devices, cut into chunks of at most
 * {@link #MAX_BATCH_EVENTS} events or about {@link #MAX_BATCH_BYTES} bytes so each fits one Artery frame: all but
 * the last chunk go ahead as {@link EventBatch}es, the last rides in the PeerDone. Once a member has the done
 * reports of every member for window k (its own included), all of them compute the same next window: T = the
 * minimum of every member's next event and earliest sent event, [T, T + windowPs); none when T is infinite (the run
 * is over, the coordinator then collects the reports). Every {@link #SUMMARY_EVERY}th window and after the last,
 * each member sends the coordinator a {@link Coordinator.WindowsDone} (events, progress, the case results finished
 * since its previous one, whether the run is over); the coordinator only observes (progress, partial results,
 * member loss, stalls, the end). It starts the window once the events the others reported sending it have
 * arrived. Batches and peer reports may arrive before the member finished window k (a peer can be at most one
 * window ahead): events go straight into the calendar (they are due at or after the end of window k, so never in
 * a window already run), reports are kept by window index, and the calendar's order makes arrival order
 * irrelevant. {@link Inject} counts as window 0. For flow control a member runs at most {@link #MAX_WINDOWS_AHEAD}
 * windows beyond the last one the coordinator acknowledged ({@link WindowsSeen}).
 *
 * <p><b>Where a sub-window runs.</b> A sub-window whose events make devices copy or reduce at least
 * {@code fabemu.engine.fan-out-min-data-bytes} of data ({@link io.fabemu.core.protocol.Payload#dataWorkBytes()}; a
 * delivered 1 MiB message, say), at least {@code fan-out-min-data-bytes-per-device} per device on average, and
 * reach two devices or more (any number when {@code fan-out-min-data-bytes} is 0) fans out: one
 * {@link DeviceActor.Tick} per device, run in parallel by the device actors. A smaller one, the common case (a few
 * events per device, each a few hundred nanoseconds of work), runs here, device after device, through the same
 * {@link DeviceRunner} the device's actor uses: two messages per device would cost more than the work. Either way
 * every device handles the same events in the same order, so the results do not depend on the choice; the runner
 * of a device is only ever used by one thread at a time (the scheduler runs a device only while none of its ticks
 * is out, and messages order the hand-overs).
 *
 * <p>Devices are its children and watched: a device that fails (or stops) is reported once as
 * {@link Coordinator.MemberFailed}, as is a device that sends to another member below the cross-member lookahead.
 *
 * <p>Past 500 lines on purpose: this is one actor's state machine (the phases, the global-window protocol with its
 * peers and the coordinator, and the three ways a sub-window runs), whose handlers all read and write the same
 * window state; the parts that do not need it live apart ({@link PartitionedWindows}, {@link WindowWorkers},
 * {@link EventSizes}, the plain {@link EventCalendar} and {@link DeviceRunner}).
 */
public final class MemberScheduler extends AbstractBehavior<MemberScheduler.Command> {

  /** Messages a member scheduler accepts. */
  public interface Command extends WireMessage {}

  /** Coordinator to member, once at the start (window 0): file these initial events (an ArrayList). */
  public record Inject(List<Event> events) implements Command {}

  /**
   * Member to member, at the end of global window {@code windowIndex} (Inject is window 0): what the receiver
   * needs to open the next window, with the last (often the only) chunk of the events the sender created in the
   * window for the receiver's devices.
   *
   * @param nextEventTimePs earliest event pending at the sender, {@link Long#MAX_VALUE} when none
   * @param earliestSentPs  earliest event the sender sent to any member in the window, {@link Long#MAX_VALUE} when
   *                        none
   * @param eventsSent      events the sender sent to the receiver in the window, in {@link EventBatch}es and here
   * @param events          the last chunk of them (an ArrayList; the empty list when none), after any batches
   */
  public record PeerDone(int fromMember, long windowIndex, long nextEventTimePs, long earliestSentPs,
                         long eventsSent, List<Event> events) implements Command {}

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

  /**
   * Device to scheduler: its report, answering {@link DeviceActor.CollectReport}.
   *
   * @param lastEventTimePs time of the last event the device handled (0 when none)
   */
  public record ReportCollected(int deviceId, DeviceReport report, long lastEventTimePs) implements Command {}

  /**
   * Coordinator to member, once before {@link Inject}: the schedulers of the run, indexed by member id (an
   * ArrayList, this member included).
   */
  public record Peers(List<ActorRef<Command>> schedulers) implements Command {}

  /**
   * Member to member: events (an ArrayList) for devices the receiver hosts, created in global window
   * {@code windowIndex} of the sender (Inject is window 0).
   */
  public record EventBatch(int fromMember, long windowIndex, List<Event> events) implements Command {}

  /** Coordinator to member, after the run (or its failure): stop this scheduler and its devices. */
  public enum Stop implements Command { INSTANCE }

  /**
   * Coordinator to member: every member's report of global window {@code windowIndex} has reached the coordinator.
   * Flow control only: a member runs at most {@link #MAX_WINDOWS_AHEAD} windows beyond the last one acknowledged,
   * so that its reports never pile up in a transport queue (Artery drops messages when its queue is full).
   */
  public record WindowsSeen(long windowIndex) implements Command {}

  /** How many global windows a member may run beyond the last one the coordinator acknowledged. */
  public static final long MAX_WINDOWS_AHEAD = 64;

  /**
   * A member reports to the coordinator ({@link Coordinator.WindowsDone}) after every this many global windows
   * (and after the last): the members pace each other, and a report per window would put two more remote messages
   * on every window of a three-member run for what only progress, partial results and flow control need. At most
   * {@link #MAX_WINDOWS_AHEAD} / 2, so that flow control never waits for a report that is not due.
   */
  public static final long SUMMARY_EVERY = 16;

  /** Most events in one {@link EventBatch}. */
  public static final int MAX_BATCH_EVENTS = 1_000;

  /** About the most payload bytes in one {@link EventBatch} (see {@link EventSizes}); below Artery's frame. */
  public static final long MAX_BATCH_BYTES = 1L << 20;

  /**
   * IDLE: before Inject. SUBWINDOW: a sub-window's ticks are out. BETWEEN: its global window is done, it waits for
   * the other members' reports and events. ENDED: nothing is left anywhere, it waits for CollectReports.
   * REPORTS: collecting. FAILED: a failure was reported; it waits to be stopped.
   */
  private enum Phase { IDLE, SUBWINDOW, BETWEEN, ENDED, REPORTS, FAILED }

  /** The done reports of one global window gathered so far (this member's own included). */
  private static final class Tally {
    int reports;
    long nextWindowStartPs = Long.MAX_VALUE;
    long inboundEvents;
  }

  private final int memberId;
  private final int memberCount;
  private final ActorRef<Coordinator.Command> coordinator;
  private final EventCalendar calendar;
  /** Hosted device actors indexed by device id; null for ids hosted elsewhere or unused. */
  private final ActorRef<DeviceActor.Command>[] devices;
  /** The runner of each hosted device, shared with its actor; null for ids hosted elsewhere or unused. */
  private final DeviceRunner[] runners;
  private final int hostedDevices;
  /** Least data a sub-window's events carry for it to fan out to the device actors (see the class comment). */
  private final long fanOutMinDataBytes;
  /** Least data work per device, on average over the sub-window's devices, for it to fan out. */
  private final long fanOutMinDataBytesPerDevice;
  /** The sub-window being drained: device ids and their batches, and the data its events make devices work on. */
  private int[] stagedDevices = new int[64];
  private int stagedCount;
  private final ArrayList<List<Event>> stagedBatches = new ArrayList<>();
  private long stagedWorkBytes;
  // A bound method reference kept in a field: drainWindow gets the same object every window, no allocation.
  private final EventCalendar.BatchConsumer stager = this::stage;
  /** Outgoing events of a device run here; emptied after each. */
  private final ArrayList<Event> inlineOutgoing = new ArrayList<>();
  private long inlineSubWindows;
  /**
   * With more than one window thread ({@code fabemu.engine.window-threads}): the member's pending events, by
   * partition, and its sub-windows run on every core; the calendar above stays empty until, after
   * {@link #parallelSettleWindows} sub-windows too small on average for the workers, the events move into it and
   * this becomes null. Null with one thread, or when
   * sub-windows may fan out to the device actors whatever their data ({@code fan-out-min-data-bytes = 0}, as in the
   * engine's tests): then the calendar holds the events and the sub-windows run here or on the device actors.
   */
  private PartitionedWindows partitioned;
  /**
   * Sub-windows after which the member looks whether its windows are big enough for the workers
   * ({@code fabemu.engine.parallel-settle-windows}); if not, it moves its events into the one calendar and goes on on
   * its scheduler's thread ({@link PartitionedWindows#windowsTooSmall}).
   */
  private final long parallelSettleWindows;
  private final Map<ActorRef<?>, Integer> deviceIdsByRef = new HashMap<>();
  /** Last cumulative progress each device reported, to keep {@link #progressSum} without a sweep per window. */
  private final long[] lastProgress;
  /** Length of a sub-window: the local lookahead. */
  private final long lookaheadPs;
  /** Length of a global window: the cross-member lookahead (the local one with one member). */
  private final long windowPs;

  private Phase phase = Phase.IDLE;
  /** The current global window [windowStartPs, windowEndPs). */
  private long windowStartPs;
  private long windowEndPs;
  /** The current sub-window [subWindowStartPs, subWindowEndPs). */
  private long subWindowStartPs;
  private long subWindowEndPs;
  private int pendingReplies;
  /** Events handled since the last {@link Coordinator.WindowsDone}. */
  private long eventsSinceSummary;
  private long subWindows;
  private long progressSum;
  private List<DeviceReport> reports;
  private long lastEventTimePs;
  private boolean failureReported;
  /** The member of each device id; null when every device is local (a one-member run). */
  private final int[] memberOfDevice;
  /** Schedulers by member id, once {@link Peers} arrived. */
  private List<ActorRef<Command>> peers;
  /** Events for other members collected in the current global window, by member id. */
  private final ArrayList<Event>[] outbound;
  /** Events sent to other members so far, and their estimated bytes ({@link EventSizes}). */
  private long crossEvents;
  private long crossBytes;
  /** Index of the last global window started (Inject is 0). */
  private long windowIndex;
  /** The last global window the coordinator acknowledged ({@link WindowsSeen}). */
  private long seenWindow;
  /** Events received from other members, by the sender's window index; entries are dropped once used. */
  private final TreeMap<Long, Long> receivedByWindow = new TreeMap<>();
  /** Done reports by window index (at most two windows are open: peers are at most one window ahead). */
  private final TreeMap<Long, Tally> tallies = new TreeMap<>();
  /**
   * Case results the devices finished since the last {@link Coordinator.WindowsDone}; null when none (no
   * allocation per window).
   */
  private ArrayList<DeviceReport.RankResult> finishedSinceSummary;
  /** The last global window reported to the coordinator ({@link Coordinator.WindowsDone}); -1 before any. */
  private long summarizedWindow = -1L;

  /**
   * A scheduler hosting every device of a one-member run.
   *
   * @param memberId    this member's index in the run
   * @param memberCount members in the run (sizes the per-member counters)
   * @param devices     cores indexed by device id; only the ones this member hosts are non-null
   * @param lookaheadPs the local lookahead, which is also the global window with one member
   * @param factory     picks the actor per device
   * @param coordinator receives the Done, report and failure messages
   */
  public static Behavior<Command> create(int memberId, int memberCount, DeviceCore[] devices, long lookaheadPs,
                                         DeviceActorFactory factory, ActorRef<Coordinator.Command> coordinator) {
    return create(memberId, memberCount, devices, null, lookaheadPs, lookaheadPs, factory, coordinator);
  }

  /**
   * A scheduler of a run spread over several members.
   *
   * @param memberOfDevice the member of every device id (the placement plan); null when every device is local
   * @param lookaheadPs    sub-window length: the local lookahead (smallest latency between two devices)
   * @param windowPs       global window length: the cross-member lookahead, at least {@code lookaheadPs}
   * @see #create(int, int, DeviceCore[], long, DeviceActorFactory, ActorRef)
   */
  public static Behavior<Command> create(int memberId, int memberCount, DeviceCore[] devices, int[] memberOfDevice,
                                         long lookaheadPs, long windowPs, DeviceActorFactory factory,
                                         ActorRef<Coordinator.Command> coordinator) {
    if (lookaheadPs <= 0 || windowPs < lookaheadPs) {
      throw new IllegalArgumentException("member " + memberId + ": the lookahead must be positive and the global "
          + "window at least the lookahead, got " + lookaheadPs + " ps and " + windowPs + " ps");
    }
    if (memberOfDevice != null) {
      for (int id = 0; id < devices.length; id++) {
        if (devices[id] != null && (id >= memberOfDevice.length || memberOfDevice[id] != memberId)) {
          throw new IllegalArgumentException("member " + memberId + " was given device " + id
              + ", which the placement plan puts elsewhere");
        }
      }
    }
    return Behaviors.setup(context -> new MemberScheduler(context, memberId, memberCount, devices,
        memberOfDevice == null ? null : memberOfDevice.clone(), lookaheadPs, windowPs, factory, coordinator));
  }

  @SuppressWarnings("unchecked")
  private MemberScheduler(ActorContext<Command> context, int memberId, int memberCount, DeviceCore[] cores,
                          int[] memberOfDevice, long lookaheadPs, long windowPs, DeviceActorFactory factory,
                          ActorRef<Coordinator.Command> coordinator) {
    super(context);
    this.memberId = memberId;
    this.memberCount = memberCount;
    this.coordinator = coordinator;
    this.memberOfDevice = memberOfDevice;
    this.lookaheadPs = lookaheadPs;
    this.windowPs = windowPs;
    this.calendar = new EventCalendar(lookaheadPs);
    this.outbound = (ArrayList<Event>[]) new ArrayList<?>[memberCount];
    for (int m = 0; m < memberCount; m++) {
      outbound[m] = new ArrayList<>();
    }
    this.devices = (ActorRef<DeviceActor.Command>[]) new ActorRef<?>[cores.length];
    this.runners = new DeviceRunner[cores.length];
    this.lastProgress = new long[cores.length];
    this.fanOutMinDataBytes = PekkoWindowEngine.byteSetting(context.getSystem().settings().config(),
        PekkoWindowEngine.FAN_OUT_MIN_DATA_BYTES_PATH);
    this.fanOutMinDataBytesPerDevice = PekkoWindowEngine.byteSetting(context.getSystem().settings().config(),
        PekkoWindowEngine.FAN_OUT_MIN_DATA_BYTES_PER_DEVICE_PATH);
    int hosted = 0;
    for (int id = 0; id < cores.length; id++) {
      if (cores[id] != null) {
        runners[id] = new DeviceRunner(cores[id]);
        ActorRef<DeviceActor.Command> device =
            context.spawn(factory.create(runners[id], context.getSelf()), "device-" + id);
        context.watch(device);
        devices[id] = device;
        deviceIdsByRef.put(device, id);
        hosted++;
      }
    }
    this.hostedDevices = hosted;
    int threads = PartitionedWindows.threads(context.getSystem().settings().config());
    this.parallelSettleWindows = PartitionedWindows.settleWindows(context.getSystem().settings().config());
    this.partitioned = threads > 1 && fanOutMinDataBytes > 0
        ? PartitionedWindows.create(context.getSystem().settings().config(), runners, lastProgress, lookaheadPs,
            memberOfDevice, memberId, memberCount)
        : null;
  }

  @Override
  public Receive<Command> createReceive() {
    return newReceiveBuilder()
        .onMessage(Inject.class, this::onInject)
        .onMessage(PeerDone.class, this::onPeerDone)
        .onMessage(WindowsSeen.class, this::onWindowsSeen)
        .onMessage(TickDone.class, this::onTickDone)
        .onMessageEquals(CollectReports.INSTANCE, this::onCollectReports)
        .onMessage(ReportCollected.class, this::onReportCollected)
        .onMessage(Peers.class, this::onPeers)
        .onMessage(EventBatch.class, this::onEventBatch)
        .onMessageEquals(Stop.INSTANCE, Behaviors::stopped)
        .onSignal(ChildFailed.class, this::onDeviceFailed)
        .onSignal(Terminated.class, this::onDeviceStopped)
        .onSignal(PostStop.class, stop -> {
          if (partitioned != null) {
            partitioned.close();
          }
          return this;
        })
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
    if (memberCount > 1 && peers == null) {
      throw new IllegalStateException("member " + memberId + " was injected before it was told its peers");
    }
    addAll(inject.events());
    finishGlobalWindow();
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

  private Behavior<Command> onPeerDone(PeerDone done) {
    if (done.windowIndex() < windowIndex || done.windowIndex() > windowIndex + 1) {
      // A peer cannot be behind this member's window, nor two windows ahead: never run on silently.
      throw new IllegalStateException("member " + memberId + " got member " + done.fromMember()
          + "'s report of window " + done.windowIndex() + " while at window " + windowIndex);
    }
    if (!done.events().isEmpty()) {
      receive(done.fromMember(), done.windowIndex(), done.events());
    }
    tally(done.windowIndex(), Math.min(done.nextEventTimePs(), done.earliestSentPs()), done.eventsSent());
    if (phase == Phase.BETWEEN) {
      tryStartWindow();
    }
    return this;
  }

  private Behavior<Command> onWindowsSeen(WindowsSeen seen) {
    seenWindow = Math.max(seenWindow, seen.windowIndex());
    if (phase == Phase.BETWEEN) {
      tryStartWindow();
    }
    return this;
  }

  private Behavior<Command> onEventBatch(EventBatch batch) {
    receive(batch.fromMember(), batch.windowIndex(), batch.events());
    if (phase == Phase.BETWEEN) {
      tryStartWindow();
    }
    return this;
  }

  /** Files events member {@code from} created in its window {@code window} for devices hosted here. */
  private void receive(int from, long window, List<Event> events) {
    if (window < windowIndex) {
      // Window windowIndex needed these; it already started, so a count was wrong: never run on silently.
      throw new IllegalStateException("member " + memberId + " got " + events.size() + " event(s) from member "
          + from + " of window " + window + " after its window " + windowIndex + " started");
    }
    for (Event event : events) {
      if (!isLocal(event.targetDevice())) {
        throw new IllegalStateException("member " + memberId + " got an event from member " + from
            + " for device " + event.targetDevice() + ", which it does not host: " + event);
      }
    }
    // Due at or after the end of the sender's window: a sub-window still running here never drains them.
    addAll(events);
    receivedByWindow.merge(window, (long) events.size(), Long::sum);
  }

  private void tally(long window, long nextWindowStartPs, long inboundEvents) {
    Tally tally = tallies.computeIfAbsent(window, w -> new Tally());
    tally.reports++;
    tally.nextWindowStartPs = Math.min(tally.nextWindowStartPs, nextWindowStartPs);
    tally.inboundEvents += inboundEvents;
  }

  /**
   * Opens the next global window once every member reported the current one done and every event sent here in
   * it has arrived; marks the run ended when nothing is pending anywhere.
   */
  private void tryStartWindow() {
    Tally tally = tallies.get(windowIndex);
    if (tally == null || tally.reports < memberCount) {
      return;
    }
    boolean ended = tally.nextWindowStartPs == Long.MAX_VALUE;
    if (summarizedWindow < windowIndex && (ended || windowIndex % SUMMARY_EVERY == 0)) {
      summarize(ended);
    }
    if (ended) {
      tallies.remove(windowIndex);
      phase = Phase.ENDED;
      return;
    }
    long received = receivedByWindow.getOrDefault(windowIndex, 0L);
    if (received < tally.inboundEvents) {
      return;
    }
    if (received > tally.inboundEvents) {
      throw new IllegalStateException("member " + memberId + " received " + received + " events of window "
          + windowIndex + " but the other members reported sending " + tally.inboundEvents);
    }
    if (windowIndex + 1 - seenWindow > MAX_WINDOWS_AHEAD) {
      return;  // the coordinator is behind: wait for its WindowsSeen
    }
    receivedByWindow.remove(windowIndex);
    tallies.remove(windowIndex);
    windowIndex++;
    windowStartPs = tally.nextWindowStartPs;
    windowEndPs = windowStartPs + Math.min(windowPs, Long.MAX_VALUE - windowStartPs);
    runSubWindows();
  }

  /**
   * Runs local sub-windows of the current global window, from the earliest local event on, until the next local
   * event is at or after the global window's end; then finishes the global window. Returns early while a
   * sub-window's ticks are out (the last TickDone calls it again).
   */
  private void runSubWindows() {
    if (partitioned != null) {
      runPartitionedSubWindows();
      return;
    }
    while (openSubWindow(calendar.nextTimePs())) {
      pendingReplies = 0;
      stagedWorkBytes = 0L;
      calendar.drainWindow(subWindowEndPs, stager);
      // One device alone gains nothing from its actor, unless fanning out is forced (thresholds of 0, as in tests).
      boolean fanOut = (stagedCount > 1 || fanOutMinDataBytes == 0) && stagedWorkBytes >= fanOutMinDataBytes
          && stagedWorkBytes >= stagedCount * fanOutMinDataBytesPerDevice;
      for (int i = 0; i < stagedCount; i++) {
        if (fanOut) {
          sendTick(stagedDevices[i], stagedBatches.get(i));
        } else if (!runHere(stagedDevices[i], stagedBatches.get(i))) {
          break;  // a device failed: reported, the run is over
        }
      }
      stagedCount = 0;
      stagedBatches.clear();
      if (phase == Phase.FAILED || pendingReplies > 0) {
        return;
      }
      if (!fanOut) {
        inlineSubWindows++;
      }
    }
  }

  /** As {@link #runSubWindows}, each sub-window run on every core by {@link #partitioned}. */
  private void runPartitionedSubWindows() {
    while (true) {
      if (subWindows == parallelSettleWindows && partitioned.windowsTooSmall()) {
        getContext().getLog().debug("member {}: windows too small for {} threads; one thread from now on",
            memberId, partitioned.threads());
        partitioned.moveTo(calendar);
        partitioned = null;
        runSubWindows();
        return;
      }
      if (!openSubWindow(partitioned.nextTimePs())) {
        return;
      }
      PartitionedWindows.Outcome outcome = partitioned.runWindow(subWindowEndPs, windowEndPs, outbound);
      eventsSinceSummary += outcome.handled;
      progressSum += outcome.progressDelta;
      if (outcome.finished != null) {
        addFinished(outcome.finished);
      }
      if (outcome.failure != null) {
        deviceFailed(outcome.failedDevice, outcome.failure);
        return;
      }
      if (outcome.violation != null) {
        reportFailure(outcome.violation + " (window [" + windowStartPs + ", " + windowEndPs + ") ps; is some "
            + "cross-member latency below the cross-member lookahead of " + windowPs + " ps?)");
        phase = Phase.FAILED;
        return;
      }
    }
  }

  /**
   * Opens the sub-window that starts at {@code startPs}, this member's next event, inside the current global
   * window; when that is at or after the global window's end, finishes the global window instead.
   *
   * @return whether a sub-window was opened
   */
  private boolean openSubWindow(long startPs) {
    if (startPs >= windowEndPs) {
      finishGlobalWindow();
      return false;
    }
    subWindowStartPs = startPs;
    subWindowEndPs = startPs + Math.min(lookaheadPs, windowEndPs - startPs);
    phase = Phase.SUBWINDOW;
    subWindows++;
    return true;
  }

  /** Keeps case results the devices finished, until the next summary. */
  private void addFinished(List<DeviceReport.RankResult> finished) {
    if (finishedSinceSummary == null) {
      finishedSinceSummary = new ArrayList<>();
    }
    finishedSinceSummary.addAll(finished);
  }

  /** Files events for hosted devices (between sub-windows). */
  private void addAll(List<Event> events) {
    if (partitioned != null) {
      partitioned.addAll(events);
    } else {
      calendar.addAll(events);
    }
  }

  private void stage(int id, List<Event> events) {
    if (stagedCount == stagedDevices.length) {
      stagedDevices = java.util.Arrays.copyOf(stagedDevices, stagedCount * 2);
    }
    stagedDevices[stagedCount++] = id;
    stagedBatches.add(events);
    for (int i = 0, n = events.size(); i < n; i++) {
      stagedWorkBytes += events.get(i).payload().dataWorkBytes();
    }
  }

  /**
   * Runs device {@code id}'s events of the sub-window here, as its actor would, and files what it sent.
   *
   * @return false when the device failed (reported; the member is then FAILED)
   */
  private boolean runHere(int id, List<Event> events) {
    DeviceRunner runner = id >= 0 && id < runners.length ? runners[id] : null;
    if (runner == null) {
      throw notHosted(id, events);
    }
    int handled;
    try {
      handled = runner.runWindow(events, subWindowEndPs, inlineOutgoing);
    } catch (RuntimeException | AssertionError | StackOverflowError e) {
      deviceFailed(id, e);
      inlineOutgoing.clear();
      return false;
    }
    DeviceCore core = runner.core();
    boolean filed = absorb(id, inlineOutgoing, handled, core.progress(), core.takeFinishedResults());
    inlineOutgoing.clear();
    return filed;
  }

  /**
   * Reports a device that threw in a window the scheduler ran, as a failed device actor is reported (ChildFailed):
   * once, naming the device and the window; and logs it with its stack trace, as Pekko logs an actor's failure. A
   * finding about the model ({@link ModelVerdict}, e.g. a deadlock) is no bug: its message says everything, the
   * coordinator's one line carries it, and the log has it at debug level only. The member is then FAILED.
   */
  private void deviceFailed(int id, Throwable e) {
    if (e instanceof ModelVerdict) {
      // The coordinator reports it on its one line; the member's log has it for --verbose.
      getContext().getLog().debug("device {} failed {}: {}", id, during(), e.getMessage());
      reportFailure("device " + id + " failed " + during() + ": " + e.getMessage());
    } else {
      getContext().getLog().error("device {} failed {}", id, during(), e);
      reportFailure("device " + id + " failed " + during() + ": " + e);
    }
    phase = Phase.FAILED;
  }

  private boolean isLocal(int deviceId) {
    return memberOfDevice == null
        || (deviceId >= 0 && deviceId < memberOfDevice.length && memberOfDevice[deviceId] == memberId);
  }

  private IllegalStateException notHosted(int id, List<Event> events) {
    return new IllegalStateException("member " + memberId + " has " + events.size() + " event(s) for device " + id
        + ", which it does not host (first: " + events.get(0) + ")");
  }

  private void sendTick(int id, List<Event> events) {
    ActorRef<DeviceActor.Command> device = id >= 0 && id < devices.length ? devices[id] : null;
    if (device == null) {
      throw notHosted(id, events);
    }
    device.tell(new DeviceActor.Tick(subWindowEndPs, events));
    pendingReplies++;
  }

  private Behavior<Command> onTickDone(TickDone done) {
    if (phase == Phase.FAILED) {
      return this;
    }
    expectPhase(Phase.SUBWINDOW, "TickDone");
    if (!absorb(done.deviceId(), done.outgoing(), done.handled(), done.progress(), done.finished())) {
      return this;
    }
    if (--pendingReplies == 0) {
      runSubWindows();
    }
    return this;
  }

  /**
   * Takes in what device {@code deviceId} did in the sub-window: files its outgoing events (here or for other
   * members) and adds up its counts, progress and finished results.
   *
   * @return false when an event broke the cross-member lookahead (reported; the member is then FAILED)
   */
  private boolean absorb(int deviceId, List<Event> outgoing, int handled, long progress,
                         List<DeviceReport.RankResult> finished) {
    if (memberOfDevice == null) {
      calendar.addAll(outgoing);
    } else {
      for (int i = 0, n = outgoing.size(); i < n; i++) {
        Event event = outgoing.get(i);
        int target = event.targetDevice();
        int member = target >= 0 && target < memberOfDevice.length ? memberOfDevice[target] : -1;
        if (member == memberId) {
          calendar.add(event);
        } else if (member >= 0) {
          if (event.timePs() < windowEndPs) {
            reportFailure("lookahead violated across members: device " + deviceId + " (member " + memberId
                + ") sent " + event.payload().getClass().getSimpleName() + " to device " + target + " (member "
                + member + ") due at " + event.timePs() + " ps, before the global window's end " + windowEndPs
                + " ps (window [" + windowStartPs + ", " + windowEndPs + ") ps; is some cross-member latency "
                + "below the cross-member lookahead of " + windowPs + " ps?)");
            phase = Phase.FAILED;
            return false;
          }
          outbound[member].add(event);
        } else {
          throw new IllegalStateException("device " + deviceId + " sent an event to unknown device "
              + target + ": " + event);
        }
      }
    }
    eventsSinceSummary += handled;
    if (!finished.isEmpty()) {
      addFinished(finished);
    }
    progressSum += progress - lastProgress[deviceId];
    lastProgress[deviceId] = progress;
    return true;
  }

  /**
   * Ends global window {@link #windowIndex} here: sends the events for other members, reports to every peer and
   * to the coordinator, and opens the next window if the peers' reports are all in already.
   */
  private void finishGlobalWindow() {
    phase = Phase.BETWEEN;
    long earliestSent = Long.MAX_VALUE;
    for (int m = 0; m < memberCount; m++) {
      ArrayList<Event> events = outbound[m];
      for (int i = 0, n = events.size(); i < n; i++) {
        earliestSent = Math.min(earliestSent, events.get(i).timePs());
      }
    }
    long next = partitioned != null ? partitioned.nextTimePs() : calendar.nextTimePs();
    // The peers first: they wait for this; the coordinator only follows.
    for (int m = 0; m < memberCount; m++) {
      if (m == memberId) {
        continue;
      }
      ArrayList<Event> events = outbound[m];
      List<Event> last = List.of();
      if (!events.isEmpty()) {
        // All but the last chunk as batches; the last rides in the report.
        List<ArrayList<Event>> chunks = chunks(events, MAX_BATCH_EVENTS, MAX_BATCH_BYTES);
        crossEvents += events.size();
        for (int i = 0, n = events.size(); i < n; i++) {
          crossBytes += EventSizes.estimate(events.get(i));
        }
        for (int c = 0; c < chunks.size() - 1; c++) {
          peers.get(m).tell(new EventBatch(memberId, windowIndex, chunks.get(c)));
        }
        last = chunks.get(chunks.size() - 1);
        outbound[m] = new ArrayList<>();
      }
      peers.get(m).tell(new PeerDone(memberId, windowIndex, next, earliestSent, events.size(), last));
    }
    tally(windowIndex, Math.min(next, earliestSent), 0L);
    tryStartWindow();
  }

  /**
   * Tells the coordinator that global windows up to {@link #windowIndex} are done here. Every member decides this
   * from the same window index and the same tally, so they all report the same windows.
   */
  private void summarize(boolean ended) {
    summarizedWindow = windowIndex;
    List<DeviceReport.RankResult> finished = finishedSinceSummary == null ? List.of() : finishedSinceSummary;
    finishedSinceSummary = null;
    coordinator.tell(new Coordinator.WindowsDone(memberId, windowIndex, windowIndex == 0 ? 0L : windowEndPs,
        eventsSinceSummary, progressSum, finished, ended));
    eventsSinceSummary = 0L;
  }

  /**
   * Cuts {@code events} into consecutive chunks of at most {@code maxEvents} events and about {@code maxBytes}
   * estimated bytes each (a single larger event gets a chunk of its own).
   */
  static List<ArrayList<Event>> chunks(List<Event> events, int maxEvents, long maxBytes) {
    return chunks(events, maxEvents, maxBytes, EventSizes::estimate);
  }

  /**
   * Cuts {@code items} into consecutive chunks of at most {@code maxItems} items and about {@code maxBytes} bytes
   * each by {@code size} (a single larger item gets a chunk of its own); none when there are no items. What cuts a
   * member's events into batches and its device reports into parts ({@link ReportSizes#chunks}).
   */
  static <T> List<ArrayList<T>> chunks(List<T> items, int maxItems, long maxBytes, ToLongFunction<T> size) {
    List<ArrayList<T>> chunks = new ArrayList<>();
    int from = 0;
    int n = items.size();
    while (from < n) {
      int to = from;
      long bytes = 0L;
      while (to < n && to - from < maxItems) {
        long itemBytes = size.applyAsLong(items.get(to));
        if (to > from && bytes + itemBytes > maxBytes) {
          break;
        }
        bytes += itemBytes;
        to++;
      }
      chunks.add(new ArrayList<>(items.subList(from, to)));
      from = to;
    }
    return chunks;
  }

  private Behavior<Command> onCollectReports() {
    // BETWEEN: the coordinator saw every member's last done report before some peer report reached this member.
    if (phase != Phase.ENDED && phase != Phase.BETWEEN) {
      throw new IllegalStateException("member " + memberId + " got CollectReports in phase " + phase
          + " (expected ENDED or BETWEEN)");
    }
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
    lastEventTimePs = Math.max(lastEventTimePs, collected.lastEventTimePs());
    if (--pendingReplies == 0) {
      sendReports();
    }
    return this;
  }

  private void sendReports() {
    reports.sort(Comparator.comparingInt(DeviceReport::deviceId));
    // Cut below Artery's frame (links' busy periods and ranks' iterations make reports large): all but the last
    // chunk as parts, the last in the MemberReports that closes the member's share.
    List<ArrayList<DeviceReport>> chunks = ReportSizes.chunks(reports, MAX_BATCH_BYTES);
    for (int c = 0; c < chunks.size() - 1; c++) {
      coordinator.tell(new Coordinator.MemberReportPart(memberId, chunks.get(c)));
    }
    coordinator.tell(new Coordinator.MemberReports(memberId, chunks.get(chunks.size() - 1), lastEventTimePs,
        new MemberTraffic(memberId, hostedDevices, crossEvents, crossBytes)));
    reports = null;
    if (partitioned != null) {
      getContext().getLog().debug("member {}: {} global windows, {} sub-windows ({} on {} threads, {} partitions)",
          memberId, windowIndex, subWindows, partitioned.parallelWindows(), partitioned.threads(),
          partitioned.partitions());
    } else {
      getContext().getLog().debug("member {}: {} global windows, {} sub-windows ({} run here)", memberId,
          windowIndex, subWindows, inlineSubWindows);
    }
    phase = Phase.ENDED;
  }

  private Behavior<Command> onDeviceFailed(ChildFailed failed) {
    Throwable cause = failed.getCause();
    reportFailure(failed.getRef(), "failed " + during() + ": "
        + (cause instanceof ModelVerdict ? cause.getMessage() : cause));
    return this;
  }

  private Behavior<Command> onDeviceStopped(Terminated terminated) {
    reportFailure(terminated.getRef(), "stopped unexpectedly " + during());
    return this;
  }

  private void reportFailure(ActorRef<?> ref, String what) {
    Integer deviceId = deviceIdsByRef.get(ref);
    reportFailure((deviceId == null ? "actor " + ref.path() : "device " + deviceId) + " " + what);
  }

  private void reportFailure(String reason) {
    if (failureReported) {
      return;  // the first failure is the one to explain; the run is over anyway
    }
    failureReported = true;
    // The member keeps running so that this message reaches the coordinator before any stop notice would.
    coordinator.tell(new Coordinator.MemberFailed(memberId, reason));
  }

  private String during() {
    return switch (phase) {
      case SUBWINDOW -> "in window [" + subWindowStartPs + ", " + subWindowEndPs + ") ps";
      case BETWEEN -> "between windows (after window [" + windowStartPs + ", " + windowEndPs + ") ps)";
      case REPORTS -> "while reporting";
      case IDLE, ENDED, FAILED -> "between windows";
    };
  }

  private void expectPhase(Phase expected, String message) {
    if (phase != expected) {
      throw new IllegalStateException("member " + memberId + " got " + message + " in phase " + phase
          + " (expected " + expected + ")");
    }
  }
}
