package io.fabemu.fabric;

import io.fabemu.core.protocol.DeviceProtocol.StartWorkload;
import io.fabemu.core.sim.DeviceCore;
import io.fabemu.switching.optical.OcsControllerCore;

/**
 * On an optical cluster whose circuits come up during the run (docs/optical.md, "The OCS controller"), the
 * {@link OcsControllerCore} at the OCS controller's id ({@link DeviceIdPlan#ocsDevice}) over the run's policies. It
 * starts at time 0: it gets the connection policy and starts setting the circuits up. Nothing on other fabrics.
 */
final class OcsControllerInstaller implements DeviceInstaller {

  @Override
  public void install(FabricContext c, DeviceCore[] devices) {
    int id = c.ids().ocsDevice();
    if (id == DeviceIdPlan.NONE) return;
    devices[id] = new OcsControllerCore(id, c.ocsPolicies(), c.topology(), c.ocsCluster().ocs());
  }

  @Override
  public void addStartEvents(FabricContext c, StartEvents events) {
    int id = c.ids().ocsDevice();
    if (id != DeviceIdPlan.NONE) events.add(0L, id, StartWorkload.INSTANCE);
  }
}
