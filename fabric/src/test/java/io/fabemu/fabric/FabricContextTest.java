package io.fabemu.fabric;

import static io.fabemu.fabric.InstallerScenarios.context;
import static io.fabemu.fabric.InstallerScenarios.leafSpine;
import static io.fabemu.fabric.InstallerScenarios.leafSpineWithLinkDown;
import static io.fabemu.fabric.InstallerScenarios.mesh;
import static io.fabemu.fabric.InstallerScenarios.meshTraffic;
import static io.fabemu.fabric.InstallerScenarios.meshWithNodeDown;
import static io.fabemu.fabric.InstallerScenarios.opticalReconfigured;
import static io.fabemu.fabric.InstallerScenarios.opticalWithOcs;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabemu.core.fault.FaultPlan;
import io.fabemu.core.link.PacketDropSpec;
import io.fabemu.core.router.RouterSpec;
import io.fabemu.core.router.Switching;
import io.fabemu.core.time.Units;
import io.fabemu.core.topology.MeshSpec;
import io.fabemu.core.topology.Topology.Tier;
import java.util.List;
import org.junit.jupiter.api.Test;

class FabricContextTest {

  @Test
  void shouldDeriveNoRouterOrFaultViewsForAPlainLeafSpine() {
    FabricContext c = context(leafSpine());
    assertThat(c.ids()).isEqualTo(new DeviceIdPlan(20, -1, -1, -1, 20));
    assertThat(c.worldSize()).isEqualTo(8);
    assertThat(c.answers()).isNotNull();
    assertThat(c.workload().syntheticPayload()).isFalse();
    assertThat(c.routerRouting()).isNull();
    assertThat(c.router()).isNull();
    assertThat(c.detourRouting()).isNull();
    assertThat(c.detourViews()).isNull();
    assertThat(c.routingViews()).isNull();
    assertThat(c.destinations()).isNull();
    assertThat(c.trafficSendingNodes()).isZero();
    assertThat(c.ocsCluster()).isNull();
    assertThat(c.ocsPolicies()).isNull();
    assertThat(c.laterRoutes()).isNull();
  }

  @Test
  void shouldShareOneRoutingViewWhenALeafSpineHasFaults() {
    FabricContext c = context(leafSpineWithLinkDown());
    assertThat(c.routingViews()).isNotNull();
    assertThat(c.detourViews()).isNull();
    assertThat(c.detourRouting()).isNull();
  }

  @Test
  void shouldRouteByDetoursWhenARouterNetworkHasFaults() {
    FabricContext plain = context(mesh());
    assertThat(plain.routerRouting()).isNotNull();
    assertThat(plain.router()).isEqualTo(InstallerScenarios.ROUTER);
    assertThat(plain.detourRouting()).isNull();
    FabricContext faulted = context(meshWithNodeDown());
    assertThat(faulted.detourRouting()).isNotNull();
    assertThat(faulted.detourRouting().vcClasses()).isEqualTo(2 * faulted.routerRouting().vcClasses());
    assertThat(faulted.detourViews()).isNotNull();
    assertThat(faulted.routingViews()).isNull();
  }

  @Test
  void shouldRunSyntheticPayloadWithoutAnswersWhenTheRunIsTraffic() {
    FabricContext c = context(meshTraffic(List.of(0.1)));
    assertThat(c.workload().syntheticPayload()).isTrue();
    assertThat(c.answers()).isNull();
    assertThat(c.destinations()).isNotNull();
    // Uniform traffic: every node sends.
    assertThat(c.trafficSendingNodes()).isEqualTo(16);
  }

  @Test
  void shouldTakeTheControllersPoliciesAndEachChangesRoutes() {
    FabricContext delayOnly = context(opticalWithOcs(InstallerScenarios.OCS_DELAY_PS));
    assertThat(delayOnly.ocsCluster()).isNotNull();
    assertThat(delayOnly.ocsPolicies()).hasSize(1);
    assertThat(delayOnly.laterRoutes()).isNull();
    assertThat(delayOnly.laterRoutesAtPs()).isNull();
    FabricContext changes = context(opticalReconfigured());
    assertThat(changes.ocsPolicies()).hasSize(3);
    assertThat(changes.laterRoutes()).hasSize(2);
    assertThat(changes.laterRoutesAtPs()).containsExactly(15 * Units.PS_PER_US, 30 * Units.PS_PER_US);
    assertThat(context(opticalWithOcs(0)).ocsCluster()).isNull();
  }

