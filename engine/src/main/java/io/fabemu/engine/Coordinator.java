package io.fabemu.engine;

import io.fabemu.core.sim.DeviceCore;
import io.fabemu.core.sim.DeviceReport.RankResult;
import io.fabemu.core.sim.DeviceReport;
import io.fabemu.core.sim.Event;
import io.fabemu.core.sim.ProgressListener;
import io.fabemu.core.sim.RunBlueprint;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import org.apache.pekko.actor.Address;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.ChildFailed;
import org.apache.pekko.actor.typed.PostStop;
import org.apache.pekko.actor.typed.Terminated;
import org.apache.pekko.actor.typed.javadsl.AbstractBehavior;
import org.apache.pekko.actor.typed.javadsl.ActorContext;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.actor.typed.javadsl.Receive;
import org.apache.pekko.actor.typed.receptionist.Receptionist;

/**
 * Runs one emulation: starts the member schedulers, watches them run the global time windows, and collects the
 * result.
 *
 * <p>A local run ({@link #create}) spawns one scheduler hosting every device. A distributed run
 * ({@link #createDistributed}) first finds {@code N} {@link MemberAgent}s through the receptionist (failing after
 * the start timeout with how many it found), orders them by address (member ids), sends each a
 * {@link MemberAgent.PrepareRun}, collects the schedulers they spawn ({@link MemberReady}), tells every
 * scheduler its {@link MemberScheduler.Peers}, injects each member's initial events, and watches the schedulers.
 * A lost member (its scheduler stopped, its node left, or a {@link MemberWatcher} reports it
 * {@link MemberUnreachable}) fails the run with an {@link EngineMemberLostException} naming the member and the end
 * of the last reported window, carrying the case results streamed up in {@link WindowsDone}s so far.
 *
 * <p>The members pace themselves: at the end of each global window every member reports to every other member
 * ({@link MemberScheduler.PeerDone}) and each computes the same next window, [T, T + window) at the minimum T over
 * members of their next event and the earliest event they sent to another member (empty stretches of virtual time
 * are skipped). Every {@link MemberScheduler#SUMMARY_EVERY}th window and after the last, each member sends the
 * coordinator a summary ({@link WindowsDone}); once every member's summary of a window is in, the coordinator
 * follows (progress, the last completed window, the streamed case results, the stall watchdog) and acknowledges it
 * ({@link MemberScheduler.WindowsSeen}: flow control, members run at most
 * {@link MemberScheduler#MAX_WINDOWS_AHEAD} windows ahead of it). When no member has anything pending it collects
 * every device's report and completes the result future exactly once: with an {@link EngineOutcome}, or
 * exceptionally with an {@link EngineFailedException} when a member reports a failure, a scheduler dies, the run is
 * {@link Abort}ed, or the coordinator itself stops early. It stops itself (and so every scheduler and device of the
 * run) when the result is complete.
 *
 * <p>Past 500 lines: the run's one state machine (start, windows, results, failure and member loss) is in one
 * actor, whose phases share the run's counters and the finished results.
 */
public final class Coordinator extends AbstractBehavior<Coordinator.Command> {

  /** Messages the coordinator accepts. */
  public interface Command extends WireMessage {}

  /**
   * Member to coordinator: the global windows up to {@code windowIndex} (0: the initial injection) are done at the
   * member, and every member's report of that window has reached it. Sent every
   * {@link MemberScheduler#SUMMARY_EVERY}th window and after the last; the members do not wait for the coordinator.
   *
   * @param windowEndPs   end of window {@code windowIndex} (0 for the injection): the run is complete up to it
   * @param eventsHandled events its devices handled since its previous summary
   * @param progress      cumulative progress summed over its devices
   * @param finished      case results its devices finished since its previous summary (usually the empty list); the
   *                      coordinator keeps them so that a run cut short can report what was finished
   * @param ended         no member has anything pending: {@code windowIndex} was the run's last window
   */
  public record WindowsDone(int memberId, long windowIndex, long windowEndPs, long eventsHandled, long progress,
                            List<RankResult> finished, boolean ended) implements Command {}

