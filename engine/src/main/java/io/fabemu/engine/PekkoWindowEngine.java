package io.fabemu.engine;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigException;
import io.fabemu.core.sim.DeviceCore;
import io.fabemu.core.sim.Event;
import io.fabemu.core.sim.ProgressListener;
import io.fabemu.core.sim.RunBlueprint;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.typed.Props;

/**
 * Plain Java entry point of the actor engine: runs devices in virtual-time windows on Pekko actors and gives the
 * same results as {@link io.fabemu.core.sim.WindowedEngine} for the same devices and events, run after run,
 * on one member or several (there with global windows of the cross-member lookahead, each cut into local
 * sub-windows of the lookahead; see {@link MemberScheduler}).
 *
 * <p>Each run gets its own coordinator (a system actor with a unique name), so several runs may share one actor
 * system, one after the other or at once. A run's device cores are mutated by its actors and must not be touched
 * until the run has finished.
 */
public final class PekkoWindowEngine {
  /** Wall time without any member reply after which a run fails instead of hanging. */
  public static final String STALL_TIMEOUT_PATH = "fabemu.engine.stall-timeout";
  /** Least data work of a sub-window for it to fan out to the device actors (see {@link MemberScheduler}). */
  public static final String FAN_OUT_MIN_DATA_BYTES_PATH = "fabemu.engine.fan-out-min-data-bytes";
  /** Least data work per device, on average, for a sub-window to fan out. */
  public static final String FAN_OUT_MIN_DATA_BYTES_PER_DEVICE_PATH =
      "fabemu.engine.fan-out-min-data-bytes-per-device";

  private static final AtomicLong RUN_COUNTER = new AtomicLong();

  private PekkoWindowEngine() {}

  /**
   * Runs until no event is pending, blocking the calling thread (never call it from inside an actor).
   *
   * @param system        actor system to run on
   * @param devices       cores indexed by device id; null entries for unused ids
   * @param factory       picks the actor per device ({@link DeviceActorFactory#GENERIC} for the plain shell)
   * @param lookaheadPs   window length: positive, at most the smallest latency between two devices
   * @param initialEvents events injected before the first window (e.g. workload start at time 0)
   * @param listener      told the progress after some windows, at most every ~100 ms, and once at the end;
   *                      called on an actor thread, so it must be quick and thread-safe
   * @return the reports (sorted by device id) and run figures
   * @throws EngineFailedException when a device or scheduler fails, naming device, member and virtual time, or
   *                               when no member replies for {@code fabemu.engine.stall-timeout} (a lost message)
   * @throws IllegalArgumentException when the devices, lookahead or initial events are inconsistent
   */
  public static EngineOutcome run(ActorSystem<?> system, DeviceCore[] devices, DeviceActorFactory factory,
                                  long lookaheadPs, List<Event> initialEvents, ProgressListener listener) {
    CompletableFuture<EngineOutcome> result =
        start(system, devices, factory, lookaheadPs, initialEvents, listener).toCompletableFuture();
    try {
      return result.get();
    } catch (ExecutionException e) {
      Throwable cause = e.getCause();
      // A new exception, so the stack trace shows the caller as well as the reason.
      throw new EngineFailedException(cause.getMessage(), cause);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new EngineFailedException("interrupted while waiting for the fabemu run", e);
    }
  }

  /**
   * Starts a run and returns at once; the stage completes with the outcome, or exceptionally with an
   * {@link EngineFailedException}. Same parameters and checks as {@link #run}.
   */
  public static CompletionStage<EngineOutcome> start(ActorSystem<?> system, DeviceCore[] devices,
                                                     DeviceActorFactory factory, long lookaheadPs,
                                                     List<Event> initialEvents, ProgressListener listener) {
    validate(devices, lookaheadPs, initialEvents);
    Duration stallTimeout = stallTimeout(system);
    CompletableFuture<EngineOutcome> result = new CompletableFuture<>();
    ActorRef<Coordinator.Command> coordinator = system.systemActorOf(
        Coordinator.create(devices.clone(), factory, lookaheadPs, List.copyOf(initialEvents), listener,
            stallTimeout, result),
        "fabemu-run-" + RUN_COUNTER.incrementAndGet(), Props.empty());
    // Cancelling the returned future stops the run instead of leaving it running unseen.
    result.whenComplete((outcome, failure) -> {
      if (result.isCancelled()) {
        coordinator.tell(new Coordinator.Abort("cancelled by the caller"));
      }
    });
    return result;
  }

