package io.fabemu.node.rank;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabemu.core.data.DataBuffer;
import io.fabemu.core.data.DataType;
import org.junit.jupiter.api.Test;

/** What a rank keeps of the messages it applied, and what it hands back for its sends. */
class BufferRecyclerTest {
  /** Elements of a float32 buffer of {@link BufferRecycler#MIN_BYTES}: the smallest kept. */
  private static final int LARGE = (int) (BufferRecycler.MIN_BYTES / 4);

  @Test
  void shouldHandBackAKeptBufferOfTheSameShape() {
    BufferRecycler recycler = new BufferRecycler();
    DataBuffer received = DataBuffer.allocate(DataType.FLOAT32, LARGE, false);

    recycler.giveBack(received);

    assertThat(recycler.take(DataType.FLOAT32, LARGE, true)).as("other shape: locations").isNotSameAs(received);
    assertThat(recycler.take(DataType.INT32, LARGE, false)).as("other shape: type").isNotSameAs(received);
    assertThat(recycler.take(DataType.FLOAT32, LARGE, false)).isSameAs(received);
    assertThat(recycler.take(DataType.FLOAT32, LARGE, false)).as("taken once only").isNotSameAs(received);
  }

  @Test
  void shouldKeepOnlyWholeLargeBuffersAndABoundedNumberPerShape() {
    BufferRecycler recycler = new BufferRecycler();
    recycler.giveBack(DataBuffer.allocate(DataType.FLOAT32, LARGE - 1, false));       // too small
    recycler.giveBack(DataBuffer.allocate(DataType.FLOAT32, LARGE + 8, false).view(8, LARGE));  // part of one
    assertThat(recycler.keptBuffers()).isZero();

    for (int i = 0; i < BufferRecycler.MAX_PER_SHAPE + 3; i++) {
      recycler.giveBack(DataBuffer.allocate(DataType.FLOAT32, LARGE, false));
    }
    assertThat(recycler.keptBuffers()).isEqualTo(BufferRecycler.MAX_PER_SHAPE);

    recycler.clear();
    assertThat(recycler.keptBuffers()).isZero();
  }
}