  /** Member agent to coordinator: member {@code memberId}'s scheduler is ready (answers PrepareRun). */
  public record MemberReady(int memberId, ActorRef<MemberScheduler.Command> scheduler) implements Command {}

  /**
   * Member to coordinator: its devices' reports (an ArrayList, sorted by device id; the last of them, after any
   * {@link MemberReportPart}s) and the time of the last event they handled (0 when none).
   */
  public record MemberReports(int memberId, List<DeviceReport> reports, long lastEventTimePs,
                              MemberTraffic traffic) implements Command {}

  /**
   * Member to coordinator: some of its devices' reports (an ArrayList, sorted by device id), ahead of the
   * {@link MemberReports} with the rest, when they do not fit one message.
   */
  public record MemberReportPart(int memberId, List<DeviceReport> reports) implements Command {}

  /** Member to coordinator: the run cannot go on. */
  public record MemberFailed(int memberId, String reason) implements Command {}

  /**
   * A {@link MemberWatcher} to coordinator: the cluster's failure detector finds the member at {@code host:port}
   * unreachable. Fails the run ({@link EngineMemberLostException}) when that member hosts a scheduler of it.
   */
  public record MemberUnreachable(String host, int port) implements Command {}

  /** Stop the run; the result completes exceptionally with {@code reason}. */
  public record Abort(String reason) implements Command {}

  /** Timer tick of the stall watchdog (local only). */
  private enum StallCheck implements Command { INSTANCE }

  /** Timer: the members did not all come up in time (local only). */
  private enum StartTimeout implements Command { INSTANCE }

  /** The receptionist's list of member agents (local only). */
  private record AgentsListed(Receptionist.Listing listing) implements Command {}

  private enum Phase { DISCOVERY, PREPARING, WINDOWS, REPORTS }

  /** The watchdog checks this many times per stall timeout; a stall is declared after that many idle checks. */
  private static final int STALL_CHECKS = 4;

  /** Wall-clock spacing of progress calls: display only, so nothing in a run depends on it. */
  private static final long PROGRESS_INTERVAL_NANOS = 100_000_000L;

  /** The local lookahead: sub-window length. */
  private final long lookaheadPs;
  /** Global window length: the cross-member lookahead (the local one with one member). */
  private final long windowPs;
  private final ProgressListener listener;
  private final Duration stallTimeout;
  private final CompletableFuture<EngineOutcome> result;
  private final List<ActorRef<MemberScheduler.Command>> members = new ArrayList<>();
  private final long[] progressByMember;
  /**
   * Per member, its summaries of windows not yet summarized by every member (members run up to one window apart,
   * and up to {@link MemberScheduler#MAX_WINDOWS_AHEAD} ahead of this coordinator).
   */
  private final ArrayDeque<WindowsDone>[] doneByMember;
  private final List<DeviceReport> reports = new ArrayList<>();
  private final List<MemberTraffic> traffic = new ArrayList<>();
  /** Case results streamed up with the windows (for a partial result if the run is cut short). */
  private final List<RankResult> finishedResults = new ArrayList<>();
  private final int memberCount;
  /** Distributed runs only: what the members build, the plan, the initial events, the start timeout. */
  private final RunBlueprint scenario;
  private final int[] memberOfDevice;
  private final List<Event> initialEvents;
  private final Duration startTimeout;
  private List<ActorRef<MemberAgent.Command>> agents = List.of();
  /** {@code host:port} of members found unreachable before the run's members were chosen. */
  private final Set<String> unreachableBeforeStart = new java.util.LinkedHashSet<>();
  private String[] memberAddresses;
  private ActorRef<MemberScheduler.Command>[] ready;

  private Phase phase = Phase.WINDOWS;
  private int awaiting;
  /** The last global window every member summarized (its index). */
  private long windows;
  private long events;
  private long lastEventTimePs;
  private long lastProgressNanos;
  /** Wall clock (display only): when this coordinator started, and when the first window started. */
  private final long startNanos = System.nanoTime();
  private long windowsStartNanos = startNanos;
  private boolean listenerBroken;
  /** End of the last window every member completed (0 before the first). */
  private long completedThroughPs;
  /** Member replies received so far; the watchdog compares it between checks. */
  private long activity;
  private long activityAtLastCheck = -1;
  private int idleChecks;