  /**
   * Runs over {@code memberCount} cluster members, blocking the calling thread (never call it from an actor).
   * Each member must run a {@link MemberAgent} (see {@link MemberAgent#start}) whose builder turns
   * {@code scenario} into the same devices as the caller's; the coordinator runs on {@code system}. The result
   * equals the one-member run of the same devices exactly.
   *
   * @param scenario       what the agents build the devices from; it crosses members, so its classes must be
   *                       listed under {@code fabemu.wire.registrations}
   * @param memberOfDevice the placement plan: the member (0..memberCount-1) of every device id
   * @param startTimeout   wall time to find the members and get them ready
   * @throws EngineMemberLostException when a member hosting part of the run is lost (its scheduler stopped, its
   *                                    node left); carries the case results finished before
   * @throws EngineFailedException when fewer members are found in time, or a member fails
   */
  public static EngineOutcome runDistributed(ActorSystem<?> system, int memberCount, RunBlueprint scenario,
                                             int[] memberOfDevice, long lookaheadPs, List<Event> initialEvents,
                                             ProgressListener listener, Duration startTimeout) {
    return runDistributed(system, memberCount, scenario, memberOfDevice, lookaheadPs, initialEvents, listener,
        startTimeout, MemberWatcher.NONE);
  }

  /**
   * Like {@link #runDistributed(ActorSystem, int, RunBlueprint, int[], long, List, ProgressListener, Duration)}, with
   * {@code watcher} reporting members the cluster finds unreachable (a member that dies without leaving), which
   * also fail the run with an {@link EngineMemberLostException}.
   */
  public static EngineOutcome runDistributed(ActorSystem<?> system, int memberCount, RunBlueprint scenario,
                                             int[] memberOfDevice, long lookaheadPs, List<Event> initialEvents,
                                             ProgressListener listener, Duration startTimeout,
                                             MemberWatcher watcher) {
    return runDistributed(system, memberCount, scenario, memberOfDevice, lookaheadPs, lookaheadPs, initialEvents,
        listener, startTimeout, watcher);
  }

  /**
   * A distributed run with two levels of windows: members synchronize once per global window of {@code windowPs}
   * (the cross-member lookahead: no event a device sends to a device of another member is due sooner than that
   * after the event that caused it) and run local sub-windows of {@code lookaheadPs} in between. The result equals
   * the one-member run's exactly; only the number of windows ({@link EngineOutcome#windows()}, the global ones)
   * falls. A device that sends to another member below {@code windowPs} fails the run ("lookahead violated across
   * members").
   *
   * @param lookaheadPs the local lookahead: positive, at most the smallest latency between two devices
   * @param windowPs    the global window: at least {@code lookaheadPs}, at most the least delay of any event
   *                    between devices on different members ({@code PlacementPlan.crossLookaheadPs})
   * @see #runDistributed(ActorSystem, int, RunBlueprint, int[], long, List, ProgressListener, Duration)
   */
  public static EngineOutcome runDistributed(ActorSystem<?> system, int memberCount, RunBlueprint scenario,
                                             int[] memberOfDevice, long lookaheadPs, long windowPs,
                                             List<Event> initialEvents, ProgressListener listener,
                                             Duration startTimeout, MemberWatcher watcher) {
    return await(startDistributed(system, memberCount, scenario, memberOfDevice, lookaheadPs, windowPs,
        initialEvents, listener, startTimeout, watcher).toCompletableFuture());
  }

  /** Starts a distributed run and returns at once; same parameters as {@link #runDistributed}. */
  public static CompletionStage<EngineOutcome> startDistributed(ActorSystem<?> system, int memberCount,
                                                                RunBlueprint scenario, int[] memberOfDevice,
                                                                long lookaheadPs, List<Event> initialEvents,
                                                                ProgressListener listener, Duration startTimeout) {
    return startDistributed(system, memberCount, scenario, memberOfDevice, lookaheadPs, lookaheadPs, initialEvents,
        listener, startTimeout, MemberWatcher.NONE);
  }

  /** Starts a distributed run and returns at once; same parameters as {@link #runDistributed}. */
  public static CompletionStage<EngineOutcome> startDistributed(ActorSystem<?> system, int memberCount,
                                                                RunBlueprint scenario, int[] memberOfDevice,
                                                                long lookaheadPs, List<Event> initialEvents,
                                                                ProgressListener listener, Duration startTimeout,
                                                                MemberWatcher watcher) {
    return startDistributed(system, memberCount, scenario, memberOfDevice, lookaheadPs, lookaheadPs, initialEvents,
        listener, startTimeout, watcher);
  }

