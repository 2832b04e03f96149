package io.fabemu.core.data;

import java.util.Arrays;
import java.util.Objects;

/**
 * A typed array of real data: the payload of messages and the buffers of collectives. For MAXLOC/MINLOC every
 * element is a (value, location) pair, kept as a value array and a parallel {@code int[]} of locations, like
 * MPI's MPI_FLOAT_INT and friends.
 *
 * <p>A buffer owns its arrays or is a <em>view</em> of a range of another's ({@link #view}): elements
 * {@code [arrayOffset(), arrayOffset() + count())} of the backing arrays. Views are how a message's data travels
 * without copies: a NIC cuts a message into segments that are views of the message's buffer, and a receiver that
 * gets every segment as views of one buffer reassembles the message as a view again. A message's data is
 * therefore never written while it travels (see {@code Message}); writes through a view reach every buffer that
 * shares its arrays.
 *
 * <p>Float32 arithmetic goes through double and back; for + and * this is exact rounding (double has more than
 * 2 x 24 + 2 bits), so results equal plain float arithmetic.
 */
public final class DataBuffer {
  /** Bytes of the MAXLOC/MINLOC location (an int32 index) an element carries when it has one. */
  public static final int LOCATION_BYTES = 4;

  private final DataType type;
  private final Object values;
  private final int[] locations;
  /** Index in the backing arrays of this buffer's element 0. */
  private final int start;
  private final int count;

  private DataBuffer(DataType type, Object values, int[] locations, int start, int count) {
    this.type = type;
    this.values = values;
    this.locations = locations;
    this.start = start;
    this.count = count;
  }

  /** A zero-filled buffer of {@code count} elements; with locations when {@code withLocations}. */
  public static DataBuffer allocate(DataType type, int count, boolean withLocations) {
    Object values = switch (type) {
      case INT8 -> new byte[count];
      case INT16 -> new short[count];
      case INT32 -> new int[count];
      case INT64 -> new long[count];
      case FLOAT32 -> new float[count];
      case FLOAT64 -> new double[count];
    };
    return new DataBuffer(type, values, withLocations ? new int[count] : null, 0, count);
  }

  /**
   * Wraps existing arrays (used by serializers). {@code values} must be the primitive array of {@code type};
   * {@code locations} is null or as long as {@code values}.
   */
  public static DataBuffer wrap(DataType type, Object values, int[] locations) {
    int count = java.lang.reflect.Array.getLength(values);
    Class<?> expected = allocate(type, 0, false).values.getClass();
    if (values.getClass() != expected) {
      throw new IllegalArgumentException("values of " + type + " must be " + expected.getSimpleName());
    }
    if (locations != null && locations.length != count) {
      throw new IllegalArgumentException("locations length " + locations.length + " != values length " + count);
    }
    return new DataBuffer(type, values, locations, 0, count);
  }

  public DataType type() {
    return type;
  }

  /**
   * The backing primitive value array (byte[], short[], int[], long[], float[] or double[]), not copied; this buffer's
   * elements are {@code [arrayOffset(), arrayOffset() + count())} of it (all of it unless this is a view).
   */
  public Object valuesArray() {
    return values;
  }

  /** The backing location array, or null when elements carry no location; indexed like {@link #valuesArray}. */
  public int[] locationsArray() {
    return locations;
  }

  /** Index in the backing arrays of this buffer's first element: 0 unless this is a view. */
  public int arrayOffset() {
    return start;
  }

  /**
   * A view of elements [offset, offset + count): no copy, the same backing arrays. It sees later writes to this
   * buffer, and writes through it reach this buffer.
   */
  public DataBuffer view(int offset, int count) {
    Objects.checkFromIndexSize(offset, count, this.count);
    if (offset == 0 && count == this.count) {
      return this;
    }
    return new DataBuffer(type, values, locations, start + offset, count);
  }

