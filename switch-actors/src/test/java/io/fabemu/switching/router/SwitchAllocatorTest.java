package io.fabemu.switching.router;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The separable input-first switch allocator, apart from any router: 3 ports of 2 virtual channels each. */
class SwitchAllocatorTest {
  private static final int PORTS = 3;
  private static final int VCS = 2;

  /** The input virtual channels granted by one allocation, in grant order. */
  private static List<Integer> grants(SwitchAllocator allocator, int[] outputPortOf) {
    int count = allocator.allocate(outputPortOf);
    List<Integer> out = new ArrayList<>();
    for (int k = 0; k < count; k++) out.add(allocator.granted(k));
    return out;
  }

  @Test
  void shouldLetEachInputPortSendOnceAndEachOutputPortTakeOnce() {
    SwitchAllocator allocator = new SwitchAllocator(PORTS, VCS);
    // Input channels 0 and 1 (port 0) go to output 2; 2 (port 1) to output 2; 4 (port 2) to output 0.
    int[] outputPortOf = {2, 2, 2, -1, 0, -1};
    allocator.offer(1);
    allocator.offer(0);
    allocator.offer(2);
    allocator.offer(4);
    // Port 0 picks channel 0 (its pointer is at 0); output 2 takes port 0 over port 1; output 0 takes port 2.
    assertThat(grants(allocator, outputPortOf)).containsExactly(0, 4);
    // Next cycle, the same offers: port 0 now favours channel 1, output 2 now favours port 1.
    allocator.offer(1);
    allocator.offer(0);
    allocator.offer(2);
    allocator.offer(4);
    assertThat(grants(allocator, outputPortOf)).containsExactly(2, 4);
    allocator.offer(1);
    allocator.offer(0);
    assertThat(grants(allocator, outputPortOf)).containsExactly(1);
  }

  @Test
  void shouldSendToDifferentOutputsFromDifferentInputsInOneCycle() {
    SwitchAllocator allocator = new SwitchAllocator(PORTS, VCS);
    int[] outputPortOf = {1, -1, 2, -1, 0, -1};
    allocator.offer(0);
    allocator.offer(2);
    allocator.offer(4);
    assertThat(grants(allocator, outputPortOf)).containsExactly(0, 2, 4);
    assertThat(grants(allocator, outputPortOf)).isEmpty();
  }

  @Test
  void shouldRefuseAGrantItDidNotMakeAndEmptySizes() {
    SwitchAllocator allocator = new SwitchAllocator(PORTS, VCS);
    assertThat(allocator.allocate(new int[PORTS * VCS])).isZero();
    assertThatThrownBy(() -> allocator.granted(0)).isInstanceOf(IndexOutOfBoundsException.class);
    assertThatThrownBy(() -> new SwitchAllocator(PORTS, 0)).isInstanceOf(IllegalArgumentException.class);
  }
}
