package io.fabemu.fabric;

import io.fabemu.collectives.RankGrid;
import io.fabemu.collectives.RankLayout;
import io.fabemu.core.protocol.DeviceProtocol.StartWorkload;
import io.fabemu.core.sim.DeviceCore;
import io.fabemu.core.topology.Topology;
import io.fabemu.core.topology.TopologySpec;
import io.fabemu.core.traffic.NetworkShape;
import io.fabemu.node.ComputeNodeCore;

/**
 * One {@link ComputeNodeCore} per host, at its compute node id ({@link Topology#computeNodeDevice}), running the
 * host's ranks of the workload over one rank layout (a mesh's or torus's rank grid, the scenario's embedded rings,
 * an optical cluster's policy, the ranks of a server's hosts). Unless the run is synthetic traffic, the compute
 * nodes are what starts: each gets its start at time 0.
 */
final class ComputeNodeInstaller implements DeviceInstaller {

  @Override
  public void install(FabricContext c, DeviceCore[] devices) {
    ScenarioSpec scenario = c.scenario();
    Topology topology = c.topology();
    int ppn = c.workload().ppn();
    RankLayout layout = new RankLayout(rankGrid(scenario.topology(), ppn),
        Fabric.embeddedRings(scenario.rings(), topology),
        scenario.topology().connectionPolicy().orElse(null), scenario.topology().hostsPerServer() * ppn);
    for (int h = 0; h < topology.hostCount(); h++) {
      int node = topology.computeNodeDevice(h);
      devices[node] = new ComputeNodeCore(node, h, topology.nicDevice(h), c.worldSize(), c.workload(),
          scenario.seed(), c.answers(), scenario.devices().host(), c.incEnvironment(), layout);
    }
  }

  @Override
  public void addStartEvents(FabricContext c, StartEvents events) {
    if (c.scenario().runsTraffic()) return;
    for (int h = 0; h < c.topology().hostCount(); h++) {
      events.add(0L, c.topology().computeNodeDevice(h), StartWorkload.INSTANCE);
    }
  }

  /**
   * The world's ranks laid out on a mesh or torus (the ranks of a node first, then x, y, z), for the dimension-wise
   * algorithms; null on other fabrics.
   */
  static RankGrid rankGrid(TopologySpec topology, int ppn) {
    NetworkShape shape = topology.networkShape().orElse(null);
    if (shape == null || shape.kind() == NetworkShape.Kind.GROUP_RING) return null;
    return shape.sizeZ() == 1 ? RankGrid.ofNodes(ppn, shape.sizeX(), shape.sizeY())
        : RankGrid.ofNodes(ppn, shape.sizeX(), shape.sizeY(), shape.sizeZ());
  }
}
