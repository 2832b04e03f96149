package io.fabemu.node.rank;

import io.fabemu.core.data.DataBuffer;
import io.fabemu.core.data.DataType;
import java.lang.reflect.Array;
import java.util.ArrayDeque;
import java.util.ArrayList;

/**
 * One rank's store of message buffers to reuse: the data of a message the rank has received and applied is taken
 * back here and becomes the copy of the rank's next send of that shape, so messages make no garbage. A step of
 * recursive doubling on 1 MiB sends one 1 MiB copy and receives one: without reuse every step leaves a megabyte per
 * rank for the collector, and those copies live just long enough (until the peer has reduced them) to be copied
 * around by young collections. Small messages gain too: the buffer a ring step reduced from is still in the cache
 * when the next step copies its send into it, where a fresh array would be written to memory no cache holds.
 *
 * <p>Only whole buffers (not views of part of an array) of at least {@link #MIN_BYTES} are kept, at most
 * {@link #MAX_PER_SHAPE} per shape (type, element count, locations) and at most twice the largest buffer given back
 * since the last {@link #clear} in all: a rank that only receives, or receives many sizes (Rabenseifner's halves),
 * keeps a bounded amount. Buffers here are garbage to everyone else: the caller gives back only data nobody reads
 * any more (see {@link ScheduleExecutor}). With assertions on (tests), a buffer given back is poisoned, so a reader
 * that should not be there sees NaN or extreme integers instead of plausible data. Not thread-safe: the rank's
 * device uses it.
 */
final class BufferRecycler {
  /** Smaller buffers are a few dozen bytes: allocating them costs no more than finding one. */
  static final long MIN_BYTES = 128;
  /** Enough for a rank that sends and receives one message per step, with one step of slack. */
  static final int MAX_PER_SHAPE = 2;

  /** The kept buffers of one shape. A case uses a handful of shapes, so a list scanned in order finds them. */
  private static final class Shelf {
    final DataType type;
    final int count;
    final boolean withLocations;
    final ArrayDeque<DataBuffer> buffers = new ArrayDeque<>(MAX_PER_SHAPE);

    Shelf(DataType type, int count, boolean withLocations) {
      this.type = type;
      this.count = count;
      this.withLocations = withLocations;
    }

    boolean holds(DataType type, int count, boolean withLocations) {
      return this.count == count && this.type == type && this.withLocations == withLocations;
    }
  }

  private final ArrayList<Shelf> shelves = new ArrayList<>();
  /** Bytes of the buffers kept now, and of the largest buffer given back since the last clear. */
  private long keptBytes;
  private long largestBytes;

  /** A buffer of that shape, reused when one is kept, else new; its contents are arbitrary. */
  DataBuffer take(DataType type, int count, boolean withLocations) {
    Shelf shelf = shelf(type, count, withLocations);
    DataBuffer reused = shelf == null ? null : shelf.buffers.pollFirst();
    if (reused == null) {
      return DataBuffer.allocate(type, count, withLocations);
    }
    keptBytes -= reused.sizeBytes();
    return reused;
  }

  /**
   * Keeps {@code buffer} for a later {@link #take} when it is whole, large enough and its shape has room; otherwise
   * leaves it to the collector. The caller must not use it afterwards.
   */
  void giveBack(DataBuffer buffer) {
    long bytes = buffer.sizeBytes();
    if (bytes < MIN_BYTES || buffer.arrayOffset() != 0 || Array.getLength(buffer.valuesArray()) != buffer.count()) {
      return;
    }
    largestBytes = Math.max(largestBytes, bytes);
    if (keptBytes + bytes > 2 * largestBytes) {
      return;
    }
    Shelf shelf = shelf(buffer.type(), buffer.count(), buffer.hasLocations());
    if (shelf == null) {
      shelf = new Shelf(buffer.type(), buffer.count(), buffer.hasLocations());
      shelves.add(shelf);
    }
    if (shelf.buffers.size() < MAX_PER_SHAPE) {
      assert buffer.poison() == buffer;
      shelf.buffers.addFirst(buffer);
      keptBytes += bytes;
    }
  }


  private Shelf shelf(DataType type, int count, boolean withLocations) {
    for (int i = 0, n = shelves.size(); i < n; i++) {
      Shelf shelf = shelves.get(i);
      if (shelf.holds(type, count, withLocations)) {
        return shelf;
      }
    }
    return null;
  }

  /** Buffers kept now, of every shape. */
  int keptBuffers() {
    return shelves.stream().mapToInt(shelf -> shelf.buffers.size()).sum();
  }

  /** Drops every kept buffer (a case is over: its shapes may not come again). */
  void clear() {
    shelves.clear();
    keptBytes = 0;
    largestBytes = 0;
  }
}