  /**
   * True when {@code part} is exactly this buffer's elements [offset, offset + part.count()), as a view of the
   * same backing arrays (not merely equal values).
   */
  public boolean isViewAt(int offset, DataBuffer part) {
    return part.values == values && part.locations == locations && part.start == start + offset && offset >= 0
        && offset + part.count <= count;
  }

  /**
   * The buffer of {@code count} elements of which {@code part} is elements [offset, offset + part.count()), when
   * {@code part}'s backing arrays hold that whole range; null otherwise. A receiver uses it to find the message a
   * segment is a view of.
   */
  public static DataBuffer enclosing(DataBuffer part, int offset, int count) {
    int first = part.start - offset;
    int length = java.lang.reflect.Array.getLength(part.values);
    if (offset < 0 || first < 0 || (long) first + count > length || offset + part.count > count) {
      return null;
    }
    return new DataBuffer(part.type, part.values, part.locations, first, count);
  }

  public boolean hasLocations() {
    return locations != null;
  }

  public int count() {
    return count;
  }

  /** Bytes per element: the value, plus {@link #LOCATION_BYTES} for the location when present. */
  public int elementBytes() {
    return type.sizeBytes() + (locations != null ? LOCATION_BYTES : 0);
  }

  public long sizeBytes() {
    return (long) count() * elementBytes();
  }

  /** A copy of elements [offset, offset + count), in arrays of its own (compare {@link #view}). */
  public DataBuffer slice(int offset, int count) {
    DataBuffer out = allocate(type, count, locations != null);
    out.copyFrom(0, this, offset, count);
    return out;
  }

  /** Copies all of {@code source} into this buffer at {@code targetOffset}. */
  public void copyFrom(int targetOffset, DataBuffer source) {
    copyFrom(targetOffset, source, 0, source.count());
  }

  /**
   * Copies {@code count} elements of {@code source} from {@code sourceOffset} to this buffer at
   * {@code targetOffset}.
   */
  public void copyFrom(int targetOffset, DataBuffer source, int sourceOffset, int count) {
    checkCompatible(source);
    Objects.checkFromIndexSize(sourceOffset, count, source.count);
    Objects.checkFromIndexSize(targetOffset, count, this.count);
    System.arraycopy(source.values, source.start + sourceOffset, values, start + targetOffset, count);
    if (locations != null) {
      System.arraycopy(source.locations, source.start + sourceOffset, locations, start + targetOffset, count);
    }
  }

  /** this[targetOffset + i] = op(this[targetOffset + i], source[i]) for every element of {@code source}. */
  public void reduceFrom(ReduceOp op, int targetOffset, DataBuffer source) {
    checkCompatible(source);
    if (!op.isDefinedOn(type)) {
      throw new IllegalArgumentException(op + " is not defined on " + type);
    }
    if (op.carriesLocation() != (locations != null)) {
      throw new IllegalArgumentException(op + (op.carriesLocation() ? " needs" : " takes no") + " locations");
    }
    int n = source.count;
    Objects.checkFromIndexSize(targetOffset, n, count);
    if (op.carriesLocation()) {
      reduceLocations(op == ReduceOp.MAXLOC, targetOffset, source, n);
      return;
    }
    // t and s index the backing arrays: the loops stay simple counted loops the JIT vectorizes.
    int t0 = start + targetOffset;
    int s0 = source.start;
    switch (type) {
      case INT8 -> {
        byte[] t = (byte[]) values;
        byte[] s = (byte[]) source.values;
        for (int i = 0; i < n; i++) t[t0 + i] = (byte) op.apply(t[t0 + i], s[s0 + i]);
      }
      case INT16 -> {
        short[] t = (short[]) values;
        short[] s = (short[]) source.values;
        for (int i = 0; i < n; i++) t[t0 + i] = (short) op.apply(t[t0 + i], s[s0 + i]);
      }
      case INT32 -> {
        int[] t = (int[]) values;
        int[] s = (int[]) source.values;
        if (op == ReduceOp.SUM) {
          for (int i = 0; i < n; i++) t[t0 + i] += s[s0 + i];
        } else {
          for (int i = 0; i < n; i++) t[t0 + i] = (int) op.apply(t[t0 + i], s[s0 + i]);
        }
      }
      case INT64 -> {
        long[] t = (long[]) values;
        long[] s = (long[]) source.values;
        for (int i = 0; i < n; i++) t[t0 + i] = op.apply(t[t0 + i], s[s0 + i]);
      }
      case FLOAT32 -> {
        float[] t = (float[]) values;
        float[] s = (float[]) source.values;
        if (op == ReduceOp.SUM) {
          for (int i = 0; i < n; i++) t[t0 + i] += s[s0 + i];
        } else {
          for (int i = 0; i < n; i++) t[t0 + i] = (float) op.apply(t[t0 + i], s[s0 + i]);
        }
      }
      case FLOAT64 -> {
        double[] t = (double[]) values;
        double[] s = (double[]) source.values;
        for (int i = 0; i < n; i++) t[t0 + i] = op.apply(t[t0 + i], s[s0 + i]);
      }
    }
  }

