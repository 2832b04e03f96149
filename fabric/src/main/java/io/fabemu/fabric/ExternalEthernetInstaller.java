package io.fabemu.fabric;

import io.fabemu.core.ethernet.EthernetSpec;
import io.fabemu.core.protocol.DeviceProtocol.EthernetTimer;
import io.fabemu.core.sim.DeviceCore;
import io.fabemu.nic.ExternalEthernetCore;

/**
 * With I/O nodes, the {@link ExternalEthernetCore} at the external Ethernet's id
 * ({@link DeviceIdPlan#ethernetDevice}). Its start events are the Ethernet traffic sources' first frames at
 * {@code ethernet.start}: every node's NIC when frames go out, then the external hosts when frames come in. Nothing
 * without I/O nodes.
 */
final class ExternalEthernetInstaller implements DeviceInstaller {

  @Override
  public void install(FabricContext c, DeviceCore[] devices) {
    int id = c.ids().ethernetDevice();
    if (id == DeviceIdPlan.NONE) return;
    devices[id] = new ExternalEthernetCore(id, c.scenario().ethernet(), c.topology().hostCount(),
        c.scenario().seed());
  }

  @Override
  public void addStartEvents(FabricContext c, StartEvents events) {
    EthernetSpec ethernet = c.scenario().ethernet();
    if (ethernet == null) return;
    if (ethernet.outboundFrames() > 0) {
      for (int h = 0; h < c.topology().hostCount(); h++) {
        events.add(ethernet.startPs(), c.topology().nicDevice(h), new EthernetTimer(0));
      }
    }
    if (ethernet.inboundFrames() > 0) {
      events.add(ethernet.startPs(), c.ids().ethernetDevice(), new EthernetTimer(0));
    }
  }
}
