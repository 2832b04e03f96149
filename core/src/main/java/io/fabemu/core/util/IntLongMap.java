package io.fabemu.core.util;

/**
 * Open-addressing hash map from an (int, long) key to an object, without boxing: linear probing over parallel
 * arrays, backward-shift deletion (no tombstones). For per-packet and per-message paths: a collective's (source
 * rank, tag) matching, a NIC's (source host, message id) reassembly. Not thread-safe; each device owns its maps.
 *
 * @param <V> the value type
 */
public final class IntLongMap<V> {
  private int[] sources;
  private long[] tags;
  private Object[] values;
  private int mask;
  private int size;

  public IntLongMap() {
    allocate(16);
  }

  public int size() {
    return size;
  }

  public boolean isEmpty() {
    return size == 0;
  }

  @SuppressWarnings("unchecked")
  public V get(int source, long tag) {
    int i = find(source, tag);
    return i < 0 ? null : (V) values[i];
  }

  /** Associates the value (non-null) with the key; returns the previous value or null. */
  @SuppressWarnings("unchecked")
  public V put(int source, long tag, V value) {
    if (value == null) {
      throw new IllegalArgumentException("null value");
    }
    int i = slot(source, tag);
    while (values[i] != null) {
      if (sources[i] == source && tags[i] == tag) {
        V old = (V) values[i];
        values[i] = value;
        return old;
      }
      i = (i + 1) & mask;
    }
    sources[i] = source;
    tags[i] = tag;
    values[i] = value;
    size++;
    if (size * 4 > values.length * 3) {
      rehash(values.length * 2);
    }
    return null;
  }

  /** Removes the key; returns its value or null. */
  @SuppressWarnings("unchecked")
  public V remove(int source, long tag) {
    int i = find(source, tag);
    if (i < 0) {
      return null;
    }
    V old = (V) values[i];
    values[i] = null;
    size--;
    // Backward-shift: move later entries of the probe run into the hole when their home slot allows it.
    int hole = i;
    int j = (i + 1) & mask;
    while (values[j] != null) {
      int home = slot(sources[j], tags[j]);
      boolean movable = hole <= j ? (home <= hole || home > j) : (home <= hole && home > j);
      if (movable) {
        sources[hole] = sources[j];
        tags[hole] = tags[j];
        values[hole] = values[j];
        values[j] = null;
        hole = j;
      }
      j = (j + 1) & mask;
    }
    return old;
  }

  private int find(int source, long tag) {
    int i = slot(source, tag);
    while (values[i] != null) {
      if (sources[i] == source && tags[i] == tag) {
        return i;
      }
      i = (i + 1) & mask;
    }
    return -1;
  }

  private int slot(int source, long tag) {
    long h = tag * 0x9E3779B97F4A7C15L + source * 0xC2B2AE3D27D4EB4FL;
    h ^= h >>> 31;
    h *= 0xBF58476D1CE4E5B9L;
    h ^= h >>> 29;
    return (int) h & mask;
  }

  private void allocate(int capacity) {
    sources = new int[capacity];
    tags = new long[capacity];
    values = new Object[capacity];
    mask = capacity - 1;
  }

  private void rehash(int capacity) {
    int[] oldSources = sources;
    long[] oldTags = tags;
    Object[] oldValues = values;
    allocate(capacity);
    size = 0;
    for (int i = 0; i < oldValues.length; i++) {
      if (oldValues[i] != null) {
        int j = slot(oldSources[i], oldTags[i]);
        while (values[j] != null) {
          j = (j + 1) & mask;
        }
        sources[j] = oldSources[i];
        tags[j] = oldTags[i];
        values[j] = oldValues[i];
        size++;
      }
    }
  }
}
