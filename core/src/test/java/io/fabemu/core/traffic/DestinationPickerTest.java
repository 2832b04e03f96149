package io.fabemu.core.traffic;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** Each pattern's destinations on small shapes, checked by hand, and the shapes each pattern rejects. */
class DestinationPickerTest {
  private static final NetworkShape MESH_4X4 = NetworkShape.mesh(4, 4, 1);

  private static int[] permutation(TrafficPattern pattern, NetworkShape shape) {
    DestinationPicker picker = DestinationPicker.of(pattern, shape, null);
    SplittableRandom unused = new SplittableRandom(1);
    int[] destinations = new int[shape.nodeCount()];
    for (int node = 0; node < destinations.length; node++) {
      destinations[node] = picker.sends(node) ? picker.destination(node, unused) : -1;
    }
    return destinations;
  }

  @Test
  void shouldRoundTripConfigNames() {
    for (TrafficPattern pattern : TrafficPattern.values()) {
      assertThat(TrafficPattern.fromConfigName(pattern.configName())).isSameAs(pattern);
    }
    assertThat(TrafficPattern.fromConfigName("bit-reverse")).isSameAs(TrafficPattern.BIT_REVERSE);
    assertThat(TrafficPattern.fromConfigName("bitrev")).isNull();
  }

  @Test
  void shouldTransposeA4x4MeshAndSilenceTheDiagonal() {
    // node = x + 4y; (x,y) -> (y,x). -1: the diagonal 0, 5, 10, 15 sends nothing.
    assertThat(permutation(TrafficPattern.TRANSPOSE, MESH_4X4))
        .containsExactly(-1, 4, 8, 12, 1, -1, 9, 13, 2, 6, -1, 14, 3, 7, 11, -1);
    assertThat(DestinationPicker.of(TrafficPattern.TRANSPOSE, MESH_4X4, null).sendingNodeCount()).isEqualTo(12);
  }

  @Test
  void shouldMatchBookSimsTransposeBitSwapOnPowerOfTwoSquares() {
    // BookSim: shift = log2(n) / 2, dest = ((s >> shift) & lo) | ((s << shift) & hi).
    for (int side : new int[] {2, 4, 8, 16}) {
      int[] ours = permutation(TrafficPattern.TRANSPOSE, NetworkShape.torus(side, side, 1));
      int shift = Integer.numberOfTrailingZeros(side);
      int lowMask = (1 << shift) - 1;
      for (int s = 0; s < side * side; s++) {
        int bookSim = ((s >> shift) & lowMask) | ((s << shift) & (lowMask << shift));
        assertThat(ours[s]).isEqualTo(bookSim == s ? -1 : bookSim);
      }
    }
  }

  @Test
  void shouldComplementReverseAndShuffleSixteenNodeAddresses() {
    NetworkShape shape = NetworkShape.torus(4, 4, 1);
    // bit-complement: s -> ~s & 15, no fixed point.
    assertThat(permutation(TrafficPattern.BIT_COMPLEMENT, shape))
        .containsExactly(15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0);
    // bit-reverse: 0001 -> 1000, 0011 -> 1100, 1011 -> 1101; the palindromes 0, 6, 9, 15 send nothing.
    assertThat(permutation(TrafficPattern.BIT_REVERSE, shape))
        .containsExactly(-1, 8, 4, 12, 2, 10, -1, 14, 1, -1, 5, 13, 3, 11, 7, -1);
    // shuffle: rotate left by one; 1000 -> 0001, 1001 -> 0011, 1101 -> 1011; 0 and 15 send nothing.
    assertThat(permutation(TrafficPattern.SHUFFLE, shape))
        .containsExactly(-1, 2, 4, 6, 8, 10, 12, 14, 1, 3, 5, 7, 9, 11, 13, -1);
    assertThat(DestinationPicker.of(TrafficPattern.BIT_COMPLEMENT, shape, null).sendingNodeCount()).isEqualTo(16);
    assertThat(DestinationPicker.of(TrafficPattern.BIT_REVERSE, shape, null).sendingNodeCount()).isEqualTo(12);
    assertThat(DestinationPicker.of(TrafficPattern.SHUFFLE, shape, null).sendingNodeCount()).isEqualTo(14);
  }

