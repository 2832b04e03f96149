package io.fabemu.nic;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabemu.core.routing.RoutingTable;
import io.fabemu.core.topology.Topology;
import org.junit.jupiter.api.Test;

class NicBuilderTest {

  /** A feature that claims nothing and says when it was built. */
  private static final class Marker implements NicExtension {
    Marker(StringBuilder order, String name) {
      order.append(name);
    }

    @Override
    public void claim(NicClaims claims) {}
  }

  @Test
  void shouldGiveALinkPortUnlessARouterNetworkIsNamed() {
    assertThat(NicFixtures.onLine(0).build().port()).isInstanceOf(LinkNicPort.class);
    assertThat(NicFixtures.onMesh(0).build().port()).isInstanceOf(RouterNicPort.class);
  }

  @Test
  void shouldBuildTheFeaturesInTheOrderTheyWereAdded() {
    StringBuilder order = new StringBuilder();
    NicCore nic = NicFixtures.onLine(0)
        .extension(services -> new Marker(order, "a"))
        .extension(services -> new Marker(order, "b"))
        .build();
    assertThat(order).hasToString("ab");
    assertThat(nic.extension(Marker.class)).isPresent();
  }

  @Test
  void shouldRefuseAnElementSizeBelowOneByte() {
    Topology topology = NicFixtures.line();
    NicBuilder builder = NicCore.builder(0, 2, topology, RoutingTable.compute(topology), NicFixtures.NIC,
        NicFixtures.PCIE, 0);
    assertThatThrownBy(builder::build).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("element size must be at least 1 B, got 0");
  }
}