  /** Starts a distributed run with global windows of {@code windowPs} and returns at once; see above. */
  public static CompletionStage<EngineOutcome> startDistributed(ActorSystem<?> system, int memberCount,
                                                                RunBlueprint scenario, int[] memberOfDevice,
                                                                long lookaheadPs, long windowPs,
                                                                List<Event> initialEvents, ProgressListener listener,
                                                                Duration startTimeout, MemberWatcher watcher) {
    if (lookaheadPs <= 0) {
      throw new IllegalArgumentException("lookahead must be positive, got " + lookaheadPs + " ps");
    }
    if (windowPs < lookaheadPs) {
      throw new IllegalArgumentException("the global window (" + windowPs + " ps) must be at least the lookahead ("
          + lookaheadPs + " ps)");
    }
    if (memberCount < 1) {
      throw new IllegalArgumentException("a run needs at least 1 member, got " + memberCount);
    }
    for (int id = 0; id < memberOfDevice.length; id++) {
      if (memberOfDevice[id] < 0 || memberOfDevice[id] >= memberCount) {
        throw new IllegalArgumentException("the plan puts device " + id + " on member " + memberOfDevice[id]
            + " of a run of " + memberCount);
      }
    }
    for (Event event : initialEvents) {
      if (event.targetDevice() < 0 || event.targetDevice() >= memberOfDevice.length) {
        throw new IllegalArgumentException("initial event for unknown device " + event.targetDevice() + ": " + event);
      }
    }
    Duration stallTimeout = stallTimeout(system);
    CompletableFuture<EngineOutcome> result = new CompletableFuture<>();
    ActorRef<Coordinator.Command> coordinator = system.systemActorOf(
        Coordinator.createDistributed(memberCount, scenario, memberOfDevice, lookaheadPs, windowPs,
            List.copyOf(initialEvents), listener, stallTimeout, startTimeout, watcher, result),
        "fabemu-run-" + RUN_COUNTER.incrementAndGet(), Props.empty());
    result.whenComplete((outcome, failure) -> {
      if (result.isCancelled()) {
        coordinator.tell(new Coordinator.Abort("cancelled by the caller"));
      }
    });
    return result;
  }

  private static EngineOutcome await(CompletableFuture<EngineOutcome> result) {
    try {
      return result.get();
    } catch (ExecutionException e) {
      Throwable cause = e.getCause();
      if (cause instanceof EngineMemberLostException lost) {
        throw lost.rethrown();
      }
      throw new EngineFailedException(cause.getMessage(), cause);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new EngineFailedException("interrupted while waiting for the fabemu run", e);
    }
  }

  /**
   * Checks the settings of a member's windows on several threads ({@code fabemu.engine.window-threads},
   * {@code parallel-min-events}, {@code parallel-settle-windows}), which every member's scheduler reads.
   *
   * @throws IllegalArgumentException naming the setting and the value when one is not valid
   */
  public static void checkParallelSettings(Config config) {
    PartitionedWindows.checkSettings(config);
  }

  /**
   * The size setting at {@code path} of {@code config} (one of the fan-out settings), in bytes.
   *
   * @throws IllegalArgumentException naming the setting when it is not a size of 0 B or more
   */
  public static long byteSetting(Config config, String path) {
    long bytes;
    try {
      bytes = config.getBytes(path);
    } catch (ConfigException e) {
      throw new IllegalArgumentException(path + ": " + e.getMessage(), e);
    }
    if (bytes < 0) {
      throw new IllegalArgumentException(path + " must be 0 B or more, got " + bytes + " B");
    }
    return bytes;
  }

  private static Duration stallTimeout(ActorSystem<?> system) {
    Duration stallTimeout = system.settings().config().getDuration(STALL_TIMEOUT_PATH);
    if (stallTimeout.isNegative() || stallTimeout.isZero()) {
      throw new IllegalArgumentException(STALL_TIMEOUT_PATH + " must be positive, got " + stallTimeout);
    }
    return stallTimeout;
  }

  private static void validate(DeviceCore[] devices, long lookaheadPs, List<Event> initialEvents) {
    if (lookaheadPs <= 0) {
      throw new IllegalArgumentException("lookahead must be positive, got " + lookaheadPs + " ps");
    }
    for (int i = 0; i < devices.length; i++) {
      if (devices[i] != null && devices[i].deviceId() != i) {
        throw new IllegalArgumentException("device at index " + i + " has id " + devices[i].deviceId());
      }
    }
    for (Event event : initialEvents) {
      int target = event.targetDevice();
      if (target < 0 || target >= devices.length || devices[target] == null) {
        throw new IllegalArgumentException("initial event for unknown device " + target + ": " + event);
      }
    }
  }
}
