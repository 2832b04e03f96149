package io.fabemu.fabric;

import static io.fabemu.fabric.InstallerScenarios.context;
import static io.fabemu.fabric.InstallerScenarios.slots;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabemu.collectives.RankGrid;
import io.fabemu.core.protocol.DeviceProtocol.StartWorkload;
import io.fabemu.core.sim.DeviceCore;
import io.fabemu.core.sim.Event;
import io.fabemu.node.ComputeNodeCore;
import java.util.List;
import org.junit.jupiter.api.Test;

class ComputeNodeInstallerTest {

  private final ComputeNodeInstaller installer = new ComputeNodeInstaller();

  @Test
  void shouldPutAComputeNodeAtEveryHostsComputeNodeId() {
    FabricContext c = context(InstallerScenarios.leafSpine());
    DeviceCore[] devices = slots(c);
    installer.install(c, devices);
    // 8 hosts: NICs 0..7, switches 8..11, compute nodes 12..19.
    for (int id = 0; id < devices.length; id++) {
      if (id >= 12) {
        assertThat(devices[id]).isInstanceOf(ComputeNodeCore.class);
        assertThat(devices[id].deviceId()).isEqualTo(id);
        assertThat(((ComputeNodeCore) devices[id]).finished()).isFalse();
      } else {
        assertThat(devices[id]).as("id %d", id).isNull();
      }
    }
  }

  @Test
  void shouldStartEveryComputeNodeAtTimeZeroUnlessTheRunIsSyntheticTraffic() {
    StartEvents workload = new StartEvents();
    installer.addStartEvents(context(InstallerScenarios.leafSpine()), workload);
    List<Event> events = workload.toList();
    assertThat(events).hasSize(8);
    for (int h = 0; h < 8; h++) {
      assertThat(events.get(h)).isEqualTo(new Event(0L, Event.EXTERNAL_SOURCE, h, 12 + h, StartWorkload.INSTANCE));
    }
    StartEvents traffic = new StartEvents();
    installer.addStartEvents(context(InstallerScenarios.meshTraffic(List.of(0.1))), traffic);
    assertThat(traffic.toList()).isEmpty();
  }

  @Test
  void shouldLayTheRanksOnAGridOnlyOnAMeshOrTorus() {
    RankGrid grid = ComputeNodeInstaller.rankGrid(InstallerScenarios.mesh().topology(), 2);
    assertThat(grid).isEqualTo(RankGrid.ofNodes(2, 4, 4));
    assertThat(ComputeNodeInstaller.rankGrid(InstallerScenarios.leafSpine().topology(), 1)).isNull();
  }
}