  @Test
  void shouldRefuseFaultsWithSyntheticTraffic() {
    ScenarioSpec scenario = meshTraffic(List.of(0.1)).withFaults(meshWithNodeDown().faults());
    assertThatThrownBy(() -> context(scenario)).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("faults do not reach synthetic traffic yet");
  }

  @Test
  void shouldRefuseIoNodesOffARouterNetworkOrWithTraffic() {
    ScenarioSpec onLeafSpine = leafSpine().toBuilder().ethernet(InstallerScenarios.ethernet(10, 2)).build();
    assertThatThrownBy(() -> context(onLeafSpine)).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("I/O nodes (ethernet) need a router network (mesh, torus, group-ring) running a workload");
    ScenarioSpec withTraffic = InstallerScenarios.meshWithEthernet(10, 2).toBuilder()
        .traffic(meshTraffic(List.of(0.1)).traffic()).build();
    assertThatThrownBy(() -> context(withTraffic)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("I/O nodes (ethernet) need a router network");
  }

  @Test
  void shouldRefuseAnOcsDelayWithFaults() {
    ScenarioSpec ocs = opticalWithOcs(InstallerScenarios.OCS_DELAY_PS);
    ScenarioSpec faulted = ocs.withFaults(new FaultPlan(InstallerScenarios.SETTINGS, List.of(), true));
    assertThatThrownBy(() -> context(faulted)).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("an OCS reconfiguration delay does not combine with faults yet");
  }

  @Test
  void shouldRefuseDetoursWithoutAMultipleOfTheirClassesOfVirtualChannels() {
    RouterSpec oneVc = new RouterSpec(1_000L, 32, 1, 8, 1, 1, 1, 1, 2, 1, Switching.WORMHOLE);
    ScenarioSpec mesh = meshWithNodeDown();
    ScenarioSpec scenario = mesh.toBuilder().topology(new MeshSpec(4, 4, 1, oneVc.channel()))
        .devices(new DeviceSpec(mesh.devices().host(), mesh.devices().nic(), mesh.devices().switchSpec(), null, oneVc,
            mesh.devices().routerStallLimitPs())).build();
    assertThatThrownBy(() -> context(scenario)).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("faults on a router network need a multiple of 2 virtual channels (1 classes per detour leg), "
            + "got 1");
  }

  @Test
  void shouldRefuseTrafficOffARouterNetworkOrOverSeveralLoads() {
    ScenarioSpec onLeafSpine = leafSpine().withTraffic(meshTraffic(List.of(0.1)).traffic());
    assertThatThrownBy(() -> context(onLeafSpine)).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("synthetic traffic needs a router network (mesh, torus, group-ring), not leaf-spine");
    assertThatThrownBy(() -> context(meshTraffic(List.of(0.1, 0.2)))).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("a traffic run emulates one offered load, got 2 (run each with TrafficSpec.atLoad)");
  }

  @Test
  void shouldRefuseADropOnAMissingLinkOrTwoOnOneLink() {
    ScenarioSpec missing = leafSpine().toBuilder().packetDrops(List.of(new PacketDropSpec(0, 1, 0.1))).build();
    assertThatThrownBy(() -> context(missing)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("there is no link from vertex 0 to vertex 1 in");
    int tor = InstallerScenarios.firstOfTier(leafSpine().topology().build(), Tier.TOR);
    ScenarioSpec twice = leafSpine().toBuilder().packetDrops(List.of(new PacketDropSpec(0, tor, 0.1),
        new PacketDropSpec(0, tor, 0.2))).build();
    assertThatThrownBy(() -> context(twice)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageEndingWith("name the same link");
  }
}
