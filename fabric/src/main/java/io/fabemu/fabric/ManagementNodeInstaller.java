package io.fabemu.fabric;

import io.fabemu.core.fault.FaultAction;
import io.fabemu.core.fault.FaultEvent;
import io.fabemu.core.protocol.DeviceProtocol.FaultCommand;
import io.fabemu.core.protocol.DirectedLink;
import io.fabemu.core.sim.DeviceCore;
import io.fabemu.core.topology.Topology;
import io.fabemu.node.management.ManagementCore;
import java.util.List;
import java.util.TreeSet;

/**
 * In a run with faults, the {@link ManagementCore} at the management node's id ({@link DeviceIdPlan#managementDevice})
 * over the fabric's detour views (router network) or routing views; with INC it tells every host's NIC of each
 * failure, with I/O nodes it tells the external Ethernet. Its start events are the fault plan's: each event, at its
 * time, to the devices at the sending ends of the links it changes (a straggler: its compute node). Nothing without
 * faults.
 */
final class ManagementNodeInstaller implements DeviceInstaller {

  @Override
  public void install(FabricContext c, DeviceCore[] devices) {
    int id = c.ids().managementDevice();
    if (id == DeviceIdPlan.NONE) return;
    ScenarioSpec scenario = c.scenario();
    ManagementCore management = new ManagementCore(id, c.topology(), scenario.faults(),
        c.detourViews() != null ? c.detourViews() : c.routingViews(), c.workload().ppn());
    // INC groups live in the NICs: a failure that cuts a tree must reach them although their routes stay.
    if (c.inc() != null) management.notifyHostsOfFailures();
    if (scenario.ethernet() != null) management.useEthernet(scenario.ethernet(), c.ids().ethernetDevice());
    devices[id] = management;
  }

  @Override
  public void addStartEvents(FabricContext c, StartEvents events) {
    for (FaultEvent fault : c.scenario().faults().events()) {
      for (int device : faultedDevices(fault, c.topology())) {
        events.add(fault.atPs(), device, new FaultCommand(fault));
      }
    }
  }

  /**
   * The devices a fault event reaches: the sending ends of the links it changes (for a device that goes down or up,
   * the device and every neighbour; for a cable, both ends); a straggler's compute node.
   */
  static List<Integer> faultedDevices(FaultEvent fault, Topology topology) {
    if (fault.action() == FaultAction.STRAGGLER) return List.of(topology.computeNodeDevice(fault.vertex()));
    TreeSet<Integer> ends = new TreeSet<>();
    for (DirectedLink link : fault.links()) ends.add(link.from());
    return List.copyOf(ends);
  }
}
