package io.fabemu.fabric;

import static io.fabemu.fabric.InstallerScenarios.OCS_DELAY_PS;
import static io.fabemu.fabric.InstallerScenarios.context;
import static io.fabemu.fabric.InstallerScenarios.slots;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabemu.core.protocol.DeviceProtocol.StartWorkload;
import io.fabemu.core.sim.DeviceCore;
import io.fabemu.core.sim.Event;
import io.fabemu.switching.optical.OcsControllerCore;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

class OcsControllerInstallerTest {

  private final OcsControllerInstaller installer = new OcsControllerInstaller();

  @Test
  void shouldPutTheControllerLastAndStartItAtTimeZero() {
    FabricContext c = context(InstallerScenarios.opticalWithOcs(OCS_DELAY_PS));
    DeviceCore[] devices = slots(c);
    installer.install(c, devices);
    int last = devices.length - 1;
    assertThat(last).isEqualTo(c.topology().deviceCount());
    assertThat(devices[last]).isInstanceOf(OcsControllerCore.class);
    assertThat(devices[last].deviceId()).isEqualTo(last);
    assertThat(Arrays.asList(devices).subList(0, last)).containsOnlyNulls();
    StartEvents events = new StartEvents();
    installer.addStartEvents(c, events);
    assertThat(events.toList()).containsExactly(new Event(0L, Event.EXTERNAL_SOURCE, 0, last,
        StartWorkload.INSTANCE));
  }

  @Test
  void shouldInstallNothingWhenTheCircuitsAreUpFromTheStart() {
    FabricContext c = context(InstallerScenarios.opticalWithOcs(0));
    DeviceCore[] devices = slots(c);
    installer.install(c, devices);
    assertThat(devices).hasSize(c.topology().deviceCount()).containsOnlyNulls();
    StartEvents events = new StartEvents();
    installer.addStartEvents(c, events);
    assertThat(events.toList()).isEmpty();
  }
}
