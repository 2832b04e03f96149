package io.fabemu.core.data;

import java.util.Arrays;

/**
 * A typed array of real data: the payload of messages and the buffers of collectives. For MAXLOC/MINLOC every
 * element is a (value, location) pair, kept as a value array and a parallel {@code int[]} of locations, like
 * MPI's MPI_FLOAT_INT and friends.
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

  private DataBuffer(DataType type, Object values, int[] locations) {
    this.type = type;
    this.values = values;
    this.locations = locations;
  }

  /** A zero-filled buffer of {@code count} elements; with locations when {@code withLocations}. */
  public static DataBuffer allocate(DataType type, int count, boolean withLocations) {
    Object values = switch (type) {
      case INT16 -> new short[count];
      case INT32 -> new int[count];
      case INT64 -> new long[count];
      case FLOAT32 -> new float[count];
      case FLOAT64 -> new double[count];
    };
    return new DataBuffer(type, values, withLocations ? new int[count] : null);
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
    return new DataBuffer(type, values, locations);
  }

  public DataType type() {
    return type;
  }

  /** The primitive value array (short[], int[], long[], float[] or double[]). Not copied. */
  public Object valuesArray() {
    return values;
  }

  /** The location array, or null when elements carry no location. Not copied. */
  public int[] locationsArray() {
    return locations;
  }

  public boolean hasLocations() {
    return locations != null;
  }

  public int count() {
    return java.lang.reflect.Array.getLength(values);
  }

  /** Bytes per element: the value, plus {@link #LOCATION_BYTES} for the location when present. */
  public int elementBytes() {
    return type.sizeBytes() + (locations != null ? LOCATION_BYTES : 0);
  }

  public long sizeBytes() {
    return (long) count() * elementBytes();
  }

  /** A copy of elements [offset, offset + count). */
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
    System.arraycopy(source.values, sourceOffset, values, targetOffset, count);
    if (locations != null) {
      System.arraycopy(source.locations, sourceOffset, locations, targetOffset, count);
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
    int n = source.count();
    if (op.carriesLocation()) {
      reduceLocations(op == ReduceOp.MAXLOC, targetOffset, source, n);
      return;
    }
    switch (type) {
      case INT16 -> {
        short[] t = (short[]) values;
        short[] s = (short[]) source.values;
        for (int i = 0; i < n; i++) t[targetOffset + i] = (short) op.apply(t[targetOffset + i], s[i]);
      }
      case INT32 -> {
        int[] t = (int[]) values;
        int[] s = (int[]) source.values;
        if (op == ReduceOp.SUM) {
          for (int i = 0; i < n; i++) t[targetOffset + i] += s[i];
        } else {
          for (int i = 0; i < n; i++) t[targetOffset + i] = (int) op.apply(t[targetOffset + i], s[i]);
        }
      }
      case INT64 -> {
        long[] t = (long[]) values;
        long[] s = (long[]) source.values;
        for (int i = 0; i < n; i++) t[targetOffset + i] = op.apply(t[targetOffset + i], s[i]);
      }
      case FLOAT32 -> {
        float[] t = (float[]) values;
        float[] s = (float[]) source.values;
        if (op == ReduceOp.SUM) {
          for (int i = 0; i < n; i++) t[targetOffset + i] += s[i];
        } else {
          for (int i = 0; i < n; i++) t[targetOffset + i] = (float) op.apply(t[targetOffset + i], s[i]);
        }
      }
      case FLOAT64 -> {
        double[] t = (double[]) values;
        double[] s = (double[]) source.values;
        for (int i = 0; i < n; i++) t[targetOffset + i] = op.apply(t[targetOffset + i], s[i]);
      }
    }
  }

  private void reduceLocations(boolean max, int targetOffset, DataBuffer source, int n) {
    for (int i = 0; i < n; i++) {
      int c = compareValues(targetOffset + i, source, i);
      boolean takeSource = max ? c < 0 : c > 0;
      if (c == 0) {
        takeSource = source.locations[i] < locations[targetOffset + i];
      }
      if (takeSource) {
        copyFrom(targetOffset + i, source, i, 1);
      }
    }
  }

  private int compareValues(int index, DataBuffer other, int otherIndex) {
    return switch (type) {
      case INT16 -> Short.compare(((short[]) values)[index], ((short[]) other.values)[otherIndex]);
      case INT32 -> Integer.compare(((int[]) values)[index], ((int[]) other.values)[otherIndex]);
      case INT64 -> Long.compare(((long[]) values)[index], ((long[]) other.values)[otherIndex]);
      case FLOAT32 -> Float.compare(((float[]) values)[index], ((float[]) other.values)[otherIndex]);
      case FLOAT64 -> Double.compare(((double[]) values)[index], ((double[]) other.values)[otherIndex]);
    };
  }

  /** Sets element {@code index} from a long (integer types) or its double value (floating point). */
  public void set(int index, long value) {
    switch (type) {
      case INT16 -> ((short[]) values)[index] = (short) value;
      case INT32 -> ((int[]) values)[index] = (int) value;
      case INT64 -> ((long[]) values)[index] = value;
      case FLOAT32 -> ((float[]) values)[index] = (float) value;
      case FLOAT64 -> ((double[]) values)[index] = (double) value;
    }
  }

  /** Sets the location of element {@code index} (MAXLOC/MINLOC buffers only). */
  public void setLocation(int index, int location) {
    locations[index] = location;
  }

  /** Element {@code index} as a double, for reports and tests. */
  public double get(int index) {
    return switch (type) {
      case INT16 -> ((short[]) values)[index];
      case INT32 -> ((int[]) values)[index];
      case INT64 -> ((long[]) values)[index];
      case FLOAT32 -> ((float[]) values)[index];
      case FLOAT64 -> ((double[]) values)[index];
    };
  }

  /**
   * Number of elements of this buffer in [offset, offset + count) that differ, bit for bit, from
   * {@code expected}'s elements [expectedOffset, expectedOffset + count); an element whose value or location
   * differs (or both) counts once.
   */
  public long countMismatches(int offset, DataBuffer expected, int expectedOffset, int count) {
    checkCompatible(expected);
    long wrong = 0;
    for (int i = 0; i < count; i++) {
      int a = offset + i;
      int e = expectedOffset + i;
      boolean same = switch (type) {
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
    return type + (locations != null ? "+location" : "") + "[" + count() + "]";
  }

  @Override
  public boolean equals(Object o) {
    if (!(o instanceof DataBuffer other) || other.type != type || other.count() != count()
        || (other.locations == null) != (locations == null)) {
      return false;
    }
    return countMismatches(0, other, 0, count()) == 0;
  }

  @Override
  public int hashCode() {
    int h = switch (type) {
      case INT16 -> Arrays.hashCode((short[]) values);
      case INT32 -> Arrays.hashCode((int[]) values);
      case INT64 -> Arrays.hashCode((long[]) values);
      case FLOAT32 -> Arrays.hashCode((float[]) values);
      case FLOAT64 -> Arrays.hashCode((double[]) values);
    };
    return 31 * h + Arrays.hashCode(locations);
  }

  @Override
  public String toString() {
    return describe();
  }
}
