package io.fabemu.fabric;

import io.fabemu.core.optical.ConnectionPolicy;
import io.fabemu.core.protocol.DeviceProtocol.StartWorkload;
import io.fabemu.core.router.RouterSpec;
import io.fabemu.core.sim.DeviceCore;
import io.fabemu.core.topology.Topology;
import io.fabemu.nic.NicCore;
import io.fabemu.nic.PathRoundTrip;
import java.util.ArrayList;
import java.util.List;

/**
 * One {@link NicCore} per host, at the host's NIC id ({@link Topology#nicDevice}): with the INC unit and the drops,
 * a router network's flit terminal, synthetic traffic's source; with faults the reliable transport and the
 * management node's routes (or via nodes on a router network); with I/O nodes the Ethernet; on an optical cluster
 * with a controller, the circuits it waits for and each policy change's routes. In a synthetic-traffic run the NICs
 * are what starts: each gets its start at time 0.
 */
final class NicInstaller implements DeviceInstaller {

  @Override
  public void install(FabricContext c, DeviceCore[] devices) {
    ScenarioSpec scenario = c.scenario();
    Topology topology = c.topology();
    DeviceSpec spec = scenario.devices();
    RouterSpec router = c.router();
    for (int v = 0; v < topology.vertexCount(); v++) {
      if (!topology.isHost(v)) continue;
      NicCore nic = new NicCore(v, topology.computeNodeDevice(v), topology, c.routing(), spec.nic(),
          spec.host().pcie(), c.elementBytes(), c.inc() == null ? null : c.inc().nic(), scenario.packetDrops(),
          scenario.seed(), router, c.routerRouting() == null ? 0 : c.routerRouting().vcClasses(), scenario.traffic(),
          c.destinations());
      int management = c.ids().managementDevice();
      if (c.routingViews() != null) {
        nic.useFaults(scenario.faults(), c.routingViews(), management, scenario.seed(), new PathRoundTrip(v,
            topology, c.routing(), spec.switchSpec().pipelineLatencyPs(), spec.host().pcieLatencyPs()));
      }
      if (c.detourViews() != null) {
        nic.useFaults(scenario.faults(), c.detourViews(), management, scenario.seed(), new PathRoundTrip(v,
            topology, c.routing(), router.routerCycles() * router.cyclePs(), spec.host().pcieLatencyPs()));
      }
      if (scenario.ethernet() != null) nic.useEthernet(scenario.ethernet(), c.ids().ethernetDevice());
      if (c.ocsPolicies() != null) {
        List<Integer> circuitPeers = circuitPeers(c.ocsPolicies(), v, topology);
        if (!circuitPeers.isEmpty()) nic.awaitCircuits(circuitPeers);
        if (c.laterRoutes() != null) nic.useRouteChanges(c.laterRoutesAtPs(), c.laterRoutes());
      }
      devices[v] = nic;
    }
  }

  @Override
  public void addStartEvents(FabricContext c, StartEvents events) {
    if (!c.scenario().runsTraffic()) return;
    for (int h = 0; h < c.topology().hostCount(); h++) {
      events.add(0L, c.topology().nicDevice(h), StartWorkload.INSTANCE);
    }
  }

  /**
   * The NIC devices at the other end of host {@code host}'s circuits in any of {@code policies}, in the order the
   * policies first give them (with one policy, its one circuit, if any).
   */
  static List<Integer> circuitPeers(List<ConnectionPolicy> policies, int host, Topology topology) {
    List<Integer> peers = new ArrayList<>();
    for (ConnectionPolicy policy : policies) {
      int npus = policy.npusPerServer();
      int peerServer = policy.peerServer(host / npus, host % npus);
      if (peerServer == ConnectionPolicy.NO_CIRCUIT) continue;
      int peer = topology.nicDevice(peerServer * npus + host % npus);
      if (!peers.contains(peer)) peers.add(peer);
    }
    return peers;
  }
}
