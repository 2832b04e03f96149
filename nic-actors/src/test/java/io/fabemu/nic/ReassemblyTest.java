package io.fabemu.nic;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabemu.core.data.DataBuffer;
import io.fabemu.core.data.DataType;
import io.fabemu.core.protocol.DeviceProtocol.MessageInfo;
import io.fabemu.core.protocol.DeviceProtocol.Packet;
import org.junit.jupiter.api.Test;

/** A message's data from its segments: the sender's buffer when they are views of it, else a copy. */
class ReassemblyTest {

  private static Packet segment(DataBuffer slice, int elementOffset) {
    return Packet.builder().sourceHost(0).destinationHost(1).segmentCount(2).wireBytes(100)
        .elementOffset(elementOffset).slice(slice).build();
  }

  private static DataBuffer values(int count, int from) {
    DataBuffer data = DataBuffer.allocate(DataType.FLOAT64, count, false);
    for (int i = 0; i < count; i++) data.set(i, from + i);
    return data;
  }

  @Test
  void shouldReturnAViewOfTheSendersBufferWhenTheSegmentsAreViewsOfIt() {
    DataBuffer whole = values(10, 0);
    MessageInfo info = new MessageInfo(0, 1, 5L, 10, DataType.FLOAT64, false, 80L);
    DataBuffer data = Reassembly.data(info, new Packet[] {segment(whole.view(0, 6), 0), segment(whole.view(6, 4), 6)});
    assertThat(data.isViewAt(0, whole)).as("the sender's arrays, uncopied").isTrue();
  }

  @Test
  void shouldCopySegmentsThatCameInArraysOfTheirOwn() {
    MessageInfo info = new MessageInfo(0, 1, 5L, 10, DataType.FLOAT64, false, 80L);
    DataBuffer first = values(6, 0);
    DataBuffer data = Reassembly.data(info, new Packet[] {segment(first, 0), segment(values(4, 6), 6)});
    assertThat(data.count()).isEqualTo(10);
    assertThat(data.isViewAt(0, first)).as("a copy").isFalse();
    for (int i = 0; i < 10; i++) assertThat(data.get(i)).isEqualTo(i);
  }
}
