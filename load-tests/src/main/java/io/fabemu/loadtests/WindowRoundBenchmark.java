package io.fabemu.loadtests;

import io.fabemu.engine.WindowWorkers;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.Blackhole;

/**
 * What one round of a member's window workers costs (the parallel engine's barrier, docs/performance.md "Parallel
 * and distributed speed"): {@code tasks} partitions claimed by {@code threads} threads, each partition burning
 * {@code tokensPerTask} of {@link Blackhole#consumeCPU} (about 1.5–2 ns a token on this machine, measured by the
 * {@code threads = 1} rows). The {@code tokensPerTask = 0} rows are the fixed price of a round; the others show what
 * a window of that much work gains from a second thread. Run with {@code load-tests/run-jmh.sh WindowRoundBenchmark}.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class WindowRoundBenchmark {

  @Param({"1", "2"})
  int threads;

  /** Partitions with work in the round: 8 is one member's 4 per thread on 2 threads. */
  @Param({"2", "8"})
  int tasks;

  /** Work per partition; 0 = the round's own cost. */
  @Param({"0", "500", "5000"})
  int tokensPerTask;

  private WindowWorkers workers;
  private WindowWorkers.Task task;

  @Setup(Level.Trial)
  public void setUp() {
    workers = new WindowWorkers(threads, "jmh-window-worker-");
    int tokens = tokensPerTask;
    task = (index, worker) -> Blackhole.consumeCPU(tokens);
  }

  @TearDown(Level.Trial)
  public void tearDown() {
    workers.close();
  }

  /** One round: every task claimed and run, then the barrier. */
  @Benchmark
  public void round() {
    workers.runAll(tasks, task);
  }
}
