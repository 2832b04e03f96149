package io.fabemu.collectives;

import java.util.List;

/**
 * Everything one rank does in one collective operation: the sizes of its buffers, its steps in order, and the
 * buffer that holds its result. Built per rank by {@link Schedules#build}; never materialized for all ranks at once.
 * Immutable, so a schedule is built once per (algorithm, size) case and reused by every iteration.
 */
public final class Schedule {
  private final int inputCount;
  private final int outputCount;
  private final int tempCount;
  private final BufferId resultBuffer;
  private final Step[] steps;

  Schedule(int inputCount, int outputCount, int tempCount, BufferId resultBuffer, List<Step> steps) {
    this.inputCount = inputCount;
    this.outputCount = outputCount;
    this.tempCount = tempCount;
    this.resultBuffer = resultBuffer;
    this.steps = steps.toArray(new Step[0]);
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
    return steps.length;
  }

  public Step step(int index) {
    return steps[index];
  }

  /** Messages this rank sends in the whole operation. */
  public int totalSends() {
    int n = 0;
    for (Step s : steps) n += s.sendCount();
    return n;
  }

  /** Messages this rank receives in the whole operation. */
  public int totalReceives() {
    int n = 0;
    for (Step s : steps) n += s.receiveCount();
    return n;
  }
}
