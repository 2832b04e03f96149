package io.fabemu.nic;

import io.fabemu.core.link.PcieSpec;
import io.fabemu.core.router.RouterSpec;
import io.fabemu.core.router.Switching;
import io.fabemu.core.routing.RoutingTable;
import io.fabemu.core.time.Units;
import io.fabemu.core.topology.LinkSpec;
import io.fabemu.core.topology.MeshSpec;
import io.fabemu.core.topology.Topologies;
import io.fabemu.core.topology.Topology;

/** NICs for the chassis's tests: two hosts on a line (link ports) and a 2x2 mesh (router ports). */
final class NicFixtures {
  static final int SEGMENT_BYTES = 1000;
  static final int HEADER_BYTES = 64;
  static final long PCIE_LATENCY_PS = 250_000L;
  static final long CYCLE_PS = 1_000L;
  static final NicSpec NIC = new NicSpec(SEGMENT_BYTES, HEADER_BYTES, 100_000L, 100_000L);
  static final PcieSpec PCIE = new PcieSpec(64 * Units.GBPS, PCIE_LATENCY_PS);
  static final RouterSpec ROUTER = new RouterSpec(CYCLE_PS, 4, 4, 4, 1, 1, 1, 1, 2, 1, Switching.WORMHOLE);

  private NicFixtures() {}

  /** Two hosts cabled directly; host h's compute node is device 2 + h. */
  static Topology line() {
    return Topologies.line(2, new LinkSpec(25 * Units.GBPS, 500_000L));
  }

  static NicBuilder onLine(int host) {
    Topology topology = line();
    return NicCore.builder(host, 2 + host, topology, RoutingTable.compute(topology), NIC, PCIE, 8);
  }

  /** A 2x2 mesh: NICs 0 to 3, routers 4 to 7 (router 4 + h is host h's), compute nodes 8 to 11. */
  static MeshSpec mesh() {
    return new MeshSpec(2, 2, 1, new LinkSpec(25 * Units.GBPS, 500_000L));
  }

  static NicBuilder onMesh(int host) {
    MeshSpec mesh = mesh();
    Topology topology = mesh.build();
    return NicCore.builder(host, topology.computeNodeDevice(host), topology, mesh.routing(topology), NIC, PCIE, 8)
        .routerNetwork(ROUTER, mesh.routerRouting(topology).orElseThrow().vcClasses());
  }
}
