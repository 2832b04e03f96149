package io.fabemu.core.inc;

/** Range checks shared by the wire records: a field that does not fit its width is refused, naming the field. */
final class WireChecks {
  private WireChecks() {}

  static void unsigned(String field, long value, int bits) {
    long max = (1L << bits) - 1;
    if (value < 0 || value > max) {
      throw new IllegalArgumentException(field + " = " + value + " does not fit " + bits + " unsigned bits (0.."
          + max + ")");
    }
  }
}
