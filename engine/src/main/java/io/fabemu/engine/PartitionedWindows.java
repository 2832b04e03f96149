package io.fabemu.engine;

import com.typesafe.config.Config;
import io.fabemu.core.sim.DeviceCore;
import io.fabemu.core.sim.DeviceReport;
import io.fabemu.core.sim.DeviceRunner;
import io.fabemu.core.sim.Event;
import io.fabemu.core.sim.EventCalendar;
import java.util.ArrayList;
import java.util.List;

/**
 * The pending events of a member's devices, kept per partition, and the sub-windows run on every core of the
 * member: each partition's events are drained, its devices run and what they send is filed by one of the member's
 * {@link WindowWorkers}, all partitions at once, with a barrier between sub-windows. Within a window the devices are
 * independent (their input is fixed before it opens, and whatever they send is due at or after its end), so every
 * device gets the same events in the same order as on one thread: results never depend on the core count.
 *
 * <p><b>Partitions.</b> The hosted devices in id order, cut into {@link #PARTITIONS_PER_THREAD} blocks per worker
 * of about equal device counts. Device ids follow the topology (a TOR's hosts are consecutive, a mesh's or torus's
 * routers go row by row, compute nodes in host order), so a block is a piece of the topology: a few TORs' NICs, a
 * slab of a grid. Each partition has its own {@link EventCalendar}, so draining, sorting and filing run in parallel
 * too, and most events (those between devices of one partition) never leave the worker that made them.
 *
 * <p><b>Between partitions.</b> An event for a device of another partition goes to that partition's inbox from this
 * worker (one list per worker and partition, two sets used in turn, so a round writes one set while the partitions
 * take in the other): it is due at or after the window's end, so the partition files it when it runs the next
 * window, before draining. An event for another member's device is collected per member for the scheduler, which
 * sends them at the end of the global window; one due before that end breaks the cross-member lookahead and fails
 * the run, as on one thread.
 *
 * <p><b>Load balance.</b> Each window the partitions with work (events due in the window or an inbox to take in) are
 * handed out most expensive first, by the events they handled in their last window, and claimed by whichever worker
 * is free (longest processing time first, then self-scheduling): it follows the work as it moves through the
 * topology, and a worker that the machine delays simply takes fewer partitions. Work counts events handled plus the
 * data they make devices copy or reduce, {@link #EVENT_COST_BYTES} to an event. A window that follows one of less
 * work than {@code fabemu.engine.parallel-min-events} runs on the scheduler's thread alone: waking the workers, the
 * claims and the barrier cost about as much as a few hundred events' work, and what crosses cores is slower to read
 * (docs/performance.md, "Parallel and distributed speed").
 *
 * <p>Used by the member's scheduler thread only; the workers touch the partitions and runners only inside
 * {@link #runWindow}. The scheduler adds events between windows only.
 *
 * <p>Just past 500 lines, most of them comments on who may touch what when: the window's state that the caller and
 * the workers share stays private to one class, so that no other code can touch it mid-round.
 */
final class PartitionedWindows implements AutoCloseable {

  static final String WINDOW_THREADS_PATH = "fabemu.engine.window-threads";
  static final String PARALLEL_MIN_EVENTS_PATH = "fabemu.engine.parallel-min-events";
  static final String PARALLEL_SETTLE_WINDOWS_PATH = "fabemu.engine.parallel-settle-windows";

  /** Partitions per worker: enough to even out uneven partitions, few enough to keep a partition's events local. */
  static final int PARTITIONS_PER_THREAD = 4;

  /**
   * The data work that costs as much as handling one event, in bytes: an event is a few hundred nanoseconds, and
   * reducing or copying a byte about a twentieth of one (the host rates of {@code HostRatesBenchmark}, 17–18 GB/s).
   */
  static final long EVENT_COST_BYTES = 4096L;

  /** Longs between two partitions' entries in a shared array, so that workers do not write the same cache line. */
  private static final int STRIDE = 8;

  /** What one worker did in a window; its own object, so workers do not share cache lines. */
  private static final class WorkerState {
    final ArrayList<Event> out = new ArrayList<>();
    /** Events for each other member's devices, by member id. */
    final ArrayList<Event>[] outbound;
    /** Partitions whose inbox from this worker became non-empty in the window. */
    int[] touched = new int[16];
    int touchedCount;
    long inboxMinPs = Long.MAX_VALUE;
    long handled;
    /** Events handled plus data work in event equivalents ({@link #EVENT_COST_BYTES}). */
    long work;
    long progressDelta;
    ArrayList<DeviceReport.RankResult> finished;
    int failedDevice = -1;
    Throwable failure;
    String violation;
    // Padding: keeps the hot counters above off the next object's cache line.
    long p1, p2, p3, p4, p5, p6, p7;

