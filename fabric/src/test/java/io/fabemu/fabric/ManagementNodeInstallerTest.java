package io.fabemu.fabric;

import static io.fabemu.fabric.InstallerScenarios.FAULT_PS;
import static io.fabemu.fabric.InstallerScenarios.context;
import static io.fabemu.fabric.InstallerScenarios.slots;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabemu.core.fault.FaultAction;
import io.fabemu.core.fault.FaultEvent;
import io.fabemu.core.protocol.DeviceProtocol.FaultCommand;
import io.fabemu.core.sim.DeviceCore;
import io.fabemu.core.sim.Event;
import io.fabemu.core.topology.Topology;
import io.fabemu.core.topology.Topology.Tier;
import io.fabemu.node.management.ManagementCore;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

class ManagementNodeInstallerTest {

  private final ManagementNodeInstaller installer = new ManagementNodeInstaller();

  @Test
  void shouldPutTheManagementNodeAtItsIdWhenTheRunHasFaults() {
    FabricContext c = context(InstallerScenarios.leafSpineWithLinkDown());
    DeviceCore[] devices = slots(c);
    installer.install(c, devices);
    assertThat(devices[20]).isInstanceOf(ManagementCore.class);
    assertThat(devices[20].deviceId()).isEqualTo(20);
    assertThat(Arrays.asList(devices).subList(0, 20)).containsOnlyNulls();
    assertThat(((ManagementCore) devices[20]).partition()).isNull();
  }

  @Test
  void shouldInstallNothingAndStartNothingWithoutFaults() {
    InstallerScenarios.assertInstallsAndStartsNothing(installer, InstallerScenarios.leafSpine());
  }

  @Test
  void shouldDeliverALinksFaultToBothSendingEndsAtItsTime() {
    ScenarioSpec scenario = InstallerScenarios.leafSpineWithLinkDown();
    FabricContext c = context(scenario);
    Topology topology = c.topology();
    int tor = InstallerScenarios.firstOfTier(topology, Tier.TOR);
    int spine = InstallerScenarios.firstOfTier(topology, Tier.SPINE);
    FaultEvent fault = scenario.faults().event(0);
    StartEvents events = new StartEvents();
    installer.addStartEvents(c, events);
    assertThat(events.toList()).containsExactly(
        new Event(FAULT_PS, Event.EXTERNAL_SOURCE, 0, tor, new FaultCommand(fault)),
        new Event(FAULT_PS, Event.EXTERNAL_SOURCE, 1, spine, new FaultCommand(fault)));
  }

  @Test
  void shouldDeliverAStragglerToItsComputeNodeAndADevicesFailureToItAndItsNeighbours() {
    Topology topology = InstallerScenarios.leafSpine().topology().build();
    FaultEvent straggler = FaultEvent.straggler(FAULT_PS, "host3", 3, 2.0);
    assertThat(ManagementNodeInstaller.faultedDevices(straggler, topology))
        .containsExactly(topology.computeNodeDevice(3));
    int tor = InstallerScenarios.firstOfTier(topology, Tier.TOR);
    FaultEvent torDown = FaultEvent.device(FAULT_PS, FaultAction.DOWN, "switch tor", tor,
        topology);
    // The TOR, its 4 hosts' NICs and the 2 spines, each once, in id order.
    List<Integer> ends = ManagementNodeInstaller.faultedDevices(torDown, topology);
    assertThat(ends).hasSize(7).isSorted().contains(tor, 0, 1, 2, 3);
  }
}
