package io.fabemu.fabric;

import static io.fabemu.fabric.InstallerScenarios.leafSpine;
import static io.fabemu.fabric.InstallerScenarios.leafSpineWithLinkDown;
import static io.fabemu.fabric.InstallerScenarios.meshWithEthernet;
import static io.fabemu.fabric.InstallerScenarios.meshWithEthernetAndNodeDown;
import static io.fabemu.fabric.InstallerScenarios.opticalWithOcs;
import static io.fabemu.fabric.InstallerScenarios.OCS_DELAY_PS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabemu.core.topology.Topology;
import org.junit.jupiter.api.Test;

class DeviceIdPlanTest {

  private static DeviceIdPlan plan(ScenarioSpec scenario) {
    return DeviceIdPlan.of(scenario, scenario.topology().build());
  }

  @Test
  void shouldNumberOnlyTheTopologysDevicesWhenTheScenarioHasNoExtraDevice() {
    ScenarioSpec scenario = leafSpine();
    Topology topology = scenario.topology().build();
    assertThat(plan(scenario)).isEqualTo(new DeviceIdPlan(20, -1, -1, -1, 20));
    assertThat(Fabric.deviceCount(scenario, topology)).isEqualTo(topology.deviceCount()).isEqualTo(20);
  }

  @Test
  void shouldGiveTheManagementNodeTheIdAfterTheTopologysDevicesWhenTheRunHasFaults() {
    assertThat(plan(leafSpineWithLinkDown())).isEqualTo(new DeviceIdPlan(20, 20, -1, -1, 21));
  }

  @Test
  void shouldPutTheExternalEthernetAfterTheManagementNode() {
    // 4 x 4 mesh: 16 NICs, 16 routers, 16 compute nodes.
    assertThat(plan(meshWithEthernetAndNodeDown())).isEqualTo(new DeviceIdPlan(48, 48, 49, -1, 50));
    assertThat(plan(meshWithEthernet(10, 2))).isEqualTo(new DeviceIdPlan(48, -1, 48, -1, 49));
  }

  @Test
  void shouldGiveTheOcsControllerAnIdOnlyWhenCircuitsComeUpDuringTheRun() {
    // Whatever the optical topology counts, the controller comes right after it.
    ScenarioSpec withOcs = opticalWithOcs(OCS_DELAY_PS);
    int topologyDevices = withOcs.topology().build().deviceCount();
    assertThat(plan(withOcs)).isEqualTo(new DeviceIdPlan(topologyDevices, -1, -1, topologyDevices,
        topologyDevices + 1));
    assertThat(plan(opticalWithOcs(0))).isEqualTo(new DeviceIdPlan(topologyDevices, -1, -1, -1, topologyDevices));
  }

  @Test
  void shouldRefuseAnExtraDeviceOutOfItsPlace() {
    assertThatThrownBy(() -> new DeviceIdPlan(20, -1, 21, -1, 22)).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("the external Ethernet must have id 20 (or -1), got 21");
    assertThatThrownBy(() -> new DeviceIdPlan(20, 20, -1, 20, 21)).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("the OCS controller must have id 21 (or -1), got 20");
    assertThatThrownBy(() -> new DeviceIdPlan(20, 20, -1, -1, 20)).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("device count 20 is not the 21 devices the plan numbers");
    assertThatThrownBy(() -> new DeviceIdPlan(0, -1, -1, -1, 0)).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("a fabric needs devices, got 0 topology devices");
  }
}
