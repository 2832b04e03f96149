package io.fabemu.fabric;

import io.fabemu.core.sim.DeviceCore;
import io.fabemu.core.topology.Topology;
import io.fabemu.switching.SwitchCore;

/**
 * Off a router network, one {@link SwitchCore} per switch vertex, at its vertex id: with its tier's INC unit (unless
 * listed without one) and the drops; with faults the management node's routes; on an optical cluster with policy
 * changes (a server switch) each policy's routes at its time. Nothing on a router network.
 */
final class SwitchInstaller implements DeviceInstaller {

  @Override
  public void install(FabricContext c, DeviceCore[] devices) {
    if (c.routerRouting() != null) return;
    Topology topology = c.topology();
    ScenarioSpec scenario = c.scenario();
    IncSpec inc = c.inc();
    for (int v = 0; v < topology.vertexCount(); v++) {
      if (topology.isHost(v)) continue;
      SwitchCore switchCore = new SwitchCore(v, topology, c.routing(), scenario.devices().switchSpec(),
          inc == null ? null : inc.unitOf(v, topology.tier(v)), scenario.devices().nic().headerBytes(),
          inc == null ? 1 : inc.nic().fragmentBytes(), scenario.packetDrops(), scenario.seed());
      if (c.routingViews() != null) {
        switchCore.useFaults(scenario.faults(), c.routingViews(), c.ids().managementDevice(), scenario.seed());
      }
      // An optical cluster's server switch sends another server's traffic to the gateway of the policy in force.
      if (c.laterRoutes() != null) switchCore.useRouteChanges(c.laterRoutesAtPs(), c.laterRoutes());
      devices[v] = switchCore;
    }
  }
}