    @SuppressWarnings("unchecked")
    WorkerState(int members) {
      outbound = (ArrayList<Event>[]) new ArrayList<?>[members];
      for (int m = 0; m < members; m++) {
        outbound[m] = new ArrayList<>();
      }
    }
  }

  /** What a window did, read by the scheduler after {@link #runWindow}. */
  static final class Outcome {
    long handled;
    long progressDelta;
    /** Case results finished in the window; null when none. */
    ArrayList<DeviceReport.RankResult> finished;
    /** The first failing device and what it threw; -1 and null when none failed. */
    int failedDevice = -1;
    Throwable failure;
    /** A cross-member lookahead violation, or null. */
    String violation;
  }

  private final DeviceRunner[] runners;
  private final long[] lastProgress;
  private final WindowWorkers workers;
  private final WorkerState[] states;
  private final int partitions;
  /** The partition of each device id; -1 for devices hosted elsewhere. */
  private final int[] partitionOf;
  private final EventCalendar[] calendars;
  /** inbox[set][worker][partition]: events a worker sent to a partition's devices. */
  private final ArrayList<Event>[][][] inbox;
  private int writeSet;
  /** Earliest pending event per partition (at index p * STRIDE), its calendar's and nothing else. */
  private final long[] partitionNextPs;
  /** Work of each partition in its last window (at p * STRIDE), in event equivalents: its cost for the next. */
  private final long[] partitionCost;
  /** Earliest event in the inboxes written by the last window (taken in by the next). */
  private long inboxMinPs = Long.MAX_VALUE;
  private final boolean[] inboxPending;
  private final int minEvents;
  private final int[] memberOfDevice;
  private final int memberId;
  private final Outcome outcome = new Outcome();
  private final WindowWorkers.Task task = this::runPartition;
  private final EventCalendar.BatchConsumer[] runnerOf;

  // The window being run; set before the workers start, read by them.
  private int[] taskPartition;
  private long windowEndPs;
  private long globalEndPs;
  private int readSet;
  /** Work of the last window in event equivalents: what the next is likely to be. */
  private long lastWindowWork;
  /** Work of every window so far, in event equivalents. */
  private long totalWork;
  private long parallelWindows;
  private long windows;

  /**
   * @param runners        the runner of each hosted device by id (null elsewhere)
   * @param lastProgress   each device's last reported progress, by id, updated here (the scheduler's array)
   * @param threads        workers including the scheduler's thread, at least 1
   * @param minEvents      least work (event equivalents) in the previous window for a window to run on the workers
   * @param lookaheadPs    the local lookahead: the calendars' bucket width
   * @param memberOfDevice the member of each device id, or null when every device is on this member
   */
  @SuppressWarnings("unchecked")
  PartitionedWindows(DeviceRunner[] runners, long[] lastProgress, int threads, int minEvents, long lookaheadPs,
                     int[] memberOfDevice, int memberId, int memberCount, String threadName) {
    this.runners = runners;
    this.lastProgress = lastProgress;
    this.minEvents = minEvents;
    this.memberOfDevice = memberOfDevice;
    this.memberId = memberId;
    int hosted = 0;
    for (DeviceRunner runner : runners) {
      if (runner != null) {
        hosted++;
      }
    }
    int usable = Math.max(1, Math.min(threads, hosted));
    this.workers = new WindowWorkers(usable, threadName);
    this.partitions = Math.max(1, Math.min(hosted, usable * PARTITIONS_PER_THREAD));
    this.partitionOf = new int[runners.length];
    int seen = 0;
    for (int id = 0; id < runners.length; id++) {
      if (runners[id] != null) {
        partitionOf[id] = (int) ((long) seen * partitions / hosted);
        seen++;
      } else {
        partitionOf[id] = -1;
      }
    }
    this.calendars = new EventCalendar[partitions];
    for (int p = 0; p < partitions; p++) {
      calendars[p] = new EventCalendar(lookaheadPs);
    }
    this.states = new WorkerState[usable];
    for (int w = 0; w < usable; w++) {
      states[w] = new WorkerState(memberCount);
    }
    this.inbox = (ArrayList<Event>[][][]) new ArrayList<?>[2][usable][partitions];
    for (int set = 0; set < 2; set++) {
      for (int w = 0; w < usable; w++) {
        for (int p = 0; p < partitions; p++) {
          inbox[set][w][p] = new ArrayList<>();
        }
      }
    }
    this.partitionNextPs = new long[partitions * STRIDE];
    for (int p = 0; p < partitions; p++) {
      partitionNextPs[p * STRIDE] = Long.MAX_VALUE;
    }
    this.partitionCost = new long[partitions * STRIDE];
    this.inboxPending = new boolean[partitions];
    this.taskPartition = new int[partitions];
    this.runnerOf = new EventCalendar.BatchConsumer[usable];
    for (int w = 0; w < usable; w++) {
      int worker = w;
      runnerOf[w] = (device, events) -> runDevice(worker, device, events);
    }
  }

