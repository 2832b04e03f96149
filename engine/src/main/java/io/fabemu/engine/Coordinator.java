package io.fabemu.engine;

import io.fabemu.core.engine.DeviceCore;
import io.fabemu.core.engine.DeviceReport;
import io.fabemu.core.engine.Event;
import io.fabemu.core.engine.ProgressListener;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.CompletableFuture;
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
 * Runs one emulation: the conservative time-window loop across member schedulers (one per run today).
 *
 * <p>It injects the initial events, then repeatedly opens window [T, T + lookahead) at the global minimum next
 * event time T that the members reported, so empty stretches of virtual time are skipped; when no member has
 * anything pending it collects every device's report and completes the result future exactly once: with an
 * {@link EngineOutcome}, or exceptionally with an {@link EngineFailedException} when a member reports a failure,
 * a scheduler dies, the run is {@link Abort}ed, or the coordinator itself stops early. It stops itself (and so
 * every scheduler and device of the run) when the result is complete.
 */
public final class Coordinator extends AbstractBehavior<Coordinator.Command> {

  /** Messages the coordinator accepts. */
  public interface Command extends WireMessage {}

  /**
   * Member to coordinator: a window (or the initial injection) is done.
   *
   * @param nextEventTimePs    earliest event pending at the member, {@link Long#MAX_VALUE} when none
   * @param eventsHandled      events its devices handled in the window
   * @param progress           cumulative progress summed over its devices
   * @param eventsSentToMember per destination member, events this member sent there in the window (all zeros
   *                           while every event is local); once cross-member batching exists, nextEventTimePs
   *                           must also cover the events sent away
   */
  public record WindowDone(int memberId, long nextEventTimePs, long eventsHandled, long progress,
                           long[] eventsSentToMember) implements Command {}

  /** Member to coordinator: its devices' reports (an ArrayList, sorted by device id). */
  public record MemberReports(int memberId, List<DeviceReport> reports) implements Command {}

  /** Member to coordinator: the run cannot go on. */
  public record MemberFailed(int memberId, String reason) implements Command {}

  /** Stop the run; the result completes exceptionally with {@code reason}. */
  public record Abort(String reason) implements Command {}

  /** Timer tick of the stall watchdog (local only). */
  private enum StallCheck implements Command { INSTANCE }

  private enum Phase { WINDOWS, REPORTS }

  /** The watchdog checks this many times per stall timeout; a stall is declared after that many idle checks. */
  private static final int STALL_CHECKS = 4;

  /** Wall-clock spacing of progress calls: display only, so nothing in a run depends on it. */
  private static final long PROGRESS_INTERVAL_NANOS = 100_000_000L;

  private final long lookaheadPs;
  private final ProgressListener listener;
  private final Duration stallTimeout;
  private final CompletableFuture<EngineOutcome> result;
  private final List<ActorRef<MemberScheduler.Command>> members = new ArrayList<>();
  private final long[] nextTimeByMember;
  private final long[] progressByMember;
  /** Events each member must receive from the others before its next window runs. */
  private final long[] inboundByMember;
  private final List<DeviceReport> reports = new ArrayList<>();

  private Phase phase = Phase.WINDOWS;
  private int awaiting;
  private long windows;
  private long events;
  private long lastWindowStartPs;
  private long lastProgressNanos;
  private boolean listenerBroken;
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

  private Coordinator(ActorContext<Command> context, DeviceCore[] devices, DeviceActorFactory factory,
                      long lookaheadPs, List<Event> initialEvents, ProgressListener listener,
                      Duration stallTimeout, CompletableFuture<EngineOutcome> result) {
    super(context);
    this.lookaheadPs = lookaheadPs;
    this.listener = listener;
    this.stallTimeout = stallTimeout;
    this.result = result;
    // One member hosts every device today; placement across members plugs in here.
    int memberCount = 1;
    ActorRef<MemberScheduler.Command> member = context.spawn(
        MemberScheduler.create(0, memberCount, devices, factory, context.getSelf()), "member-0");
    context.watch(member);
    members.add(member);
    this.nextTimeByMember = new long[memberCount];
    this.progressByMember = new long[memberCount];
    this.inboundByMember = new long[memberCount];
    this.awaiting = memberCount;
    this.lastProgressNanos = System.nanoTime();
    member.tell(new MemberScheduler.Inject(new ArrayList<>(initialEvents)));
  }

  @Override
  public Receive<Command> createReceive() {
    return newReceiveBuilder()
        .onMessage(WindowDone.class, this::onWindowDone)
        .onMessage(MemberReports.class, this::onMemberReports)
        .onMessage(MemberFailed.class, failed -> fail("member " + failed.memberId() + ": " + failed.reason()))
        .onMessage(Abort.class, abort -> fail("run aborted: " + abort.reason()))
        .onMessageEquals(StallCheck.INSTANCE, this::onStallCheck)
        .onSignal(ChildFailed.class, failed -> fail("the scheduler of " + memberName(failed.getRef())
            + " failed: " + failed.getCause()))
        .onSignal(Terminated.class, stopped -> fail("the scheduler of " + memberName(stopped.getRef())
            + " stopped unexpectedly"))
        .onSignal(PostStop.class, stop -> onPostStop())
        .build();
  }