  @Test
  void shouldApplyBitPatternsToAnyPowerOfTwoShape() {
    // 8-node group-ring (2 groups of 4): bit-reverse in 3 bits, 001 -> 100, 011 -> 110.
    int[] reversed = permutation(TrafficPattern.BIT_REVERSE, NetworkShape.groupRing(2, 4));
    assertThat(reversed).containsExactly(-1, 4, -1, 6, 1, -1, 3, -1);
  }

  @Test
  void shouldRefuseToPickForASilentNode() {
    DestinationPicker picker = DestinationPicker.of(TrafficPattern.TRANSPOSE, MESH_4X4, null);

    assertThat(picker.sends(5)).isFalse();
    assertThatThrownBy(() -> picker.destination(5, new SplittableRandom(1)))
        .isInstanceOf(IllegalStateException.class).hasMessageContaining("fixed point");
  }

  @Test
  void shouldPickUniformlyAmongAllOtherNodes() {
    DestinationPicker picker = DestinationPicker.of(TrafficPattern.UNIFORM, MESH_4X4, null);
    SplittableRandom random = new SplittableRandom(42);
    int draws = 150_000;
    for (int source : new int[] {0, 7, 15}) {
      int[] counts = new int[16];
      for (int i = 0; i < draws; i++) counts[picker.destination(source, random)]++;
      assertThat(counts[source]).isZero();
      double expected = draws / 15.0;
      for (int node = 0; node < 16; node++) {
        // Binomial sd ~ 97 around 10,000: 5 % is about 5 sd.
        if (node != source) assertThat((double) counts[node]).isCloseTo(expected, within(expected * 0.05));
      }
    }
    assertThat(picker.sendingNodeCount()).isEqualTo(16);
  }

  @Test
  void shouldSendTheGivenExtraFractionToHotNodes() {
    HotSpot hotSpot = new HotSpot(List.of(12, 3), 0.3);
    DestinationPicker picker = DestinationPicker.of(TrafficPattern.HOT_SPOT, MESH_4X4, hotSpot);
    SplittableRandom random = new SplittableRandom(7);
    int draws = 100_000;

    int[] fromCold = new int[16];
    int[] fromHot = new int[16];
    for (int i = 0; i < draws; i++) {
      fromCold[picker.destination(0, random)]++;
      fromHot[picker.destination(3, random)]++;
    }
    // A cold source: 0.3 to a hot node, plus the hot nodes' share 2/15 of the uniform 0.7.
    double hotShare = (fromCold[3] + fromCold[12]) / (double) draws;
    assertThat(hotShare).isCloseTo(0.3 + 0.7 * 2 / 15, within(0.008));
    assertThat(fromCold[3] / (double) draws).isCloseTo(hotShare / 2, within(0.006));
    assertThat(fromCold[0]).isZero();
    // A hot source sends its hot fraction to the other hot node, never to itself.
    assertThat(fromHot[3]).isZero();
    assertThat(fromHot[12] / (double) draws).isCloseTo(0.3 + 0.7 / 15, within(0.008));
    assertThat(fromHot[5] / (double) draws).isCloseTo(0.7 / 15, within(0.004));
  }

  @Test
  void shouldDrawUniformlyWhenTheSourceIsTheOnlyHotNode() {
    DestinationPicker picker = DestinationPicker.of(TrafficPattern.HOT_SPOT, MESH_4X4, new HotSpot(List.of(5), 1.0));
    SplittableRandom random = new SplittableRandom(3);
    int[] counts = new int[16];
    for (int i = 0; i < 30_000; i++) {
      counts[picker.destination(5, random)]++;
      assertThat(picker.destination(9, random)).isEqualTo(5);
    }
    assertThat(counts[5]).isZero();
    for (int node = 0; node < 16; node++) {
      if (node != 5) assertThat(counts[node]).isBetween(1_700, 2_300);
    }
  }