  private void reduceLocations(boolean max, int targetOffset, DataBuffer source, int n) {
    for (int i = 0; i < n; i++) {
      int c = compareValues(targetOffset + i, source, i);
      boolean takeSource = max ? c < 0 : c > 0;
      if (c == 0) {
        takeSource = source.locations[source.start + i] < locations[start + targetOffset + i];
      }
      if (takeSource) {
        copyFrom(targetOffset + i, source, i, 1);
      }
    }
  }

  private int compareValues(int index, DataBuffer other, int otherIndex) {
    int a = start + index;
    int b = other.start + otherIndex;
    return switch (type) {
      case INT8 -> Byte.compare(((byte[]) values)[a], ((byte[]) other.values)[b]);
      case INT16 -> Short.compare(((short[]) values)[a], ((short[]) other.values)[b]);
      case INT32 -> Integer.compare(((int[]) values)[a], ((int[]) other.values)[b]);
      case INT64 -> Long.compare(((long[]) values)[a], ((long[]) other.values)[b]);
      case FLOAT32 -> Float.compare(((float[]) values)[a], ((float[]) other.values)[b]);
      case FLOAT64 -> Double.compare(((double[]) values)[a], ((double[]) other.values)[b]);
    };
  }

  /**
   * Fills this buffer's elements with values no correct result holds in practice (extreme integers, NaN, location
   * -1): a rank's output before each iteration, so a leftover cannot pass the check, and a recycled message buffer
   * under assertions.
   *
   * @return this buffer
   */
  public DataBuffer poison() {
    int to = start + count;
    switch (type) {
      case INT8 -> Arrays.fill((byte[]) values, start, to, Byte.MIN_VALUE);
      case INT16 -> Arrays.fill((short[]) values, start, to, Short.MIN_VALUE);
      case INT32 -> Arrays.fill((int[]) values, start, to, Integer.MIN_VALUE + 1);
      case INT64 -> Arrays.fill((long[]) values, start, to, Long.MIN_VALUE + 1);
      case FLOAT32 -> Arrays.fill((float[]) values, start, to, Float.NaN);
      case FLOAT64 -> Arrays.fill((double[]) values, start, to, Double.NaN);
    }
    if (locations != null) {
      Arrays.fill(locations, start, to, -1);
    }
    return this;
  }

  /** Sets element {@code index} from a long (integer types) or its double value (floating point). */
  public void set(int index, long value) {
    int at = start + Objects.checkIndex(index, count);
    switch (type) {
      case INT8 -> ((byte[]) values)[at] = (byte) value;
      case INT16 -> ((short[]) values)[at] = (short) value;
      case INT32 -> ((int[]) values)[at] = (int) value;
      case INT64 -> ((long[]) values)[at] = value;
      case FLOAT32 -> ((float[]) values)[at] = (float) value;
      case FLOAT64 -> ((double[]) values)[at] = (double) value;
    }
  }

