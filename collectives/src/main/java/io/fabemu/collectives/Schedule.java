package io.fabemu.collectives;


/**
 * Everything one rank does in one collective operation: the sizes of its buffers, its steps in order, and the
 * buffer that holds its result. Built per rank by {@link Schedules#build}; never materialized for all ranks at once.
 * Immutable, so a schedule is built once per (algorithm, size) case and reused by every iteration.
 *
 * <p>Packed: every rank of a run holds its schedule for the whole case, and a ring on 4,096 ranks has 8,190 steps
 * per rank, so steps are not objects but rows of two int arrays ({@link #ENTRY_INTS} ints per copy, send or
 * receive, three bounds per step), about 50 bytes a ring step instead of some 170 in objects. {@link #step}
 * returns a light view, and the view's {@link Transfer}s and {@link LocalCopy}s are made when asked for.
 */
public final class Schedule {
  private final int inputCount;
  private final int outputCount;
  private final int tempCount;
  private final BufferId resultBuffer;
  /**
   * Per step s: {@code bounds[3s]}, {@code bounds[3s + 1]}, {@code bounds[3s + 2]} are the indices of its first copy,
   * first send and first receive in {@link #entries}; {@code bounds[3s + 3]} ends its receives.
   */
  private final int[] bounds;
  /** {@link #ENTRY_INTS} ints per entry, see {@link ScheduleBuilder}'s packing. */
  private final int[] entries;
  /** The step each named part ends before, ascending (see {@link ScheduleBuilder#endPart()}); usually empty. */
  private final int[] partEnds;

  /** Ints per packed copy, send or receive. */
  static final int ENTRY_INTS = 5;

  Schedule(int inputCount, int outputCount, int tempCount, BufferId resultBuffer, int[] bounds, int[] entries,
           int[] partEnds) {
    this.inputCount = inputCount;
    this.outputCount = outputCount;
    this.tempCount = tempCount;
    this.resultBuffer = resultBuffer;
    this.bounds = bounds;
    this.entries = entries;
    this.partEnds = partEnds;
  }

  /**
   * Parts the operation is cut into for reporting (a pipeline iteration's forward and backward passes), each
   * ending where the next begins; 0 for the collectives, which are one part.
   */
  public int partCount() {
    return partEnds.length;
  }

  /**
   * The index of the step part {@code part} ends before: the part is over when every step before it is (equal to
   * {@link #stepCount()} for a part that runs to the end; equal to the previous part's for an empty part).
   */
  public int partEnd(int part) {
    return partEnds[part];
  }

  /** Elements of {@link BufferId#INPUT}. */
  public int inputCount() {
    return inputCount;
  }

  /** Elements of {@link BufferId#OUTPUT}. */
  public int outputCount() {
    return outputCount;
  }

  /** Elements of {@link BufferId#TEMP}. */
  public int tempCount() {
    return tempCount;
  }

  /** Elements of the given buffer. */
  public int bufferCount(BufferId buffer) {
    return switch (buffer) {
      case INPUT -> inputCount;
      case OUTPUT -> outputCount;
      case TEMP -> tempCount;
    };
  }

  /**
   * Buffer holding this rank's result when the operation completes: {@link BufferId#OUTPUT}, except for the root of
   * a broadcast, whose data never leaves {@link BufferId#INPUT} (MPI's broadcast is in place).
   */
  public BufferId resultBuffer() {
    return resultBuffer;
  }

  public int stepCount() {
    return (bounds.length - 1) / 3;
  }

  /** A view of step {@code index} (a new small object each call). */
  public Step step(int index) {
    java.util.Objects.checkIndex(index, stepCount());
    return new Step(this, index);
  }

  /** Messages this rank sends in the whole operation. */
  public int totalSends() {
    int n = 0;
    for (int s = 0, steps = stepCount(); s < steps; s++) n += bound(s, 2) - bound(s, 1);
    return n;
  }

  /** Messages this rank receives in the whole operation. */
  public int totalReceives() {
    int n = 0;
    for (int s = 0, steps = stepCount(); s < steps; s++) n += bound(s, 3) - bound(s, 2);
    return n;
  }

  /** Entry index where part {@code part} (0 copies, 1 sends, 2 receives, 3 the end) of step {@code step} starts. */
  int bound(int step, int part) {
    return bounds[3 * step + part];
  }

  /** Int {@code field} of entry {@code entry}. */
  int field(int entry, int field) {
    return entries[entry * ENTRY_INTS + field];
  }
}
