package io.fabemu.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import java.time.Duration;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicIntegerArray;
import org.junit.jupiter.api.Test;

/** The window workers: every task of a round exactly once, the round over when runAll returns, failures rethrown. */
class WindowWorkersTest {
  private static final Duration LIMIT = Duration.ofSeconds(30);

  @Test
  void shouldRunEveryTaskOfEveryRoundExactlyOnceBeforeReturning() {
    for (int threads : new int[] {1, 2, 3, 8}) {
      try (WindowWorkers workers = new WindowWorkers(threads, "test-worker-")) {
        SplittableRandom random = new SplittableRandom(threads);
        assertTimeoutPreemptively(LIMIT, () -> {
          for (int round = 0; round < 20_000; round++) {
            int tasks = random.nextInt(40);
            AtomicIntegerArray runs = new AtomicIntegerArray(Math.max(1, tasks));
            int[] plain = new int[Math.max(1, tasks)];
            // Rounds of very different lengths, some with idle workers parking between them.
            int spin = round % 1000 == 0 ? 200_000 : random.nextInt(50);
            workers.runAll(tasks, (index, worker) -> {
              assertThat(worker).isBetween(0, threads - 1);
              long x = 0;
              for (int i = 0; i < spin; i++) {
                x += i ^ index;
              }
              plain[index] += 1 + (int) (x & 0);  // written by the worker, read after runAll: must be visible
              runs.incrementAndGet(index);
            });
            for (int i = 0; i < tasks; i++) {
              assertThat(runs.get(i)).as("round %d task %d on %d threads", round, i, threads).isEqualTo(1);
              assertThat(plain[i]).isEqualTo(1);
            }
          }
        });
      }
    }
  }

  @Test
  void shouldRethrowWhatATaskThrowsAfterTheRoundAndKeepWorking() {
    try (WindowWorkers workers = new WindowWorkers(3, "test-worker-")) {
      AtomicIntegerArray runs = new AtomicIntegerArray(10);
      assertThatThrownBy(() -> workers.runAll(10, (index, worker) -> {
        runs.incrementAndGet(index);
        if (index == 7) {
          throw new IllegalStateException("task 7 broke");
        }
      })).isInstanceOf(IllegalStateException.class).hasMessage("task 7 broke");
      for (int i = 0; i < 10; i++) {
        assertThat(runs.get(i)).as("task %d ran once, the failure notwithstanding", i).isEqualTo(1);
      }

      AtomicIntegerArray again = new AtomicIntegerArray(5);
      workers.runAll(5, (index, worker) -> again.incrementAndGet(index));
      for (int i = 0; i < 5; i++) {
        assertThat(again.get(i)).isEqualTo(1);
      }
    }
  }

  @Test
  void shouldRefuseRoundsOnceClosedAndAThreadCountBelowOne() {
    WindowWorkers workers = new WindowWorkers(2, "test-worker-");
    workers.close();
    workers.close();

    assertThatThrownBy(() -> workers.runAll(3, (index, worker) -> { }))
        .isInstanceOf(IllegalStateException.class).hasMessage("window workers are closed");
    assertThatThrownBy(() -> new WindowWorkers(0, "test-worker-"))
        .isInstanceOf(IllegalArgumentException.class).hasMessage("window workers: at least 1 thread, got 0");
  }
}
