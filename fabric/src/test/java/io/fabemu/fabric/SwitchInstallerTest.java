package io.fabemu.fabric;

import static io.fabemu.fabric.InstallerScenarios.context;
import static io.fabemu.fabric.InstallerScenarios.slots;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabemu.collectives.Algorithm;
import io.fabemu.core.data.DataType;
import io.fabemu.core.data.ReduceOp;
import io.fabemu.core.sim.DeviceCore;
import io.fabemu.core.topology.Topology;
import io.fabemu.core.topology.Topology.Tier;
import io.fabemu.switching.SwitchCore;
import io.fabemu.switching.inc.IncSwitchSpec;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class SwitchInstallerTest {

  private final SwitchInstaller installer = new SwitchInstaller();

  @Test
  void shouldPutASwitchAtEverySwitchVertexOffARouterNetwork() {
    FabricContext c = context(InstallerScenarios.leafSpineWithLinkDown());
    DeviceCore[] devices = slots(c);
    installer.install(c, devices);
    // 8 hosts: NICs 0..7, switches 8..11, compute nodes 12..19, the management node 20.
    for (int id = 0; id < devices.length; id++) {
      if (id >= 8 && id < 12) {
        assertThat(devices[id]).isInstanceOf(SwitchCore.class);
        assertThat(devices[id].deviceId()).isEqualTo(id);
      } else {
        assertThat(devices[id]).as("id %d", id).isNull();
      }
    }
  }

  @Test
  void shouldGiveEachSwitchTheIncUnitOfItsTierUnlessListedWithout() {
    ScenarioSpec scenario = IncAllreduceTest.scenario(8, 4, 1, 1, List.of(Algorithm.INC_NODE), List.of(1024L),
        DataType.INT32, ReduceOp.SUM, null);
    Topology topology = scenario.topology().build();
    int tor = InstallerScenarios.firstOfTier(topology, Tier.TOR);
    int spine = InstallerScenarios.firstOfTier(topology, Tier.SPINE);
    IncSwitchSpec unit = new IncSwitchSpec(400_000L, 0, 64, 8, 256, 256, EnumSet.of(ReduceOp.SUM),
        EnumSet.of(DataType.INT32));
    ScenarioSpec inc = IncAllreduceTest.scenario(8, 4, 1, 1, List.of(Algorithm.INC_NODE), List.of(1024L),
        DataType.INT32, ReduceOp.SUM, IncAllreduceTest.inc(unit, null, Set.of(tor + 1)));
    FabricContext c = context(inc);
    DeviceCore[] devices = slots(c);
    installer.install(c, devices);
    assertThat(((SwitchCore) devices[tor]).incUnit()).isNotNull();
    assertThat(topology.tier(tor + 1)).isEqualTo(Tier.TOR);
    assertThat(((SwitchCore) devices[tor + 1]).incUnit()).as("listed without").isNull();
    assertThat(((SwitchCore) devices[spine]).incUnit()).as("SPINEs have none").isNull();
  }

  @Test
  void shouldInstallNothingOnARouterNetwork() {
    FabricContext c = context(InstallerScenarios.mesh());
    DeviceCore[] devices = slots(c);
    installer.install(c, devices);
    assertThat(devices).containsOnlyNulls();
  }
}
