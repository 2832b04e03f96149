package io.fabemu.switching.router;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Round-robin grants of the virtual-channel allocator, apart from any router. */
class VirtualChannelAllocatorTest {
  /** The grants of one allocation as "input->output" pairs, in grant order. */
  private static List<String> grants(VirtualChannelAllocator allocator) {
    int count = allocator.allocate();
    List<String> out = new ArrayList<>();
    for (int k = 0; k < count; k++) out.add(allocator.grantedInput(k) + "->" + allocator.grantedOutput(k));
    return out;
  }

  @Test
  void shouldGrantEachOutputToOneRequesterRoundRobinFromAfterItsLastGrant() {
    VirtualChannelAllocator allocator = new VirtualChannelAllocator(4, 2);
    // Inputs 3, 1 and 2 ask for output 0; input 0 asks for output 1. The pointers start at input 0.
    allocator.request(3, 0);
    allocator.request(1, 0);
    allocator.request(0, 1);
    allocator.request(2, 0);
    assertThat(grants(allocator)).containsExactly("1->0", "0->1");
    // Output 0 now favours input 2, then 3, 0, 1.
    allocator.request(1, 0);
    allocator.request(3, 0);
    assertThat(grants(allocator)).containsExactly("3->0");
    allocator.request(1, 0);
    allocator.request(0, 0);
    assertThat(grants(allocator)).containsExactly("0->0");
    // Nothing asked: nothing granted.
    assertThat(grants(allocator)).isEmpty();
  }

  @Test
  void shouldServeEveryPersistentRequesterInTurn() {
    VirtualChannelAllocator allocator = new VirtualChannelAllocator(3, 1);
    List<String> winners = new ArrayList<>();
    for (int cycle = 0; cycle < 6; cycle++) {
      for (int iv = 0; iv < 3; iv++) allocator.request(iv, 0);
      winners.addAll(grants(allocator));
    }
    assertThat(winners).containsExactly("0->0", "1->0", "2->0", "0->0", "1->0", "2->0");
  }

  @Test
  void shouldRefuseAGrantItDidNotMakeAndEmptySizes() {
    VirtualChannelAllocator allocator = new VirtualChannelAllocator(2, 2);
    allocator.request(1, 1);
    assertThat(allocator.allocate()).isOne();
    assertThatThrownBy(() -> allocator.grantedInput(1)).isInstanceOf(IndexOutOfBoundsException.class);
    assertThatThrownBy(() -> new VirtualChannelAllocator(0, 2)).isInstanceOf(IllegalArgumentException.class);
  }
}
