package io.fabemu.loadtests;

import java.util.SplittableRandom;
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
import org.openjdk.jmh.annotations.Warmup;

/**
 * What one core of the machine it runs on does per byte when an MPI rank copies or reduces a received vector: the
 * source of the host rates of {@code profiles/cpu100g-leaf-spine.conf} ({@code memory-bandwidth}: a copy,
 * {@code reduce-rate}: {@code sum[i] += received[i]} on float32). Plain loops over float arrays, which the JIT
 * compiles to SIMD loads, adds and stores as a C compiler does an MPI library's reduction; 1 MiB (in the caches, a
 * large collective's pipelined chunk) and 64 MiB (from memory). The score is nanoseconds per operation: bytes per
 * second = {@code 4 * elements / score * 1e9}. Run with {@code load-tests/run-jmh.sh HostRatesBenchmark}.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class HostRatesBenchmark {

  /** float32 elements: 262,144 = 1 MiB; 16,777,216 = 64 MiB. */
  @Param({"262144", "16777216"})
  int elements;

  private float[] received;
  private float[] sum;
  private float[] copy;

  @Setup(Level.Trial)
  public void setUp() {
    received = new float[elements];
    sum = new float[elements];
    copy = new float[elements];
    SplittableRandom random = new SplittableRandom(1);
    for (int i = 0; i < elements; i++) {
      received[i] = random.nextInt(-4, 5);
      sum[i] = random.nextInt(-4, 5);
    }
  }

  /** A received vector copied into the rank's buffer (an intra-node single copy). */
  @Benchmark
  public float[] copyVector() {
    System.arraycopy(received, 0, copy, 0, elements);
    return copy;
  }

  /** A received vector added into the rank's partial sum (MPI_SUM on MPI_FLOAT). */
  @Benchmark
  public float[] reduceSumVector() {
    float[] s = sum;
    float[] r = received;
    for (int i = 0; i < s.length; i++) {
      s[i] += r[i];
    }
    return s;
  }
}
