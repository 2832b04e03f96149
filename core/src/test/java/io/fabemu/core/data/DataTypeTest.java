package io.fabemu.core.data;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The element types: names, sizes, the order messages list them in, and int8's C-like wrap-around. */
class DataTypeTest {

  @Test
  void shouldListEveryTypeOnceIntegersFirstEachBySize() {
    assertThat(DataType.inNamingOrder()).containsExactlyInAnyOrder(DataType.values());
    assertThat(DataType.inNamingOrder()).extracting(DataType::configName)
        .containsExactly("int8", "int16", "int32", "int64", "float32", "float64");
  }

  @Test
  void shouldKeepTheOrdinalsOfTheOlderTypesWhichAreWireAndIncCodes() {
    assertThat(DataType.INT16.ordinal()).isZero();
    assertThat(DataType.FLOAT64.ordinal()).isEqualTo(4);
    assertThat(DataType.INT8.ordinal()).isEqualTo(5);
  }

  @Test
  void shouldWrapAroundLikeCsSignedCharWhenInt8Sums() {
    assertThat(DataType.INT8.sizeBytes()).isEqualTo(1);
    assertThat(DataType.INT8.ncclName()).isEqualTo("int8");
    DataBuffer target = DataBuffer.wrap(DataType.INT8, new byte[] {100, -128, 5}, null);
    DataBuffer source = DataBuffer.wrap(DataType.INT8, new byte[] {100, -1, 7}, null);

    target.reduceFrom(ReduceOp.SUM, 0, source);

    assertThat((byte[]) target.valuesArray()).containsExactly((byte) -56, (byte) 127, (byte) 12);
    assertThat(target.sizeBytes()).isEqualTo(3);
  }
}
