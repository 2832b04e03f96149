package io.fabemu.engine;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * The worker threads that run one window's partitions in parallel inside a member, and the barrier between
 * windows. Plain Java, no actors: a window's work is a few microseconds, less than the two messages per device an
 * actor fan-out costs, so the hand-over has to be a few memory writes.
 *
 * <p>{@link #runAll} publishes {@code taskCount} tasks; the caller and the workers claim them one at a time, in
 * index order (the caller sorts the most expensive first, so the longest start first and the short ones fill the
 * gaps), and the caller returns once every task is done. A claim is a compare-and-set on one word holding the
 * round's number and the next task index, so a worker still leaving an earlier round can never take a task of a
 * later one. Between rounds a worker spins for about {@link #SPIN_NANOS} (a window follows the previous one within
 * microseconds in a busy run) and then parks until the next round unparks it; the caller never waits for a parked
 * worker to wake: it takes the tasks itself. Waiting for the last tasks, the caller spins as long and then yields.
 *
 * <p>Tasks must not throw: the caller wraps its device runs and records failures itself. A throwable that escapes
 * anyway is kept and rethrown by {@link #runAll} on the caller's thread, after the round is over.
 *
 * <p>Not thread-safe for callers: one thread (the member's scheduler) calls {@link #runAll} and {@link #close}.
 * What a task writes is visible to the caller when {@link #runAll} returns (the done count is an atomic).
 * Public for its benchmark ({@code WindowRoundBenchmark} in load-tests), which gives the parallel engine's cost
 * model the price of a round.
 */
public final class WindowWorkers implements AutoCloseable {

  /** One round's work: task {@code index} run by worker {@code worker} (0 = the caller). */
  public interface Task {
    void run(int index, int worker);
  }

  /**
   * How long an idle worker spins before it parks, and the caller before it yields between looks at the done count:
   * a busy run's next window follows within microseconds, but a spinning thread must not keep the core from the
   * JVM's other threads, or other JVMs on a shared machine, for long (the cluster's heartbeats among them).
   */
  static final long SPIN_NANOS = 10_000L;

  /** One round: its number, its task and how many indexes it has, published together by one volatile write. */
  private record Round(int number, Task task, int count) {}

  private final Thread[] threads;
  /** Non-zero while worker k (1-based; index 0 unused) is parked or about to park, so the caller must unpark it. */
  private final AtomicInteger[] parked;
  /** The round's number (high 32 bits) and the next task to claim (low 32 bits). */
  private final AtomicLong claim = new AtomicLong();
  /** Tasks of the current round that are done. */
  private final AtomicInteger done = new AtomicInteger();
  /** The current round; workers run while its number differs from the one they last saw. */
  private volatile Round round = new Round(0, (index, worker) -> { }, 0);
  private volatile boolean closed;
  private volatile Throwable escaped;

  /**
   * Starts {@code threads - 1} worker threads (the caller is the first worker).
   *
   * @param threads    workers including the caller, at least 1
   * @param namePrefix thread names, e.g. {@code fabemu-member-0-worker-}
   */
  public WindowWorkers(int threads, String namePrefix) {
    if (threads < 1) {
      throw new IllegalArgumentException("window workers: at least 1 thread, got " + threads);
    }
    this.threads = new Thread[threads];
    this.parked = new AtomicInteger[threads];
    for (int k = 1; k < threads; k++) {
      parked[k] = new AtomicInteger();
      int worker = k;
      Thread thread = new Thread(() -> workerLoop(worker), namePrefix + k);
      thread.setDaemon(true);
      this.threads[k] = thread;
      thread.start();
    }
  }

  /** Workers including the caller. */
  public int threads() {
    return threads.length;
  }

  /**
   * Runs tasks {@code 0 .. taskCount - 1} on the caller and the workers and returns when all are done.
   *
   * @throws IllegalStateException when closed
   */
  public void runAll(int taskCount, Task task) {
    if (closed) {
      throw new IllegalStateException("window workers are closed");
    }
    if (taskCount <= 0) {
      return;
    }
    if (threads.length == 1 || taskCount == 1) {
      for (int i = 0; i < taskCount; i++) {
        task.run(i, 0);
      }
      return;
    }
    int next = round.number() + 1;
    done.set(0);
    claim.set((long) next << 32);
    // A worker still leaving the previous round holds that round's count, which its claim word has reached: it can
    // take nothing, whichever of these writes it sees.
    round = new Round(next, task, taskCount);
    for (int k = 1; k < threads.length; k++) {
      if (parked[k].get() != 0) {
        LockSupport.unpark(threads[k]);
      }
    }
    work(round, 0);
    if (done.get() < taskCount) {
      // The last tasks are running on workers: spin a little, then let other threads have this core meanwhile.
      long spinUntil = System.nanoTime() + SPIN_NANOS;
      while (done.get() < taskCount) {
        if (System.nanoTime() < spinUntil) {
          Thread.onSpinWait();
        } else {
          Thread.yield();
        }
      }
    }
    Throwable failure = escaped;
    if (failure != null) {
      escaped = null;
      if (failure instanceof RuntimeException runtime) {
        throw runtime;
      }
      if (failure instanceof Error error) {
        throw error;
      }
      throw new IllegalStateException(failure);
    }
  }

  /** Claims and runs tasks of {@code current} until none is left. */
  private void work(Round current, int worker) {
    while (true) {
      long word = claim.get();
      if ((int) (word >>> 32) != current.number()) {
        return;  // a later round began: this one is over
      }
      int index = (int) word;
      if (index >= current.count()) {
        return;
      }
      if (!claim.compareAndSet(word, word + 1)) {
        continue;
      }
      try {
        current.task().run(index, worker);
      } catch (Throwable t) {
        if (escaped == null) {
          escaped = t;
        }
      }
      done.incrementAndGet();
    }
  }

  private void workerLoop(int worker) {
    int seen = 0;
    while (!closed) {
      Round current = round;
      if (current.number() != seen) {
        seen = current.number();
        work(current, worker);
        continue;
      }
      long spinUntil = System.nanoTime() + SPIN_NANOS;
      while (round.number() == seen && !closed && System.nanoTime() < spinUntil) {
        Thread.onSpinWait();
      }
      if (round.number() == seen && !closed) {
        parked[worker].set(1);
        // Re-read after announcing: a round published before the flag was set is seen here, one after is unparked.
        if (round.number() == seen && !closed) {
          LockSupport.park(this);
        }
        parked[worker].set(0);
      }
    }
  }

  /** Stops the workers (they finish the round they are in). Idempotent. */
  @Override
  public void close() {
    closed = true;
    for (int k = 1; k < threads.length; k++) {
      LockSupport.unpark(threads[k]);
    }
  }
}