  /**
   * @param devices       cores indexed by device id (null for unused ids); the caller validated them
   * @param factory       picks the actor per device
   * @param lookaheadPs   window length, positive and at most the smallest latency between two devices
   * @param initialEvents events injected before the first window
   * @param listener      told the progress now and then (display only)
   * @param stallTimeout  wall time without any member reply after which the run fails instead of hanging
   * @param result        completed once with the outcome or the failure
   */
  public static Behavior<Command> create(DeviceCore[] devices, DeviceActorFactory factory, long lookaheadPs,
                                         List<Event> initialEvents, ProgressListener listener,
                                         Duration stallTimeout,
                                         CompletableFuture<EngineOutcome> result) {
    return Behaviors.withTimers(timers -> Behaviors.setup(context -> {
      // A lost message (a peer gone, or one that failed to serialize, which Pekko only logs) would otherwise
      // leave the run waiting for ever.
      timers.startTimerWithFixedDelay(StallCheck.INSTANCE, stallTimeout.dividedBy(STALL_CHECKS));
      return new Coordinator(context, devices, factory, lookaheadPs, initialEvents, listener, stallTimeout,
          result);
    }));
  }

  /**
   * A run spread over {@code memberCount} members, each running a {@link MemberAgent} (this system's included
   * when it runs one).
   *
   * @param memberCount    members to wait for; the first {@code memberCount} agents by address are used
   * @param scenario       what each agent builds its devices from (must be serializable by the wire serializer)
   * @param memberOfDevice the placement plan: the member of every device id
   * @param startTimeout   wall time to find the agents and get their schedulers ready
   * @see #create
   */
  public static Behavior<Command> createDistributed(int memberCount, RunBlueprint scenario, int[] memberOfDevice,
                                                    long lookaheadPs, List<Event> initialEvents,
                                                    ProgressListener listener, Duration stallTimeout,
                                                    Duration startTimeout,
                                                    CompletableFuture<EngineOutcome> result) {
    return createDistributed(memberCount, scenario, memberOfDevice, lookaheadPs, lookaheadPs, initialEvents,
        listener, stallTimeout, startTimeout, MemberWatcher.NONE, result);
  }

  /**
   * A distributed run whose member losses are also detected by {@code watcher} (cluster reachability), with
   * global windows of {@code windowPs}.
   *
   * @param lookaheadPs the local lookahead: members run sub-windows of this length
   * @param windowPs    the global window: the cross-member lookahead (no event crosses members sooner after its
   *                    cause), at least {@code lookaheadPs}
   * @see #createDistributed(int, RunBlueprint, int[], long, List, ProgressListener, Duration, Duration,
   *     CompletableFuture)
   */
  @SuppressWarnings("unchecked")
  public static Behavior<Command> createDistributed(int memberCount, RunBlueprint scenario, int[] memberOfDevice,
                                                    long lookaheadPs, long windowPs, List<Event> initialEvents,
                                                    ProgressListener listener, Duration stallTimeout,
                                                    Duration startTimeout, MemberWatcher watcher,
                                                    CompletableFuture<EngineOutcome> result) {
    return Behaviors.withTimers(timers -> Behaviors.setup(context -> {
      timers.startTimerWithFixedDelay(StallCheck.INSTANCE, stallTimeout.dividedBy(STALL_CHECKS));
      timers.startSingleTimer(StartTimeout.INSTANCE, startTimeout);
      Behavior<?> watching = watcher.create(context.getSelf());
      if (watching != null) {
        context.spawn((Behavior<Object>) watching, "member-watcher");
      }
      return new Coordinator(context, memberCount, scenario, memberOfDevice, lookaheadPs, windowPs, initialEvents,
          listener, stallTimeout, startTimeout, result);
    }));
  }

