package io.fabemu.fabric;

import static io.fabemu.fabric.InstallerScenarios.context;
import static io.fabemu.fabric.InstallerScenarios.slots;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabemu.core.protocol.DeviceProtocol.EthernetTimer;
import io.fabemu.core.sim.DeviceCore;
import io.fabemu.core.sim.Event;
import io.fabemu.core.time.Units;
import io.fabemu.nic.ExternalEthernetCore;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

class ExternalEthernetInstallerTest {

  private static final long START_PS = 3 * Units.PS_PER_US;
  private final ExternalEthernetInstaller installer = new ExternalEthernetInstaller();

  @Test
  void shouldPutTheExternalEthernetAfterTheManagementNode() {
    FabricContext c = context(InstallerScenarios.meshWithEthernetAndNodeDown());
    DeviceCore[] devices = slots(c);
    installer.install(c, devices);
    assertThat(devices).hasSize(50);
    assertThat(devices[49]).isInstanceOf(ExternalEthernetCore.class);
    assertThat(devices[49].deviceId()).isEqualTo(49);
    assertThat(Arrays.asList(devices).subList(0, 49)).containsOnlyNulls();
  }

  @Test
  void shouldStartEveryNodesOutboundSourceThenTheExternalHostsAtTheEthernetStart() {
    StartEvents events = new StartEvents();
    installer.addStartEvents(context(InstallerScenarios.meshWithEthernet(10, 2)), events);
    List<Event> list = events.toList();
    assertThat(list).hasSize(17);
    for (int h = 0; h < 16; h++) {
      assertThat(list.get(h)).isEqualTo(new Event(START_PS, Event.EXTERNAL_SOURCE, h, h, new EthernetTimer(0)));
    }
    assertThat(list.get(16)).isEqualTo(new Event(START_PS, Event.EXTERNAL_SOURCE, 16, 48, new EthernetTimer(0)));
  }

  @Test
  void shouldStartOnlyTheSourcesThatSendFrames() {
    StartEvents inboundOnly = new StartEvents();
    installer.addStartEvents(context(InstallerScenarios.meshWithEthernet(10, 0)), inboundOnly);
    assertThat(inboundOnly.toList()).extracting(Event::targetDevice).containsExactly(48);
    StartEvents outboundOnly = new StartEvents();
    installer.addStartEvents(context(InstallerScenarios.meshWithEthernet(0, 2)), outboundOnly);
    assertThat(outboundOnly.toList()).hasSize(16).extracting(Event::targetDevice).doesNotContain(48);
  }

  @Test
  void shouldInstallNothingWithoutIoNodes() {
    InstallerScenarios.assertInstallsAndStartsNothing(installer, InstallerScenarios.mesh());
  }
}