  @Test
  void shouldPickEachNeighbourEquallyOften() {
    SplittableRandom random = new SplittableRandom(11);
    DestinationPicker meshPicker = DestinationPicker.of(TrafficPattern.NEAREST_NEIGHBOUR, MESH_4X4, null);
    DestinationPicker torusPicker =
        DestinationPicker.of(TrafficPattern.NEAREST_NEIGHBOUR, NetworkShape.torus(4, 4, 1), null);
    DestinationPicker ringPicker =
        DestinationPicker.of(TrafficPattern.NEAREST_NEIGHBOUR, NetworkShape.groupRing(4, 3), null);
    int[] meshCorner = new int[16];
    int[] torusCorner = new int[16];
    int[] ringNode = new int[12];
    for (int i = 0; i < 40_000; i++) {
      meshCorner[meshPicker.destination(0, random)]++;
      torusCorner[torusPicker.destination(0, random)]++;
      ringNode[ringPicker.destination(4, random)]++;
    }
    // Mesh corner: only 1 and 4. Torus corner: 1, 3, 4, 12. Group-ring node 4: 3, 5, 1, 7.
    assertThat(meshCorner[1] + meshCorner[4]).isEqualTo(40_000);
    assertThat(meshCorner[1]).isBetween(19_000, 21_000);
    assertThat(torusCorner[1] + torusCorner[3] + torusCorner[4] + torusCorner[12]).isEqualTo(40_000);
    assertThat(ringNode[1] + ringNode[3] + ringNode[5] + ringNode[7]).isEqualTo(40_000);
    for (int node : new int[] {1, 3, 4, 12}) assertThat(torusCorner[node]).isBetween(9_400, 10_600);
    for (int node : new int[] {1, 3, 5, 7}) assertThat(ringNode[node]).isBetween(9_400, 10_600);
  }

  @Test
  void shouldRejectShapesAPatternCannotApplyTo() {
    assertThatThrownBy(() -> DestinationPicker.of(TrafficPattern.TRANSPOSE, NetworkShape.mesh(4, 2, 1), null))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("square 2-D").hasMessageContaining("4x2");
    assertThatThrownBy(() -> DestinationPicker.of(TrafficPattern.TRANSPOSE, NetworkShape.torus(4, 4, 4), null))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("4x4x4 torus");
    assertThatThrownBy(() -> DestinationPicker.of(TrafficPattern.TRANSPOSE, NetworkShape.groupRing(4, 4), null))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("group-ring");
    for (TrafficPattern bits : new TrafficPattern[] {
        TrafficPattern.BIT_COMPLEMENT, TrafficPattern.BIT_REVERSE, TrafficPattern.SHUFFLE}) {
      assertThatThrownBy(() -> DestinationPicker.of(bits, NetworkShape.mesh(3, 4, 1), null))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("power-of-two").hasMessageContaining("12 nodes");
    }
    assertThatThrownBy(() -> DestinationPicker.of(TrafficPattern.HOT_SPOT, MESH_4X4, null))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("hot-spot");
    assertThatThrownBy(() -> DestinationPicker.of(TrafficPattern.HOT_SPOT, MESH_4X4, new HotSpot(List.of(16), 0.5)))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("0..15").hasMessageContaining("got 16");
    assertThatThrownBy(() -> DestinationPicker.of(TrafficPattern.UNIFORM, MESH_4X4, new HotSpot(List.of(1), 0.5)))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("takes no hot-spot");
  }

  @Test
  void shouldRejectInvalidHotSpots() {
    assertThatThrownBy(() -> new HotSpot(List.of(), 0.5))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("at least one");
    assertThatThrownBy(() -> new HotSpot(List.of(2, 2), 0.5))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("distinct");
    assertThatThrownBy(() -> new HotSpot(List.of(-1), 0.5))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("got -1");
    assertThatThrownBy(() -> new HotSpot(List.of(1), 1.5))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("fraction").hasMessageContaining("1.5");
    assertThatThrownBy(() -> new HotSpot(List.of(1), Double.NaN))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("NaN");
  }
}
