package io.fabemu.fabric;

import io.fabemu.core.sim.DeviceCore;
import io.fabemu.core.topology.Topology;
import io.fabemu.switching.router.RouterCore;

/**
 * On a router network (mesh, torus, group-ring), one {@link RouterCore} per switch vertex, at its vertex id, sharing
 * the network's routing and router spec: with faults it routes by detours and reports to the management node; in
 * a synthetic-traffic run it measures between the traffic's measured cycles. Nothing on other fabrics.
 */
final class RouterInstaller implements DeviceInstaller {

  @Override
  public void install(FabricContext c, DeviceCore[] devices) {
    if (c.routerRouting() == null) return;
    Topology topology = c.topology();
    ScenarioSpec scenario = c.scenario();
    for (int v = 0; v < topology.vertexCount(); v++) {
      if (topology.isHost(v)) continue;
      RouterCore router = new RouterCore(v, topology, c.routerRouting(), c.detourRouting(), c.router(),
          scenario.devices().routerStallLimitPs());
      if (c.detourRouting() != null) router.useFaults(scenario.faults(), c.ids().managementDevice());
      if (scenario.traffic() != null) {
        router.measureBetween(scenario.traffic().measureStartCycle(), scenario.traffic().measureEndCycle());
      }
      devices[v] = router;
    }
  }
}