  /**
   * The partitioned windows of a member with the settings of {@code config}: {@code fabemu.engine.window-threads}
   * ({@code auto}: the cores the JVM sees, {@code -XX:ActiveProcessorCount} included) and
   * {@code fabemu.engine.parallel-min-events}.
   *
   * @throws IllegalArgumentException naming the setting when one is not valid
   */
  static PartitionedWindows create(Config config, DeviceRunner[] runners, long[] lastProgress, long lookaheadPs,
                                   int[] memberOfDevice, int memberId, int memberCount) {
    return new PartitionedWindows(runners, lastProgress, threads(config), minEvents(config), lookaheadPs,
        memberOfDevice, memberId, memberCount, "fabemu-member-" + memberId + "-window-worker-");
  }

  /** The worker count {@code fabemu.engine.window-threads} of {@code config} gives on this JVM. */
  static int threads(Config config) {
    String value = config.getString(WINDOW_THREADS_PATH).trim();
    if (value.equals("auto")) {
      return Runtime.getRuntime().availableProcessors();
    }
    try {
      int threads = Integer.parseInt(value);
      if (threads >= 1 && threads <= 4096) {
        return threads;
      }
    } catch (NumberFormatException e) {
      // the message below says what is allowed
    }
    throw new IllegalArgumentException(WINDOW_THREADS_PATH + " must be auto or a whole number from 1 to 4096, got "
        + value);
  }

  private static int minEvents(Config config) {
    int value = intSetting(config, PARALLEL_MIN_EVENTS_PATH);
    if (value < 0) {
      throw new IllegalArgumentException(PARALLEL_MIN_EVENTS_PATH + " must be 0 or more, got " + value);
    }
    return value;
  }

  /** The sub-windows after which a member looks whether its windows are big enough ({@link #windowsTooSmall}). */
  static long settleWindows(Config config) {
    int value = intSetting(config, PARALLEL_SETTLE_WINDOWS_PATH);
    if (value < 1) {
      throw new IllegalArgumentException(PARALLEL_SETTLE_WINDOWS_PATH + " must be at least 1, got " + value);
    }
    return value;
  }

  /**
   * Checks every setting of the parallel windows in {@code config}.
   *
   * @throws IllegalArgumentException naming the setting and the value when one is not valid
   */
  static void checkSettings(Config config) {
    threads(config);
    minEvents(config);
    settleWindows(config);
  }

  private static int intSetting(Config config, String path) {
    try {
      return config.getInt(path);
    } catch (com.typesafe.config.ConfigException e) {
      throw new IllegalArgumentException(path + " must be a whole number, got " + config.getValue(path).render(),
          e);
    }
  }

  /** Workers, the scheduler's thread included. */
  int threads() {
    return workers.threads();
  }

  int partitions() {
    return partitions;
  }

  /** Windows run so far, and how many of them on the workers. */
  long windows() {
    return windows;
  }

  long parallelWindows() {
    return parallelWindows;
  }

  /**
   * Whether the windows so far were too small for the workers on average (less work than
   * {@code parallel-min-events}): a fabric whose windows stay that small (a router network's half-cycle windows)
   * runs faster on one thread with one calendar, as the scheduler then does ({@link #moveTo}).
   */
  boolean windowsTooSmall() {
    return windows > 0 && totalWork < (long) minEvents * windows;
  }

  /**
   * Moves every pending event, the inboxes' included, into {@code calendar} (between windows), and stops the
   * workers: the member goes on with one calendar on its scheduler's thread.
   */
  void moveTo(EventCalendar calendar) {
    for (ArrayList<Event>[][] set : inbox) {
      for (ArrayList<Event>[] fromWorker : set) {
        for (ArrayList<Event> events : fromWorker) {
          calendar.addAll(events);
          events.clear();
        }
      }
    }
    for (EventCalendar partition : calendars) {
      partition.drainWindow(Long.MAX_VALUE, (device, events) -> calendar.addAll(events));
    }
    inboxMinPs = Long.MAX_VALUE;
    close();
  }

