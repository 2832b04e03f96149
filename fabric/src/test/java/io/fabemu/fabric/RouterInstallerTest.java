package io.fabemu.fabric;

import static io.fabemu.fabric.InstallerScenarios.context;
import static io.fabemu.fabric.InstallerScenarios.slots;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabemu.core.sim.DeviceCore;
import io.fabemu.switching.router.RouterCore;
import java.util.List;
import org.junit.jupiter.api.Test;

class RouterInstallerTest {

  private final RouterInstaller installer = new RouterInstaller();

  @Test
  void shouldPutARouterAtEverySwitchVertexOfARouterNetwork() {
    FabricContext c = context(InstallerScenarios.meshWithNodeDown());
    DeviceCore[] devices = slots(c);
    installer.install(c, devices);
    // 4 x 4 mesh: NICs 0..15, routers 16..31, compute nodes 32..47, the management node 48.
    for (int id = 0; id < devices.length; id++) {
      if (id >= 16 && id < 32) {
        assertThat(devices[id]).isInstanceOf(RouterCore.class);
        assertThat(devices[id].deviceId()).isEqualTo(id);
        assertThat(((RouterCore) devices[id]).heldFlits()).isZero();
      } else {
        assertThat(devices[id]).as("id %d", id).isNull();
      }
    }
  }

  @Test
  void shouldInstallNothingOffARouterNetworkAndStartNothing() {
    FabricContext c = context(InstallerScenarios.leafSpine());
    DeviceCore[] devices = slots(c);
    installer.install(c, devices);
    assertThat(devices).containsOnlyNulls();
    StartEvents events = new StartEvents();
    installer.addStartEvents(context(InstallerScenarios.meshTraffic(List.of(0.1))), events);
    assertThat(events.toList()).isEmpty();
  }
}
