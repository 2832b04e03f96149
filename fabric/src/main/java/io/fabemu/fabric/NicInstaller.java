package io.fabemu.fabric;

import io.fabemu.core.optical.ConnectionPolicy;
import io.fabemu.core.protocol.DeviceProtocol.StartWorkload;
import io.fabemu.core.router.RouterSpec;
import io.fabemu.core.sim.DeviceCore;
import io.fabemu.core.topology.Topology;
import io.fabemu.nic.CircuitWaitExtension;
import io.fabemu.nic.EthernetExtension;
import io.fabemu.nic.GpuDirectExtension;
import io.fabemu.nic.IncExtension;
import io.fabemu.nic.NicBuilder;
import io.fabemu.nic.NicCore;
import io.fabemu.nic.PathRoundTrip;
import io.fabemu.nic.ReliableTransportExtension;
import io.fabemu.nic.TrafficExtension;
import java.util.ArrayList;
import java.util.List;

/**
 * One {@link NicCore} per host, at the host's NIC id ({@link Topology#nicDevice}): the chassis with the drops and its
 * port (a router network's flit terminal, or links), and one registration per feature the scenario has: NVLink
 * between the GPUs of a server with a server switch, INC on hosts
 * under a TOR, the reliable transport with faults (routing views on links, detours on a router network), the I/O
 * nodes' Ethernet, synthetic traffic, and on an optical cluster with a controller the circuits it waits for and each
 * policy change's routes. In a synthetic-traffic run the NICs are what starts: each gets its start at time 0.
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
      int host = v;
      int management = c.ids().managementDevice();
      NicBuilder nic = NicCore.builder(v, topology.computeNodeDevice(v), topology, c.routing(), spec.nic(),
          spec.host().pcie(), c.elementBytes()).packetDrops(scenario.packetDrops(), scenario.seed());
      if (router != null) {
        int vcClasses = c.routerRouting() == null ? 0 : c.routerRouting().vcClasses();
        if (c.detourViews() != null) {
          nic.routerNetwork(router, vcClasses, c.detourViews());
        } else {
          nic.routerNetwork(router, vcClasses);
        }
      }
      // The features, each one registration; a feature that is off is not registered.
      int gpuDirect = scenario.topology().gpuDirectHostsPerServer();
      if (gpuDirect > 0) {
        nic.extension(s -> new GpuDirectExtension(s, gpuDirect, spec.host().pcie()));
      }
      if (c.inc() != null && topology.torOf(v) >= 0) {
        nic.extension(s -> new IncExtension(s, c.inc().nic(), scenario.faults()));
      }
      if (c.routingViews() != null) {
        nic.extension(s -> ReliableTransportExtension.onLinks(s, scenario.faults(), c.routingViews(), management,
            scenario.seed(), new PathRoundTrip(host, topology, c.routing(), spec.switchSpec().pipelineLatencyPs(),
                spec.host().pcieLatencyPs())));
      }
      if (c.detourViews() != null) {
        nic.extension(s -> ReliableTransportExtension.onRouters(s, scenario.faults(), management, scenario.seed(),
            new PathRoundTrip(host, topology, c.routing(), router.routerCycles() * router.cyclePs(),
                spec.host().pcieLatencyPs())));
      }
      if (scenario.ethernet() != null) {
        nic.extension(s -> new EthernetExtension(s, scenario.ethernet(), c.ids().ethernetDevice(), scenario.seed()));
      }
      if (scenario.traffic() != null) {
        nic.extension(s -> new TrafficExtension(s, scenario.traffic(), c.destinations(), scenario.seed()));
      }
      if (c.ocsPolicies() != null) {
        List<Integer> circuitPeers = circuitPeers(c.ocsPolicies(), v, topology);
        nic.extension(s -> new CircuitWaitExtension(s, circuitPeers,
            c.laterRoutes() == null ? List.of() : c.laterRoutesAtPs(),
            c.laterRoutes() == null ? List.of() : c.laterRoutes()));
      }
      devices[v] = nic.build();
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
