package io.fabemu.collectives;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabemu.core.data.DataBuffer;
import io.fabemu.core.data.DataType;
import io.fabemu.core.data.ReduceOp;
import org.junit.jupiter.api.Test;

class InputGeneratorTest {

  @Test
  void shouldReturnSameValueWhenAskedTwiceAndDifferWhenSeedSizeRankOrIndexChanges() {
    InputGenerator g = new InputGenerator(5, DataType.INT64, ReduceOp.BXOR);
    assertThat(g.value(64, 3, 7)).isEqualTo(new InputGenerator(5, DataType.INT64, ReduceOp.BXOR).value(64, 3, 7));
    long v = g.value(64, 3, 7);
    assertThat(new InputGenerator(6, DataType.INT64, ReduceOp.BXOR).value(64, 3, 7)).isNotEqualTo(v);
    assertThat(g.value(128, 3, 7)).isNotEqualTo(v);
    assertThat(g.value(64, 4, 7)).isNotEqualTo(v);
    assertThat(g.value(64, 3, 8)).isNotEqualTo(v);
  }

  @Test
  void shouldFillLikeValueWhenFillingAnyRange() {
    for (DataType type : DataType.values()) {
      InputGenerator g = new InputGenerator(9, type, ReduceOp.MAXLOC);
      DataBuffer b = DataBuffer.allocate(type, 20, true);
      g.fill(400, 6, 100, b, 5, 15);
      for (int i = 0; i < 15; i++) {
        assertThat(NaiveReference.raw(type, b, 5 + i)).isEqualTo(NaiveReference.raw(type, g.value(400, 6, 100 + i)));
        assertThat(b.locationsArray()[5 + i]).isEqualTo(6);
      }
    }
  }

  @Test
  void shouldFillLikeValueWhenRangeStartsAndEndsInsideAHashOrCrossesAChunk() {
    // The fill unrolls whole hashes (four lanes) and specialises SUM: every head, body and tail shape, every kind.
    ReduceOp[] ops = {ReduceOp.SUM, ReduceOp.PROD, ReduceOp.MAX, ReduceOp.LOR, ReduceOp.BXOR, ReduceOp.MINLOC};
    for (ReduceOp op : ops) {
      InputGenerator g = new InputGenerator(11, DataType.INT64, op);
      for (int first = 0; first < 8; first++) {
        for (int count : new int[] {0, 1, 2, 3, 4, 5, 7, 8, 9, 1023, 1024, 1025, 2051}) {
          DataBuffer b = DataBuffer.allocate(DataType.INT64, count + 3, op.carriesLocation());
          g.fill(4096, 2, first, b, 3, count);
          for (int i = 0; i < count; i++) {
            assertThat(NaiveReference.raw(DataType.INT64, b, 3 + i))
                .as("%s from %d, %d of %d", op, first, i, count)
                .isEqualTo(NaiveReference.raw(DataType.INT64, g.value(4096, 2, first + i)));
          }
        }
      }
    }
  }

  @Test
  void shouldStayInRangeWhenOpChoosesIt() {
    assertRange(ReduceOp.SUM, -4, 4);
    assertRange(ReduceOp.MAX, -1000, 1000);
    assertRange(ReduceOp.MIN, -1000, 1000);
    assertRange(ReduceOp.MAXLOC, -50, 50);
    assertRange(ReduceOp.LAND, 0, 1);
    InputGenerator prod = new InputGenerator(1, DataType.INT32, ReduceOp.PROD);
    for (int i = 0; i < 1000; i++) {
      assertThat(prod.value(8, 0, i)).isIn(-1L, 1L);
    }
  }

  @Test
  void shouldGiveAboutNinetyPercentOnesWhenLogicalOp() {
    InputGenerator g = new InputGenerator(3, DataType.INT16, ReduceOp.LOR);
    int ones = 0;
    for (int i = 0; i < 10_000; i++) {
      ones += (int) g.value(1, 2, i);
    }
    assertThat(ones).isBetween(8_700, 9_300);
  }

  private static void assertRange(ReduceOp op, long min, long max) {
    InputGenerator g = new InputGenerator(1, DataType.INT32, op);
    long seenMin = Long.MAX_VALUE;
    long seenMax = Long.MIN_VALUE;
    for (int i = 0; i < 20_000; i++) {
      long v = g.value(16, i % 7, i);
      seenMin = Math.min(seenMin, v);
      seenMax = Math.max(seenMax, v);
    }
    assertThat(seenMin).as(op.name()).isEqualTo(min);
    assertThat(seenMax).as(op.name()).isEqualTo(max);
  }
}