  /** Files an event for a hosted device (between windows only). */
  void add(Event event) {
    int target = event.targetDevice();
    int p = target >= 0 && target < partitionOf.length ? partitionOf[target] : -1;
    if (p < 0) {
      throw new IllegalStateException("member " + memberId + " has an event for device " + target
          + ", which it does not host: " + event);
    }
    calendars[p].add(event);
    partitionNextPs[p * STRIDE] = Math.min(partitionNextPs[p * STRIDE], event.timePs());
  }

  void addAll(List<Event> events) {
    for (int i = 0, n = events.size(); i < n; i++) {
      add(events.get(i));
    }
  }

  /** Time of the earliest pending event of this member, {@link Long#MAX_VALUE} when none. */
  long nextTimePs() {
    long next = inboxMinPs;
    for (int p = 0; p < partitions; p++) {
      next = Math.min(next, partitionNextPs[p * STRIDE]);
    }
    return next;
  }

  /**
   * Runs the window that ends at {@code windowEndPs}: every event due before it, and every self-event the devices
   * schedule inside it. Events for other members go to {@code outbound} (by member id); one due before
   * {@code globalEndPs} is a violation, reported in the outcome.
   *
   * @return what the window did (the same object every time, valid until the next call)
   */
  Outcome runWindow(long windowEndPs, long globalEndPs, ArrayList<Event>[] outbound) {
    this.windowEndPs = windowEndPs;
    this.globalEndPs = globalEndPs;
    readSet = writeSet;
    writeSet ^= 1;
    // The partitions with work: events due in the window, or an inbox from the last window to take in.
    int tasks = 0;
    for (int p = 0; p < partitions; p++) {
      if (partitionNextPs[p * STRIDE] < windowEndPs || inboxPending[p]) {
        inboxPending[p] = false;
        taskPartition[tasks++] = p;
      }
    }
    sortByCostDescending(tasks);
    inboxMinPs = Long.MAX_VALUE;
    windows++;
    if (tasks > 1 && lastWindowWork >= minEvents && workers.threads() > 1) {
      parallelWindows++;
      workers.runAll(tasks, task);
    } else {
      for (int i = 0; i < tasks; i++) {
        runPartition(i, 0);
      }
    }
    return gather(outbound);
  }

  /** Adds up what the workers did, hands over their events for other members and notes the new inboxes. */
  private Outcome gather(ArrayList<Event>[] outbound) {
    Outcome result = outcome;
    result.handled = 0;
    result.progressDelta = 0;
    result.finished = null;
    result.failedDevice = -1;
    result.failure = null;
    result.violation = null;
    long work = 0;
    for (WorkerState state : states) {
      work += state.work;
      state.work = 0;
      result.handled += state.handled;
      result.progressDelta += state.progressDelta;
      state.handled = 0;
      state.progressDelta = 0;
      if (state.finished != null) {
        if (result.finished == null) {
          result.finished = new ArrayList<>();
        }
        result.finished.addAll(state.finished);
        state.finished = null;
      }
      if (state.failure != null && (result.failure == null || state.failedDevice < result.failedDevice)) {
        result.failure = state.failure;
        result.failedDevice = state.failedDevice;
      }
      state.failure = null;
      state.failedDevice = -1;
      if (state.violation != null && result.violation == null) {
        result.violation = state.violation;
      }
      state.violation = null;
      for (int m = 0; m < state.outbound.length; m++) {
        if (!state.outbound[m].isEmpty()) {
          outbound[m].addAll(state.outbound[m]);
          state.outbound[m].clear();
        }
      }
      for (int i = 0; i < state.touchedCount; i++) {
        inboxPending[state.touched[i]] = true;
      }
      state.touchedCount = 0;
      inboxMinPs = Math.min(inboxMinPs, state.inboxMinPs);
      state.inboxMinPs = Long.MAX_VALUE;
    }
    lastWindowWork = work;
    totalWork += work;
    return result;
  }