  private Coordinator(ActorContext<Command> context, DeviceCore[] devices, DeviceActorFactory factory,
                      long lookaheadPs, List<Event> initialEvents, ProgressListener listener,
                      Duration stallTimeout, CompletableFuture<EngineOutcome> result) {
    super(context);
    this.lookaheadPs = lookaheadPs;
    this.windowPs = lookaheadPs;
    this.listener = listener;
    this.stallTimeout = stallTimeout;
    this.result = result;
    this.memberCount = 1;
    this.scenario = null;
    this.memberOfDevice = null;
    this.initialEvents = null;
    this.startTimeout = null;
    ActorRef<MemberScheduler.Command> member = context.spawn(
        MemberScheduler.create(0, memberCount, devices, lookaheadPs, factory, context.getSelf()), "member-0");
    context.watch(member);
    members.add(member);
    this.progressByMember = new long[memberCount];
    this.doneByMember = newQueues(memberCount);
    this.awaiting = memberCount;
    this.lastProgressNanos = System.nanoTime();
    member.tell(new MemberScheduler.Inject(new ArrayList<>(initialEvents)));
  }

  @SuppressWarnings("unchecked")
  private Coordinator(ActorContext<Command> context, int memberCount, RunBlueprint scenario, int[] memberOfDevice,
                      long lookaheadPs, long windowPs, List<Event> initialEvents, ProgressListener listener,
                      Duration stallTimeout, Duration startTimeout, CompletableFuture<EngineOutcome> result) {
    super(context);
    this.lookaheadPs = lookaheadPs;
    this.windowPs = windowPs;
    this.listener = listener;
    this.stallTimeout = stallTimeout;
    this.result = result;
    this.memberCount = memberCount;
    this.scenario = scenario;
    this.memberOfDevice = memberOfDevice.clone();
    this.initialEvents = List.copyOf(initialEvents);
    this.startTimeout = startTimeout;
    this.progressByMember = new long[memberCount];
    this.doneByMember = newQueues(memberCount);
    this.ready = (ActorRef<MemberScheduler.Command>[]) new ActorRef<?>[memberCount];
    this.lastProgressNanos = System.nanoTime();
    this.phase = Phase.DISCOVERY;
    ActorRef<Receptionist.Listing> adapter = context.messageAdapter(Receptionist.Listing.class, AgentsListed::new);
    context.getSystem().receptionist().tell(Receptionist.subscribe(MemberAgent.SERVICE_KEY, adapter));
  }

  @Override
  public Receive<Command> createReceive() {
    return newReceiveBuilder()
        .onMessage(WindowsDone.class, this::onWindowsDone)
        .onMessage(AgentsListed.class, this::onAgentsListed)
        .onMessage(MemberReady.class, this::onMemberReady)
        .onMessageEquals(StartTimeout.INSTANCE, this::onStartTimeout)
        .onMessage(MemberReportPart.class, this::onMemberReportPart)
        .onMessage(MemberReports.class, this::onMemberReports)
        .onMessage(MemberFailed.class, failed -> fail("member " + failed.memberId() + ": " + failed.reason()))
        .onMessage(Abort.class, abort -> fail("run aborted: " + abort.reason()))
        .onMessageEquals(StallCheck.INSTANCE, this::onStallCheck)
        .onSignal(ChildFailed.class, failed -> fail("the scheduler of " + memberName(failed.getRef())
            + " failed: " + failed.getCause()))
        .onMessage(MemberUnreachable.class, this::onMemberUnreachable)
        .onSignal(Terminated.class, stopped -> scenario == null
            ? fail("the scheduler of " + memberName(stopped.getRef()) + " stopped unexpectedly")
            : memberLost(memberIndex(stopped.getRef()), stopped.getRef().path().toString(),
                "its scheduler stopped or its node left the cluster"))
        .onSignal(PostStop.class, stop -> onPostStop())
        .build();
  }

