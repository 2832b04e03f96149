package io.fabemu.fabric;

import static io.fabemu.fabric.InstallerScenarios.context;
import static io.fabemu.fabric.InstallerScenarios.slots;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabemu.collectives.Algorithm;
import io.fabemu.core.data.DataType;
import io.fabemu.core.data.ReduceOp;
import io.fabemu.core.protocol.DeviceProtocol.StartWorkload;
import io.fabemu.core.sim.DeviceCore;
import io.fabemu.core.sim.Event;
import io.fabemu.nic.IncExtension;
import io.fabemu.nic.NicCore;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class NicInstallerTest {

  private final NicInstaller installer = new NicInstaller();

  @Test
  void shouldPutANicAtEveryHostsNicIdAndNothingElse() {
    FabricContext c = context(InstallerScenarios.leafSpine());
    DeviceCore[] devices = slots(c);
    installer.install(c, devices);
    for (int id = 0; id < devices.length; id++) {
      if (id < 8) {
        assertThat(devices[id]).isInstanceOf(NicCore.class);
        assertThat(devices[id].deviceId()).isEqualTo(id);
      } else {
        assertThat(devices[id]).as("id %d", id).isNull();
      }
    }
  }

  @Test
  void shouldGiveEveryNicItsIncUnitWhenTheFabricComputesInTheNetwork() {
    ScenarioSpec inc = IncAllreduceTest.scenario(4, 2, 1, 1, List.of(Algorithm.INC_NODE), List.of(1024L),
        DataType.INT32, ReduceOp.SUM, IncAllreduceTest.inc(null, null, Set.of()));
    FabricContext c = context(inc);
    DeviceCore[] devices = slots(c);
    installer.install(c, devices);
    assertThat(((NicCore) devices[0]).extension(IncExtension.class)).isPresent();
    FabricContext plain = context(InstallerScenarios.leafSpine());
    DeviceCore[] plainDevices = slots(plain);
    installer.install(plain, plainDevices);
    assertThat(((NicCore) plainDevices[0]).extension(IncExtension.class)).isEmpty();
  }

  @Test
  void shouldStartEveryNicAtTimeZeroOnlyWhenTheRunIsSyntheticTraffic() {
    StartEvents workload = new StartEvents();
    installer.addStartEvents(context(InstallerScenarios.mesh()), workload);
    assertThat(workload.toList()).isEmpty();

    StartEvents traffic = new StartEvents();
    installer.addStartEvents(context(InstallerScenarios.meshTraffic(List.of(0.1))), traffic);
    List<Event> events = traffic.toList();
    assertThat(events).hasSize(16);
    for (int h = 0; h < 16; h++) {
      assertThat(events.get(h)).isEqualTo(new Event(0L, Event.EXTERNAL_SOURCE, h, h, StartWorkload.INSTANCE));
    }
  }

  @Test
  void shouldWaitForTheCircuitOfEachPolicyOnce() {
    FabricContext c = context(InstallerScenarios.opticalWithOcs(InstallerScenarios.OCS_DELAY_PS));
    // Two servers of two NPUs need one plane: NPU 0 of each server has the circuit to the other's, NPU 1 is idle.
    assertThat(NicInstaller.circuitPeers(c.ocsPolicies(), 0, c.topology())).containsExactly(2);
    assertThat(NicInstaller.circuitPeers(c.ocsPolicies(), 2, c.topology())).containsExactly(0);
    assertThat(NicInstaller.circuitPeers(c.ocsPolicies(), 1, c.topology())).isEmpty();
    // Repeated policies give a peer once.
    assertThat(NicInstaller.circuitPeers(List.of(c.ocsPolicies().get(0), c.ocsPolicies().get(0)), 0,
        c.topology())).containsExactly(2);
  }
}
