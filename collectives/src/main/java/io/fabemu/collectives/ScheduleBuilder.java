package io.fabemu.collectives;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Accumulates one rank's steps. Algorithms add copies, sends and receives to the current step and close it with
 * {@link #endStep()}; inside a step copies run before sends, and sends before receives are posted, whatever the
 * order of the calls, so a copy or send that depends on a receive must go to a later step. Empty steps are
 * dropped. {@link #build()} checks every region against the buffer sizes and packs the steps into the schedule's
 * int rows: a transfer as (peer, buffer | {@link #REDUCE} | {@link #INC}, offset, count, channel), a copy as (from,
 * fromOffset, to, toOffset, count).
 */
public final class ScheduleBuilder {
  /** Bits of a packed transfer's second int: the buffer's ordinal, and its flags above. */
  static final int BUFFER_MASK = 0xF;
  static final int REDUCE = 0x10;
  static final int INC = 0x20;

  private final int rank;
  /** The steps so far, packed as the schedule keeps them (see the class comment). */
  private int[] bounds = new int[16];
  private int boundCount;
  private int[] entries = new int[64];
  private int entryCount;
  private final List<LocalCopy> copies = new ArrayList<>();
  private final List<Transfer> sends = new ArrayList<>();
  private final List<Transfer> receives = new ArrayList<>();
  private int inputCount;
  private int outputCount;
  private int tempCount;
  private BufferId resultBuffer = BufferId.OUTPUT;
  private int phase;
  private int[] partEnds = new int[0];

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
    return send(peer, buffer, offset, count, round, 0);
  }

  /** A send on lane {@code lane} (the tag's index, see {@link EmbeddedRings}); the receive names the same lane. */
  public ScheduleBuilder send(int peer, BufferId buffer, int offset, int count, int round, int lane) {
    sends.add(new Transfer(peer, buffer, offset, count, false, Tags.channel(phase, round, lane)));
    return this;
  }

  /** A send of this rank's contribution to an in-network aggregation; the aggregate reaches {@code peer}. */
  public ScheduleBuilder incSend(int peer, BufferId buffer, int offset, int count, int round) {
    sends.add(new Transfer(peer, buffer, offset, count, false, Tags.channel(phase, round, 0), true));
    return this;
  }

  public ScheduleBuilder receive(int peer, BufferId buffer, int offset, int count, boolean reduce, int round) {
    return receive(peer, buffer, offset, count, reduce, round, 0);
  }

  /** A receive of the send on lane {@code lane}. */
  public ScheduleBuilder receive(int peer, BufferId buffer, int offset, int count, boolean reduce, int round,
                                 int lane) {
    if (buffer == BufferId.INPUT) {
      throw new IllegalStateException("a schedule never writes the input buffer");
    }
    receives.add(new Transfer(peer, buffer, offset, count, reduce, Tags.channel(phase, round, lane)));
    return this;
  }

  /**
   * Closes the current step and ends a named part of the operation there (see {@link Schedule#partEnd}): the
   * executor records when the rank got past it.
   */
  public ScheduleBuilder endPart() {
    endStep();
    partEnds = Arrays.copyOf(partEnds, partEnds.length + 1);
    partEnds[partEnds.length - 1] = boundCount / 3;
    return this;
  }

  public ScheduleBuilder endStep() {
    if (!copies.isEmpty() || !sends.isEmpty() || !receives.isEmpty()) {
      bound();
      for (LocalCopy c : copies) {
        entry(c.from().ordinal(), c.fromOffset(), c.to().ordinal(), c.toOffset(), c.count());
      }
      bound();
      for (Transfer t : sends) {
        entry(t);
      }
      bound();
      for (Transfer t : receives) {
        entry(t);
      }
      copies.clear();
      sends.clear();
      receives.clear();
    }
    return this;
  }

  private void bound() {
    if (boundCount == bounds.length) {
      bounds = Arrays.copyOf(bounds, bounds.length * 2);
    }
    bounds[boundCount++] = entryCount / Schedule.ENTRY_INTS;
  }

  private void entry(Transfer t) {
    entry(t.peer(), t.buffer().ordinal() | (t.reduce() ? REDUCE : 0) | (t.inc() ? INC : 0), t.offset(), t.count(),
        t.channel());
  }

  private void entry(int a, int b, int c, int d, int e) {
    if (entryCount + Schedule.ENTRY_INTS > entries.length) {
      entries = Arrays.copyOf(entries, entries.length * 2);
    }
    entries[entryCount++] = a;
    entries[entryCount++] = b;
    entries[entryCount++] = c;
    entries[entryCount++] = d;
    entries[entryCount++] = e;
  }

  public Schedule build() {
    endStep();
    bound();  // ends the last step's receives
    Schedule schedule = new Schedule(inputCount, outputCount, tempCount, resultBuffer,
        Arrays.copyOf(bounds, boundCount), Arrays.copyOf(entries, entryCount), partEnds.clone());
    boundCount--;  // the builder may go on adding steps
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