  /** Insertion sort of the first {@code tasks} task partitions by last cost, most expensive first. */
  private void sortByCostDescending(int tasks) {
    for (int i = 1; i < tasks; i++) {
      int p = taskPartition[i];
      long cost = partitionCost[p * STRIDE];
      int j = i - 1;
      while (j >= 0 && partitionCost[taskPartition[j] * STRIDE] < cost) {
        taskPartition[j + 1] = taskPartition[j];
        j--;
      }
      taskPartition[j + 1] = p;
    }
  }

  /** Task {@code index} on worker {@code worker}: takes in the partition's inboxes and runs its window. */
  private void runPartition(int index, int worker) {
    int p = taskPartition[index];
    EventCalendar calendar = calendars[p];
    for (ArrayList<Event>[] fromWorker : inbox[readSet]) {
      ArrayList<Event> events = fromWorker[p];
      if (!events.isEmpty()) {
        calendar.addAll(events);
        events.clear();
      }
    }
    WorkerState state = states[worker];
    long workBefore = state.work;
    calendar.drainWindow(windowEndPs, runnerOf[worker]);
    partitionCost[p * STRIDE] = state.work - workBefore;
    partitionNextPs[p * STRIDE] = calendar.nextTimePs();
  }

  /** Runs one device's batch on worker {@code worker} and files what it sent. */
  private void runDevice(int worker, int device, List<Event> events) {
    WorkerState state = states[worker];
    // Only hosted devices' events are ever filed here (add and file check the target), so the runner exists.
    DeviceRunner runner = runners[device];
    ArrayList<Event> out = state.out;
    int handled;
    try {
      handled = runner.runWindow(events, windowEndPs, out);
    } catch (RuntimeException | AssertionError | StackOverflowError e) {
      // Every device of the window still runs, and the lowest failing id is the one reported, whatever the threads.
      fail(state, device, e);
      out.clear();
      return;
    }
    int home = partitionOf[device];
    for (int i = 0, n = out.size(); i < n; i++) {
      file(state, worker, home, device, out.get(i));
    }
    out.clear();
    state.handled += handled;
    long dataBytes = 0;
    for (int i = 0, n = events.size(); i < n; i++) {
      dataBytes += events.get(i).payload().dataWorkBytes();
    }
    state.work += handled + dataBytes / EVENT_COST_BYTES;
    DeviceCore core = runner.core();
    long progress = core.progress();
    state.progressDelta += progress - lastProgress[device];
    lastProgress[device] = progress;
    List<DeviceReport.RankResult> finished = core.takeFinishedResults();
    if (!finished.isEmpty()) {
      if (state.finished == null) {
        state.finished = new ArrayList<>();
      }
      state.finished.addAll(finished);
    }
  }

  private void file(WorkerState state, int worker, int home, int device, Event event) {
    int target = event.targetDevice();
    if (target < 0 || target >= partitionOf.length) {
      fail(state, device, new IllegalStateException("device " + device + " sent an event to unknown device "
          + target + ": " + event));
      return;
    }
    int p = partitionOf[target];
    if (p == home) {
      calendars[p].add(event);  // due at or after the window's end: never drained in this one
    } else if (p >= 0) {
      ArrayList<Event> events = inbox[writeSet][worker][p];
      if (events.isEmpty()) {
        if (state.touchedCount == state.touched.length) {
          state.touched = java.util.Arrays.copyOf(state.touched, state.touchedCount * 2);
        }
        state.touched[state.touchedCount++] = p;
      }
      events.add(event);
      state.inboxMinPs = Math.min(state.inboxMinPs, event.timePs());
    } else {
      int member = memberOfDevice == null ? -1 : memberOfDevice[target];
      if (member < 0 || member == memberId) {
        fail(state, device, new IllegalStateException("device " + device + " sent an event to device " + target
            + ", which " + (member < 0 ? "no member hosts" : "member " + memberId + " has no core for") + ": "
            + event));
        return;
      }
      if (event.timePs() < globalEndPs && state.violation == null) {
        state.violation = "lookahead violated across members: device " + device + " (member " + memberId
            + ") sent " + event.payload().getClass().getSimpleName() + " to device " + target + " (member "
            + member + ") due at " + event.timePs() + " ps, before the global window's end " + globalEndPs + " ps";
      }
      state.outbound[member].add(event);
    }
  }

  /** Keeps {@code failure} when {@code device} is the lowest failing device this worker has seen in the window. */
  private static void fail(WorkerState state, int device, Throwable failure) {
    if (state.failure == null || device < state.failedDevice) {
      state.failure = failure;
      state.failedDevice = device;
    }
  }

  @Override
  public void close() {
    workers.close();
  }
}