  private Behavior<Command> onAgentsListed(AgentsListed listed) {
    Set<ActorRef<MemberAgent.Command>> found = listed.listing().getServiceInstances(MemberAgent.SERVICE_KEY);
    List<ActorRef<MemberAgent.Command>> sorted = new ArrayList<>(found);
    Address local = getContext().getSystem().address();
    sorted.sort(Comparator.comparing((ActorRef<MemberAgent.Command> a) -> hostOf(a, local))
        .thenComparingInt(a -> portOf(a, local)).thenComparing(a -> a.path().toString()));
    agents = sorted;
    if (phase != Phase.DISCOVERY || sorted.size() < memberCount) {
      return this;
    }
    phase = Phase.PREPARING;
    memberAddresses = new String[memberCount];
    String runName = getContext().getSelf().path().name();
    for (int m = 0; m < memberCount; m++) {
      ActorRef<MemberAgent.Command> agent = sorted.get(m);
      memberAddresses[m] = hostOf(agent, local) + ":" + portOf(agent, local);
      agent.tell(new MemberAgent.PrepareRun(runName, m, memberCount, memberOfDevice.clone(), lookaheadPs, windowPs,
          scenario, getContext().getSelf()));
    }
    awaiting = memberCount;
    for (String address : unreachableBeforeStart) {
      onMemberUnreachable(new MemberUnreachable(address.substring(0, address.lastIndexOf(':')),
          Integer.parseInt(address.substring(address.lastIndexOf(':') + 1))));
      if (result.isDone()) {
        return Behaviors.stopped();
      }
    }
    return this;
  }

  private static String hostOf(ActorRef<?> ref, Address local) {
    Address address = ref.path().address().hasLocalScope() ? local : ref.path().address();
    return address.getHost().orElse("");
  }

  private static int portOf(ActorRef<?> ref, Address local) {
    Address address = ref.path().address().hasLocalScope() ? local : ref.path().address();
    return address.getPort().orElse(0);
  }

  private Behavior<Command> onMemberReady(MemberReady memberReady) {
    expectPhase(Phase.PREPARING, "MemberReady");
    int m = memberReady.memberId();
    if (ready[m] == null) {
      ready[m] = memberReady.scheduler();
      getContext().watch(memberReady.scheduler());
      awaiting--;
    }
    if (awaiting > 0) {
      return this;
    }
    for (ActorRef<MemberScheduler.Command> scheduler : ready) {
      members.add(scheduler);
    }
    phase = Phase.WINDOWS;
    windowsStartNanos = System.nanoTime();
    activity++;
    awaiting = memberCount;
    List<ArrayList<Event>> injected = new ArrayList<>();
    for (int i = 0; i < memberCount; i++) {
      injected.add(new ArrayList<>());
    }
    for (Event event : initialEvents) {
      int target = event.targetDevice();
      if (target < 0 || target >= memberOfDevice.length) {
        return fail("initial event for unknown device " + target + ": " + event);
      }
      injected.get(memberOfDevice[target]).add(event);
    }
    for (int i = 0; i < memberCount; i++) {
      members.get(i).tell(new MemberScheduler.Peers(new ArrayList<>(members)));
      members.get(i).tell(new MemberScheduler.Inject(injected.get(i)));
    }
    return this;
  }

  private Behavior<Command> onStartTimeout() {
    if (phase != Phase.DISCOVERY && phase != Phase.PREPARING) {
      return this;
    }
    if (phase == Phase.DISCOVERY) {
      Address local = getContext().getSystem().address();
      List<String> addresses = agents.stream().map(a -> hostOf(a, local) + ":" + portOf(a, local)).toList();
      return fail("found " + agents.size() + " of " + memberCount + " member(s) within "
          + startTimeout.toSeconds() + " s " + addresses + ": start the missing members (fabemu member "
          + "--seed-nodes ...) or check that they joined the same cluster");
    }
    List<Integer> missing = new ArrayList<>();
    for (int m = 0; m < memberCount; m++) {
      if (ready[m] == null) {
        missing.add(m);
      }
    }
    return fail("member(s) " + missing + " did not get ready within " + startTimeout.toSeconds() + " s");
  }

