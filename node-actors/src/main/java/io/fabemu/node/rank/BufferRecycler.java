package io.fabemu.node.rank;

import io.fabemu.core.data.DataBuffer;
import io.fabemu.core.data.DataType;
import java.lang.reflect.Array;
import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.Map;

/**
 * One rank's store of message buffers to reuse: the data of a message the rank has received and applied is taken
 * back here and becomes the copy of the rank's next send of that shape, so large messages make no garbage. A step of
 * recursive doubling on 1 MiB sends one 1 MiB copy and receives one: without reuse every step leaves a megabyte per
 * rank for the collector, and those copies live just long enough (until the peer has reduced them) to be copied
 * around by young collections. With it, a rank's sends reuse what it received.
 *
 * <p>Only whole buffers (not views of part of an array) of at least {@link #MIN_BYTES} are kept, at most
 * {@link #MAX_PER_SHAPE} per shape (type, element count, locations): a rank that only receives keeps a bounded
 * amount. Buffers here are garbage to everyone else: the caller gives back only data nobody reads any more (see
 * {@link ScheduleExecutor}). Not thread-safe: the rank's device uses it.
 */
final class BufferRecycler {
  /** Smaller buffers are cheap to allocate and die young; reusing them would cost more than it saves. */
  static final long MIN_BYTES = 64 * 1024;
  /** Enough for a rank that sends and receives one message per step, with one step of slack. */
  static final int MAX_PER_SHAPE = 2;

  private record Shape(DataType type, int count, boolean withLocations) {}

  private final Map<Shape, ArrayDeque<DataBuffer>> kept = new HashMap<>();

  /** A buffer of that shape, reused when one is kept, else new; its contents are arbitrary. */
  DataBuffer take(DataType type, int count, boolean withLocations) {
    ArrayDeque<DataBuffer> buffers = kept.get(new Shape(type, count, withLocations));
    DataBuffer reused = buffers == null ? null : buffers.pollFirst();
    return reused != null ? reused : DataBuffer.allocate(type, count, withLocations);
  }

  /**
   * Keeps {@code buffer} for a later {@link #take} when it is whole, large enough and its shape has room; otherwise
   * leaves it to the collector. The caller must not use it afterwards.
   */
  void giveBack(DataBuffer buffer) {
    if (buffer.sizeBytes() < MIN_BYTES || buffer.arrayOffset() != 0
        || Array.getLength(buffer.valuesArray()) != buffer.count()) {
      return;
    }
    ArrayDeque<DataBuffer> buffers = kept.computeIfAbsent(
        new Shape(buffer.type(), buffer.count(), buffer.hasLocations()), shape -> new ArrayDeque<>());
    if (buffers.size() < MAX_PER_SHAPE) {
      buffers.addFirst(buffer);
    }
  }

  /** Buffers kept now, of every shape. */
  int keptBuffers() {
    return kept.values().stream().mapToInt(ArrayDeque::size).sum();
  }

  /** Drops every kept buffer (a case is over: its shapes may not come again). */
  void clear() {
    kept.clear();
  }
}
