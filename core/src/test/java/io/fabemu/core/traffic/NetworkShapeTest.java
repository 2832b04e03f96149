package io.fabemu.core.traffic;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** Numbering and neighbours of mesh, torus and group-ring shapes, checked by hand. */
class NetworkShapeTest {

  @Test
  void shouldNumberMeshNodesXFirstThenYThenZ() {
    NetworkShape shape = NetworkShape.mesh(4, 3, 2);

    assertThat(shape.nodeCount()).isEqualTo(24);
    assertThat(shape.node(1, 2, 1)).isEqualTo(1 + 4 * (2 + 3 * 1));
    assertThat(shape.coordinates(21)).containsExactly(1, 2, 1);
    assertThat(shape.isTwoDimensional()).isFalse();
    assertThat(NetworkShape.torus(4, 4, 1).isTwoDimensional()).isTrue();
  }

  @Test
  void shouldNumberGroupRingNodesGroupTimesNodesPerGroupPlusIndex() {
    NetworkShape shape = NetworkShape.groupRing(4, 3);

    assertThat(shape.nodeCount()).isEqualTo(12);
    assertThat(shape.groups()).isEqualTo(4);
    assertThat(shape.nodesPerGroup()).isEqualTo(3);
    // node 7 = group 2 * 3 + index 1: coordinates (index, group, 0).
    assertThat(shape.coordinates(7)).containsExactly(1, 2, 0);
    assertThat(shape.isTwoDimensional()).isFalse();
    assertThat(shape.toString()).isEqualTo("group-ring of 4 groups x 3 nodes");
  }

  @Test
  void shouldGiveMeshEdgeNodesOnlyTheNeighboursThatExist() {
    NetworkShape mesh = NetworkShape.mesh(4, 4, 1);

    assertThat(mesh.neighbours(0)).containsExactly(1, 4);
    assertThat(mesh.neighbours(1)).containsExactly(0, 2, 5);
    assertThat(mesh.neighbours(5)).containsExactly(4, 6, 1, 9);
    assertThat(mesh.neighbours(15)).containsExactly(14, 11);
  }

  @Test
  void shouldWrapTorusNeighboursAroundEachDimension() {
    NetworkShape torus = NetworkShape.torus(4, 4, 1);

    assertThat(torus.neighbours(0)).containsExactly(3, 1, 12, 4);
    assertThat(torus.neighbours(15)).containsExactly(14, 12, 11, 3);
  }

  @Test
  void shouldListANeighbourOnceWhenATorusDimensionHasTwoNodes() {
    // 2x3 torus, node 0 at (0,0): x-1 and x+1 are both node 1; y-1 wraps to (0,2) = 4, y+1 is (0,1) = 2.
    assertThat(NetworkShape.torus(2, 3, 1).neighbours(0)).containsExactly(1, 4, 2);
  }

  @Test
  void shouldGiveThreeDimensionalNeighbours() {
    assertThat(NetworkShape.mesh(2, 2, 2).neighbours(0)).containsExactly(1, 2, 4);
    // 3x3x3 torus centre (1,1,1) = 13.
    assertThat(NetworkShape.torus(3, 3, 3).neighbours(13)).containsExactly(12, 14, 10, 16, 4, 22);
    // corner (0,0,0) of a 3x3x3 torus wraps in every dimension.
    assertThat(NetworkShape.torus(3, 3, 3).neighbours(0)).containsExactly(2, 1, 6, 3, 18, 9);
  }

  @Test
  void shouldCableGroupRingNodesToTheirGroupAndTheirRingNeighbours() {
    NetworkShape ring = NetworkShape.groupRing(4, 3);

    // node 4 = group 1, index 1: group 1's others 3 and 5, then group 0's index 1 = 1, group 2's index 1 = 7.
    assertThat(ring.neighbours(4)).containsExactly(3, 5, 1, 7);
    // node 0 = group 0, index 0: previous group wraps to group 3 (node 9).
    assertThat(ring.neighbours(0)).containsExactly(1, 2, 9, 3);
    // two groups: the previous and the next group are the same, listed once.
    assertThat(NetworkShape.groupRing(2, 2).neighbours(0)).containsExactly(1, 2);
    // one group: only the group's others.
    assertThat(NetworkShape.groupRing(1, 4).neighbours(2)).containsExactly(0, 1, 3);
    // one node per group: a plain ring.
    assertThat(NetworkShape.groupRing(5, 1).neighbours(0)).containsExactly(4, 1);
  }

  @Test
  void shouldRejectInvalidShapesAndNodes() {
    assertThatThrownBy(() -> NetworkShape.mesh(0, 4, 1))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("sizeX").hasMessageContaining("got 0");
    assertThatThrownBy(() -> NetworkShape.torus(1, 1, 1))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("at least 2 nodes");
    assertThatThrownBy(() -> new NetworkShape(NetworkShape.Kind.GROUP_RING, 2, 2, 2))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("sizeZ 1");
    assertThatThrownBy(() -> NetworkShape.mesh(65_536, 65_536, 1))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("at most");
    assertThatThrownBy(() -> NetworkShape.mesh(4, 4, 1).neighbours(16))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("0..15").hasMessageContaining("got 16");
    assertThatThrownBy(() -> NetworkShape.mesh(4, 4, 1).node(4, 0, 0))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("outside the 4x4 mesh");
    assertThatThrownBy(() -> NetworkShape.mesh(4, 4, 1).groups()).isInstanceOf(IllegalStateException.class);
  }
}