  private Behavior<Command> onWindowsDone(WindowsDone done) {
    expectPhase(Phase.WINDOWS, "WindowsDone");
    activity++;
    doneByMember[done.memberId()].add(done);
    for (ArrayDeque<WindowsDone> queue : doneByMember) {
      if (queue.isEmpty()) {
        return this;
      }
    }
    // Every member summarized the same window (they all decide it from the same window index and tally).
    WindowsDone first = doneByMember[0].peek();
    for (int m = 0; m < memberCount; m++) {
      WindowsDone memberDone = doneByMember[m].poll();
      if (memberDone.windowIndex() != first.windowIndex() || memberDone.ended() != first.ended()
          || memberDone.windowEndPs() != first.windowEndPs()) {
        throw new IllegalStateException("member " + m + " summarized window " + memberDone.windowIndex()
            + (memberDone.ended() ? " (the last)" : "") + " ending at " + memberDone.windowEndPs() + " ps, member 0 "
            + "window " + first.windowIndex() + (first.ended() ? " (the last)" : "") + " ending at "
            + first.windowEndPs() + " ps");
      }
      progressByMember[m] = memberDone.progress();
      events += memberDone.eventsHandled();
      List<RankResult> finished = memberDone.finished();
      if (!finished.isEmpty()) {
        finishedResults.addAll(finished);
      }
    }
    windows = first.windowIndex();
    completedThroughPs = first.windowEndPs();
    if (first.ended()) {
      return collectReports();
    }
    for (ActorRef<MemberScheduler.Command> member : members) {
      member.tell(new MemberScheduler.WindowsSeen(windows));
    }
    maybeReportProgress();
    return this;
  }

  @SuppressWarnings("unchecked")
  private static ArrayDeque<WindowsDone>[] newQueues(int count) {
    ArrayDeque<WindowsDone>[] queues = (ArrayDeque<WindowsDone>[]) new ArrayDeque<?>[count];
    for (int m = 0; m < count; m++) {
      queues[m] = new ArrayDeque<>(2);
    }
    return queues;
  }

  private Behavior<Command> collectReports() {
    phase = Phase.REPORTS;
    awaiting = members.size();
    for (ActorRef<MemberScheduler.Command> member : members) {
      member.tell(MemberScheduler.CollectReports.INSTANCE);
    }
    return this;
  }

  private Behavior<Command> onMemberReportPart(MemberReportPart part) {
    expectPhase(Phase.REPORTS, "MemberReportPart");
    activity++;
    reports.addAll(part.reports());
    return this;
  }

  private Behavior<Command> onMemberReports(MemberReports memberReports) {
    expectPhase(Phase.REPORTS, "MemberReports");
    activity++;
    reports.addAll(memberReports.reports());
    traffic.add(memberReports.traffic());
    lastEventTimePs = Math.max(lastEventTimePs, memberReports.lastEventTimePs());
    if (--awaiting > 0) {
      return this;
    }
    reports.sort(Comparator.comparingInt(DeviceReport::deviceId));
    traffic.sort(Comparator.comparingInt(MemberTraffic::memberId));
    callListener(lastEventTimePs);
    result.complete(new EngineOutcome(List.copyOf(reports), windows, events, lastEventTimePs,
        (windowsStartNanos - startNanos) / 1e9, List.copyOf(traffic)));
    return finish();
  }

  private Behavior<Command> onStallCheck() {
    if (phase == Phase.DISCOVERY || phase == Phase.PREPARING) {
      return this;  // the start timeout covers these
    }
    if (activity != activityAtLastCheck) {
      activityAtLastCheck = activity;
      idleChecks = 0;
      return this;
    }
    if (++idleChecks < STALL_CHECKS) {
      return this;
    }
    String waitingFor = phase == Phase.WINDOWS
        ? "the windows after window " + windows + " (complete up to " + completedThroughPs + " ps)"
        : "the device reports";
    int silent = awaiting;
    if (phase == Phase.WINDOWS) {
      silent = 0;
      for (ArrayDeque<WindowsDone> queue : doneByMember) {
        silent += queue.isEmpty() ? 1 : 0;
      }
    }
    return fail("no progress for " + stallTimeout.toSeconds() + " s while waiting for " + waitingFor + " from "
        + silent + " of " + members.size() + " member(s): a message was lost (look in the log for a "
        + "serialization failure, e.g. a class missing from fabemu.wire.registrations)");
  }

