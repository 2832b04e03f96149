package io.fabemu.loadtests;

import io.fabemu.collectives.InputGenerator;
import io.fabemu.core.data.DataBuffer;
import io.fabemu.core.data.DataType;
import io.fabemu.core.data.ReduceOp;
import io.fabemu.core.protocol.DeviceProtocol.StartWorkload;
import io.fabemu.core.sim.Event;
import io.fabemu.core.sim.EventCalendar;
import java.util.List;
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
import org.openjdk.jmh.infra.Blackhole;

/**
 * JMH micro-benchmarks of per-event hot paths: reducing a received segment into a buffer, and one window of
 * the event calendar (insert, then drain into per-device batches); and of a real-data run's per-case work: filling a
 * rank's 1 MiB input from the seeded generator (every rank, every case). Run with
 * {@code load-tests/run-jmh.sh} (arguments go to JMH, e.g. {@code -f 1 -wi 2 -i 3}).
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class HotPathBenchmark {

  /** Elements of the input {@link #fillInputOneMib} fills: 1 MiB of float32. */
  private static final int INPUT_ELEMENTS = 262_144;

  /** Elements in a segment: 1024 float32 = one 4 KiB segment. */
  @Param({"1024"})
  int elements;

  /** Events pending per window and devices they go to. */
  @Param({"2000"})
  int eventsPerWindow;

  private DataBuffer target;
  private DataBuffer segment;
  private Event[] window;
  private EventCalendar calendar;
  /** A rank's input of 1 MiB of float32 and the generator that fills it. */
  private DataBuffer input;
  private InputGenerator generator;

  @Setup(Level.Trial)
  public void setUp() {
    target = DataBuffer.allocate(DataType.FLOAT32, elements, false);
    segment = DataBuffer.allocate(DataType.FLOAT32, elements, false);
    SplittableRandom random = new SplittableRandom(1);
    for (int i = 0; i < elements; i++) {
      segment.set(i, random.nextInt(-4, 5));
    }
    window = new Event[eventsPerWindow];
    for (int i = 0; i < eventsPerWindow; i++) {
      window[i] = new Event(random.nextLong(1_000_000L), random.nextInt(8_000), i, random.nextInt(8_000),
          StartWorkload.INSTANCE);
    }
    calendar = new EventCalendar(1_000_000L);  // one bucket: the events' whole span
    input = DataBuffer.allocate(DataType.FLOAT32, INPUT_ELEMENTS, false);
    generator = new InputGenerator(42, DataType.FLOAT32, ReduceOp.SUM);
  }

  @Benchmark
  public DataBuffer reduceFloat32SumSegment() {
    target.reduceFrom(ReduceOp.SUM, 0, segment);
    return target;
  }

  @Benchmark
  public DataBuffer sliceSegment() {
    return segment.slice(0, elements);
  }

  @Benchmark
  public DataBuffer fillInputOneMib() {
    generator.fill(4L * INPUT_ELEMENTS, 3, 0, input, 0, INPUT_ELEMENTS);
    return input;
  }

  @Benchmark
  public void calendarWindowOfEvents(Blackhole sink) {
    calendar.addAll(List.of(window));
    calendar.drainWindow(Long.MAX_VALUE, (device, events) -> sink.consume(events));
  }
}
