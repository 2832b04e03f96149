package io.fabemu.core.data;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** Views of a {@link DataBuffer}: shared storage, offsets honoured by every operation, bounds checked. */
class DataBufferTest {

  private static DataBuffer ints(int... values) {
    return DataBuffer.wrap(DataType.INT32, values, null);
  }

  @Test
  void aViewSharesStorageAndSeesItsRangeOnly() {
    DataBuffer whole = ints(10, 11, 12, 13, 14, 15);
    DataBuffer view = whole.view(2, 3);

    assertThat(view.count()).isEqualTo(3);
    assertThat(view.arrayOffset()).isEqualTo(2);
    assertThat(view.valuesArray()).isSameAs(whole.valuesArray());
    assertThat(view.get(0)).isEqualTo(12.0);
    assertThat(view.sizeBytes()).isEqualTo(12L);
    assertThat(view).isEqualTo(ints(12, 13, 14)).hasSameHashCodeAs(ints(12, 13, 14));

    whole.set(3, 99);
    assertThat(view.get(1)).isEqualTo(99.0);  // a view, not a copy
    assertThat(whole.view(0, 6)).isSameAs(whole);
  }

  @Test
  void aViewOfAViewAddsOffsets() {
    DataBuffer inner = ints(0, 1, 2, 3, 4, 5, 6, 7).view(2, 5).view(1, 3);
    assertThat(inner).isEqualTo(ints(3, 4, 5));
    assertThat(inner.arrayOffset()).isEqualTo(3);
  }

  @Test
  void copyReduceAndCompareHonourBothSidesOffsets() {
    DataBuffer target = ints(1, 1, 1, 1, 1, 1).view(1, 4);       // elements 1..4 of its array
    DataBuffer source = ints(100, 200, 300, 400, 500).view(2, 2); // 300, 400

    target.reduceFrom(ReduceOp.SUM, 1, source);
    assertThat(target).isEqualTo(ints(1, 301, 401, 1));
    assertThat((int[]) target.valuesArray()).containsExactly(1, 1, 301, 401, 1, 1);

    target.copyFrom(3, source, 1, 1);
    assertThat(target).isEqualTo(ints(1, 301, 401, 400));
    assertThat(target.countMismatches(1, ints(7, 301, 0).view(1, 2), 0, 2)).isEqualTo(1);
    assertThat(target.slice(1, 2)).isEqualTo(ints(301, 401));
    assertThat(target.slice(1, 2).arrayOffset()).isZero();
  }

  @Test
  void locationsTravelWithTheView() {
    DataBuffer pairs = DataBuffer.allocate(DataType.FLOAT32, 4, true);
    for (int i = 0; i < 4; i++) {
      pairs.set(i, i * 10L);
      pairs.setLocation(i, i);
    }
    DataBuffer view = pairs.view(1, 2);
    DataBuffer target = DataBuffer.allocate(DataType.FLOAT32, 2, true);
    target.set(0, 10);
    target.setLocation(0, 0);
    target.set(1, 99);
    target.setLocation(1, 5);

    target.reduceFrom(ReduceOp.MAXLOC, 0, view);

    assertThat(target.location(0)).isZero();  // equal values: the lower location wins
    assertThat(target.get(1)).isEqualTo(99.0);
    assertThat(target.location(1)).isEqualTo(5);
    assertThat(view.location(1)).isEqualTo(2);
  }

  @Test
  void theEnclosingBufferOfASegmentIsFoundOnlyWhenItsArraysHoldIt() {
    DataBuffer message = ints(0, 1, 2, 3, 4, 5, 6, 7, 8, 9).view(2, 6);  // elements 2..7 of its arrays
    DataBuffer segment = message.view(4, 2);

    DataBuffer whole = DataBuffer.enclosing(segment, 4, 6);
    assertThat(whole).isEqualTo(message);
    assertThat(whole.isViewAt(4, segment)).isTrue();
    assertThat(whole.isViewAt(0, message.view(0, 2))).isTrue();
    assertThat(whole.isViewAt(1, message.view(0, 2))).isFalse();
    assertThat(whole.isViewAt(0, ints(2, 3))).isFalse();  // equal values, other storage
    assertThat(whole.isViewAt(5, segment)).isFalse();     // would run past the end

    assertThat(DataBuffer.enclosing(ints(4, 5), 4, 6)).isNull();    // a copy: nothing before it
    assertThat(DataBuffer.enclosing(segment, 4, 20)).isNull();      // the arrays are too short
  }

  @Test
  void accessOutsideAViewIsRefused() {
    DataBuffer view = ints(1, 2, 3, 4).view(1, 2);
    assertThatThrownBy(() -> view.get(2)).isInstanceOf(IndexOutOfBoundsException.class);
    assertThatThrownBy(() -> view.set(-1, 0)).isInstanceOf(IndexOutOfBoundsException.class);
    assertThatThrownBy(() -> view.view(1, 2)).isInstanceOf(IndexOutOfBoundsException.class);
    assertThatThrownBy(() -> view.reduceFrom(ReduceOp.SUM, 1, ints(1, 1))).isInstanceOf(
        IndexOutOfBoundsException.class);
    assertThatThrownBy(() -> ints(0, 0, 0).copyFrom(0, view, 1, 2)).isInstanceOf(IndexOutOfBoundsException.class);
  }
}