  /** Sets the location of element {@code index} (MAXLOC/MINLOC buffers only). */
  public void setLocation(int index, int location) {
    locations[start + Objects.checkIndex(index, count)] = location;
  }

  /** The location of element {@code index} (MAXLOC/MINLOC buffers only). */
  public int location(int index) {
    return locations[start + Objects.checkIndex(index, count)];
  }

  /** Element {@code index} as a double, for reports and tests. */
  public double get(int index) {
    int at = start + Objects.checkIndex(index, count);
    return switch (type) {
      case INT8 -> ((byte[]) values)[at];
      case INT16 -> ((short[]) values)[at];
      case INT32 -> ((int[]) values)[at];
      case INT64 -> ((long[]) values)[at];
      case FLOAT32 -> ((float[]) values)[at];
      case FLOAT64 -> ((double[]) values)[at];
    };
  }

  /**
   * Number of elements of this buffer in [offset, offset + count) that differ, bit for bit, from
   * {@code expected}'s elements [expectedOffset, expectedOffset + count); an element whose value or location
   * differs (or both) counts once.
   */
  public long countMismatches(int offset, DataBuffer expected, int expectedOffset, int count) {
    checkCompatible(expected);
    Objects.checkFromIndexSize(offset, count, this.count);
    Objects.checkFromIndexSize(expectedOffset, count, expected.count);
    long wrong = 0;
    for (int i = 0; i < count; i++) {
      int a = start + offset + i;
      int e = expected.start + expectedOffset + i;
      boolean same = switch (type) {
        case INT8 -> ((byte[]) values)[a] == ((byte[]) expected.values)[e];
        case INT16 -> ((short[]) values)[a] == ((short[]) expected.values)[e];
        case INT32 -> ((int[]) values)[a] == ((int[]) expected.values)[e];
        case INT64 -> ((long[]) values)[a] == ((long[]) expected.values)[e];
        case FLOAT32 -> Float.floatToRawIntBits(((float[]) values)[a])
            == Float.floatToRawIntBits(((float[]) expected.values)[e]);
        case FLOAT64 -> Double.doubleToRawLongBits(((double[]) values)[a])
            == Double.doubleToRawLongBits(((double[]) expected.values)[e]);
      };
      if (!same || (locations != null && locations[a] != expected.locations[e])) {
        wrong++;
      }
    }
    return wrong;
  }

  private void checkCompatible(DataBuffer other) {
    if (other.type != type || (other.locations == null) != (locations == null)) {
      throw new IllegalArgumentException("incompatible buffers: " + describe() + " vs " + other.describe());
    }
  }

  private String describe() {
    return type + (locations != null ? "+location" : "") + "[" + count + "]";
  }

  @Override
  public boolean equals(Object o) {
    if (!(o instanceof DataBuffer other) || other.type != type || other.count != count
        || (other.locations == null) != (locations == null)) {
      return false;
    }
    return countMismatches(0, other, 0, count) == 0;
  }

  /** Over this buffer's elements only (a view hashes as a copy of its range would), bit for bit like equals. */
  @Override
  public int hashCode() {
    int h = 1;
    for (int i = start, end = start + count; i < end; i++) {
      long bits = switch (type) {
        case INT8 -> ((byte[]) values)[i];
        case INT16 -> ((short[]) values)[i];
        case INT32 -> ((int[]) values)[i];
        case INT64 -> ((long[]) values)[i];
        case FLOAT32 -> Float.floatToRawIntBits(((float[]) values)[i]);
        case FLOAT64 -> Double.doubleToRawLongBits(((double[]) values)[i]);
      };
      h = 31 * h + Long.hashCode(bits) + (locations == null ? 0 : 17 * locations[i]);
    }
    return h;
  }

  @Override
  public String toString() {
    return describe();
  }
}
