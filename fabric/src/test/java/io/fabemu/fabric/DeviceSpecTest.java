package io.fabemu.fabric;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabemu.core.link.ForwardingMode;
import io.fabemu.core.router.RouterSpec;
import io.fabemu.core.router.Switching;
import io.fabemu.nic.NicSpec;
import io.fabemu.switching.SwitchSpec;
import org.junit.jupiter.api.Test;

class DeviceSpecTest {
  private static final NicSpec NIC = new NicSpec(4096, 64, 100_000L, 100_000L);
  private static final SwitchSpec SWITCH = new SwitchSpec(600_000L, ForwardingMode.CUT_THROUGH);

  @Test
  void shouldGiveTheDefaultRouterWhenBuiltWithoutOne() {
    DeviceSpec devices = new DeviceSpec(TestScenarios.SERVER_HOST, NIC, SWITCH);

    assertThat(devices.router()).isEqualTo(new RouterSpec(1_000L, 16, 2, 8, 1, 1, 1, 1, 1, 1, Switching.WORMHOLE));
    assertThat(devices.routerStallLimitPs()).isEqualTo(1_000_000_000L);
    assertThat(devices.inc()).isNull();
    assertThat(new DeviceSpec(TestScenarios.SERVER_HOST, NIC, SWITCH, null)).isEqualTo(devices);
  }

  @Test
  void shouldKeepTheRouterAndStallLimitWhenGiven() {
    RouterSpec router = new RouterSpec(400L, 32, 4, 16, 2, 0, 1, 1, 3, 2, Switching.STORE_AND_FORWARD);

    DeviceSpec devices = new DeviceSpec(TestScenarios.SERVER_HOST, NIC, SWITCH, null, router, 50_000_000L);

    assertThat(devices.router()).isSameAs(router);
    assertThat(devices.routerStallLimitPs()).isEqualTo(50_000_000L);
  }

  @Test
  void shouldRejectAMissingRouterOrANonPositiveStallLimit() {
    assertThatThrownBy(() -> new DeviceSpec(TestScenarios.SERVER_HOST, NIC, SWITCH, null, null, 1L))
        .isInstanceOf(IllegalArgumentException.class).hasMessage("devices need a router spec, got none");
    assertThatThrownBy(() -> new DeviceSpec(TestScenarios.SERVER_HOST, NIC, SWITCH, null, DeviceSpec.DEFAULT_ROUTER,
        0L)).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("routerStallLimitPs must be greater than 0, got 0");
  }
}