  private Behavior<Command> onWindowDone(WindowDone done) {
    expectPhase(Phase.WINDOWS, "WindowDone");
    activity++;
    int member = done.memberId();
    nextTimeByMember[member] = done.nextEventTimePs();
    progressByMember[member] = done.progress();
    events += done.eventsHandled();
    long[] sent = done.eventsSentToMember();
    for (int m = 0; m < sent.length; m++) {
      inboundByMember[m] += sent[m];
    }
    if (--awaiting > 0) {
      return this;
    }
    long windowStartPs = Long.MAX_VALUE;
    for (long t : nextTimeByMember) {
      windowStartPs = Math.min(windowStartPs, t);
    }
    if (windowStartPs == Long.MAX_VALUE) {
      return collectReports();
    }
    maybeReportProgress();
    windows++;
    lastWindowStartPs = windowStartPs;
    long windowEndPs = windowStartPs + lookaheadPs;
    awaiting = members.size();
    for (int m = 0; m < members.size(); m++) {
      members.get(m).tell(new MemberScheduler.RunWindow(windowStartPs, windowEndPs, inboundByMember[m]));
      inboundByMember[m] = 0L;
    }
    return this;
  }

  private Behavior<Command> collectReports() {
    phase = Phase.REPORTS;
    awaiting = members.size();
    for (ActorRef<MemberScheduler.Command> member : members) {
      member.tell(MemberScheduler.CollectReports.INSTANCE);
    }
    return this;
  }

  private Behavior<Command> onMemberReports(MemberReports memberReports) {
    expectPhase(Phase.REPORTS, "MemberReports");
    activity++;
    reports.addAll(memberReports.reports());
    if (--awaiting > 0) {
      return this;
    }
    reports.sort(Comparator.comparingInt(DeviceReport::deviceId));
    callListener();
    result.complete(new EngineOutcome(List.copyOf(reports), windows, events, lastWindowStartPs));
    return Behaviors.stopped();
  }

  private Behavior<Command> onStallCheck() {
    if (activity != activityAtLastCheck) {
      activityAtLastCheck = activity;
      idleChecks = 0;
      return this;
    }
    if (++idleChecks < STALL_CHECKS) {
      return this;
    }
    String waitingFor = phase == Phase.WINDOWS
        ? (windows == 0 ? "the initial injection" : "window [" + lastWindowStartPs + ", "
            + (lastWindowStartPs + lookaheadPs) + ") ps")
        : "the device reports";
    return fail("no progress for " + stallTimeout.toSeconds() + " s while waiting for " + waitingFor + " from "
        + awaiting + " of " + members.size() + " member(s): a message was lost (look in the log for a "
        + "serialization failure, e.g. a class missing from fabemu.wire.registrations)");
  }

  private Behavior<Command> fail(String reason) {
    result.completeExceptionally(new EngineFailedException("fabemu run failed at virtual time "
        + lastWindowStartPs + " ps (window " + windows + "): " + reason));
    return Behaviors.stopped();
  }

  private Behavior<Command> onPostStop() {
    // Reached on every stop; only an unplanned one (a bug here, or the actor system terminating) finds the
    // result still open, and the caller must not wait for ever.
    result.completeExceptionally(new EngineFailedException("fabemu run's coordinator stopped before the run "
        + "finished, at virtual time " + lastWindowStartPs + " ps (see the log; is the actor system terminating?)"));
    return this;
  }

  private void maybeReportProgress() {
    long now = System.nanoTime();
    if (now - lastProgressNanos >= PROGRESS_INTERVAL_NANOS) {
      lastProgressNanos = now;
      callListener();
    }
  }

  private void callListener() {
    if (listenerBroken) {
      return;
    }
    long progress = 0L;
    for (long p : progressByMember) {
      progress += p;
    }
    try {
      listener.onProgress(progress, lastWindowStartPs);
    } catch (RuntimeException e) {
      // Progress is display only: a broken listener must not change or stop the run.
      listenerBroken = true;
      getContext().getLog().warn("progress listener failed; no more progress will be shown", e);
    }
  }

  private String memberName(ActorRef<?> ref) {
    int index = members.indexOf(ref);
    return index >= 0 ? "member " + index : ref.path().toString();
  }

  private void expectPhase(Phase expected, String message) {
    if (phase != expected) {
      throw new IllegalStateException("coordinator got " + message + " in phase " + phase);
    }
  }
}
