package io.fabemu.collectives;

import java.util.ArrayList;
import java.util.List;

/**
 * Accumulates one rank's steps. Algorithms add copies, sends and receives to the current step and close it with
 * {@link #endStep()}; inside a step copies run before sends, and sends before receives are posted, whatever the
 * order of the calls, so a copy or send that depends on a receive must go to a later step. Empty steps are
 * dropped. {@link #build()} checks every region against the buffer sizes.
 */
public final class ScheduleBuilder {
  private final int rank;
  private final List<Step> steps = new ArrayList<>();
  private final List<LocalCopy> copies = new ArrayList<>();
  private final List<Transfer> sends = new ArrayList<>();
  private final List<Transfer> receives = new ArrayList<>();
  private int inputCount;
  private int outputCount;
  private int tempCount;
  private BufferId resultBuffer = BufferId.OUTPUT;
  private int phase;

  public ScheduleBuilder(int rank) {
    this.rank = rank;
  }

  public ScheduleBuilder buffers(int inputCount, int outputCount) {
    this.inputCount = inputCount;
    this.outputCount = outputCount;
    return this;
  }

  /** Makes the temp buffer at least {@code count} elements. */
  public ScheduleBuilder temp(int count) {
    tempCount = Math.max(tempCount, count);
    return this;
  }

  public ScheduleBuilder result(BufferId buffer) {
    resultBuffer = buffer;
    return this;
  }

  /** Phase put into the channel of the transfers added from now on. */
  public ScheduleBuilder phase(int phase) {
    this.phase = phase;
    return this;
  }

  public ScheduleBuilder copy(BufferId from, int fromOffset, BufferId to, int toOffset, int count) {
    if (count > 0) {
      copies.add(new LocalCopy(from, fromOffset, to, toOffset, count));
    }
    return this;
  }

  public ScheduleBuilder send(int peer, BufferId buffer, int offset, int count, int round) {
    sends.add(new Transfer(peer, buffer, offset, count, false, Tags.channel(phase, round, 0)));
    return this;
  }

  /** A send of this rank's contribution to an in-network aggregation; the aggregate reaches {@code peer}. */
  public ScheduleBuilder incSend(int peer, BufferId buffer, int offset, int count, int round) {
    sends.add(new Transfer(peer, buffer, offset, count, false, Tags.channel(phase, round, 0), true));
    return this;
  }

  public ScheduleBuilder receive(int peer, BufferId buffer, int offset, int count, boolean reduce, int round) {
    if (buffer == BufferId.INPUT) {
      throw new IllegalStateException("a schedule never writes the input buffer");
    }
    receives.add(new Transfer(peer, buffer, offset, count, reduce, Tags.channel(phase, round, 0)));
    return this;
  }

  public ScheduleBuilder endStep() {
    if (!copies.isEmpty() || !sends.isEmpty() || !receives.isEmpty()) {
      steps.add(new Step(copies, sends, receives));
      copies.clear();
      sends.clear();
      receives.clear();
    }
    return this;
  }

  public Schedule build() {
    endStep();
    Schedule schedule = new Schedule(inputCount, outputCount, tempCount, resultBuffer, steps);
    for (int s = 0; s < schedule.stepCount(); s++) {
      Step step = schedule.step(s);
      for (int i = 0; i < step.copyCount(); i++) {
        LocalCopy c = step.copy(i);
        checkRegion(schedule, c.from(), c.fromOffset(), c.count(), s);
        checkRegion(schedule, c.to(), c.toOffset(), c.count(), s);
      }
      for (int i = 0; i < step.sendCount(); i++) {
        Transfer t = step.send(i);
        checkRegion(schedule, t.buffer(), t.offset(), t.count(), s);
      }
      for (int i = 0; i < step.receiveCount(); i++) {
        Transfer t = step.receive(i);
        checkRegion(schedule, t.buffer(), t.offset(), t.count(), s);
      }
    }
    return schedule;
  }

  private void checkRegion(Schedule schedule, BufferId buffer, int offset, int count, int step) {
    if (count > 0 && (long) offset + count > schedule.bufferCount(buffer)) {
      throw new IllegalStateException("rank " + rank + " step " + step + ": region [" + offset + ", "
          + ((long) offset + count) + ") outside " + buffer + " of " + schedule.bufferCount(buffer) + " elements");
    }
  }

  /** First element of chunk {@code j} when {@code count} elements are cut into {@code parts} chunks. */
  static int chunkStart(int count, int parts, int j) {
    return j * (count / parts) + Math.min(j, count % parts);
  }

  /** Elements in chunk {@code j}: the first {@code count % parts} chunks get one extra element. */
  static int chunkCount(int count, int parts, int j) {
    return count / parts + (j < count % parts ? 1 : 0);
  }

  static int mod(int a, int m) {
    int r = a % m;
    return r < 0 ? r + m : r;
  }

  /** log2 of a power of two. */
  static int log2(int powerOfTwo) {
    return Integer.numberOfTrailingZeros(powerOfTwo);
  }
}
