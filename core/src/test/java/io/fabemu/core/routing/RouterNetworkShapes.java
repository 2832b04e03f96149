package io.fabemu.core.routing;

import io.fabemu.core.topology.GroupRingSpec;
import io.fabemu.core.topology.LinkSpec;
import io.fabemu.core.topology.MeshSpec;
import io.fabemu.core.topology.TorusSpec;
import java.util.List;

/** The router-network shapes the routing tests walk: odd and even sizes, size-2 dimensions, 2-D and 3-D. */
final class RouterNetworkShapes {

  static final LinkSpec LINK = new LinkSpec(200_000_000_000L, 10_000);

  private RouterNetworkShapes() {}

  /** Small enough for a breadth-first table each: every pair, every hop compared. */
  static List<MeshSpec> meshes() {
    return List.of(mesh(2, 2, 1), mesh(3, 3, 1), mesh(2, 5, 1), mesh(4, 3, 1), mesh(5, 5, 1), mesh(2, 2, 2),
        mesh(2, 3, 4), mesh(3, 4, 5), mesh(4, 4, 4), mesh(5, 2, 3));
  }

  static List<TorusSpec> tori() {
    return List.of(torus(2, 2, 1), torus(3, 3, 1), torus(4, 4, 1), torus(5, 6, 1), torus(2, 3, 1), torus(6, 2, 1),
        torus(2, 2, 2), torus(2, 3, 4), torus(3, 4, 5), torus(4, 4, 4), torus(6, 2, 3), torus(3, 3, 3));
  }

  static List<GroupRingSpec> groupRings() {
    return List.of(groupRing(2, 1), groupRing(2, 3), groupRing(3, 1), groupRing(3, 4), groupRing(4, 2),
        groupRing(5, 3), groupRing(6, 4), groupRing(7, 2), groupRing(8, 8));
  }

  static MeshSpec mesh(int x, int y, int z) {
    return new MeshSpec(x, y, z, LINK);
  }

  static TorusSpec torus(int x, int y, int z) {
    return new TorusSpec(x, y, z, LINK);
  }

  static GroupRingSpec groupRing(int groups, int nodesPerGroup) {
    return new GroupRingSpec(groups, nodesPerGroup, LINK);
  }
}