  private Behavior<Command> onMemberUnreachable(MemberUnreachable unreachable) {
    String address = unreachable.host() + ":" + unreachable.port();
    if (memberAddresses == null || phase == Phase.DISCOVERY) {
      unreachableBeforeStart.add(address);  // checked once the members are chosen
      return this;
    }
    for (int m = 0; m < memberAddresses.length; m++) {
      if (memberAddresses[m].equals(address)) {
        return memberLost(m, address, "the cluster's failure detector finds it unreachable (its process died, "
            + "or the network cut it off)");
      }
    }
    return this;  // a member that hosts nothing of this run
  }

  /**
   * Fails the run with an {@link EngineMemberLostException} carrying the results streamed so far.
   *
   * @param member the lost member's id, or -1 when unknown ({@code who} then names it)
   */
  private Behavior<Command> memberLost(int member, String who, String how) {
    String address = member >= 0 && memberAddresses != null ? memberAddresses[member] : who;
    String name = member >= 0 ? "member " + member + " (" + address + ")" : who;
    List<RankResult> finished = new ArrayList<>(finishedResults);
    finished.sort(Comparator.comparingInt(RankResult::caseIndex).thenComparingInt(RankResult::rank));
    result.completeExceptionally(new EngineMemberLostException("lost " + name + " at virtual time "
        + completedThroughPs + " ps (last completed window); the run is incomplete: " + how, member, address,
        completedThroughPs, finished, windows, events, null));
    return finish();
  }

  private Behavior<Command> fail(String reason) {
    result.completeExceptionally(new EngineFailedException("fabemu run failed at virtual time "
        + completedThroughPs + " ps (window " + windows + "): " + reason));
    return finish();
  }

  /** Stops every scheduler (remote ones are not children) and this coordinator. */
  private Behavior<Command> finish() {
    if (ready != null) {
      for (ActorRef<MemberScheduler.Command> scheduler : ready) {
        if (scheduler != null) {
          scheduler.tell(MemberScheduler.Stop.INSTANCE);
        }
      }
    }
    return Behaviors.stopped();
  }

  private Behavior<Command> onPostStop() {
    // Reached on every stop; only an unplanned one (a bug here, or the actor system terminating) finds the
    // result still open, and the caller must not wait for ever.
    result.completeExceptionally(new EngineFailedException("fabemu run's coordinator stopped before the run "
        + "finished, at virtual time " + completedThroughPs + " ps (see the log; is the actor system "
        + "terminating?)"));
    return this;
  }

  private void maybeReportProgress() {
    long now = System.nanoTime();
    if (now - lastProgressNanos >= PROGRESS_INTERVAL_NANOS) {
      lastProgressNanos = now;
      callListener(completedThroughPs);
    }
  }

  /** Tells the listener the progress so far at virtual time {@code timePs} (display only). */
  private void callListener(long timePs) {
    if (listenerBroken) {
      return;
    }
    long progress = 0L;
    for (long p : progressByMember) {
      progress += p;
    }
    try {
      listener.onProgress(progress, timePs);
    } catch (RuntimeException e) {
      // Progress is display only: a broken listener must not change or stop the run.
      listenerBroken = true;
      getContext().getLog().warn("progress listener failed; no more progress will be shown", e);
    }
  }

  private int memberIndex(ActorRef<?> ref) {
    int index = members.indexOf(ref);
    if (index < 0 && ready != null) {
      for (int m = 0; m < ready.length; m++) {
        if (ref.equals(ready[m])) {
          index = m;
        }
      }
    }
    return index;
  }

  private String memberName(ActorRef<?> ref) {
    int index = memberIndex(ref);
    if (index < 0) {
      return ref.path().toString();
    }
    return "member " + index + (memberAddresses != null ? " (" + memberAddresses[index] + ")" : "");
  }

  private void expectPhase(Phase expected, String message) {
    if (phase != expected) {
      throw new IllegalStateException("coordinator got " + message + " in phase " + phase);
    }
  }
}
