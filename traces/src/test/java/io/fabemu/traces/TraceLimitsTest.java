package io.fabemu.traces;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class TraceLimitsTest {

  @Test
  void shouldHoldTheNamedDefaults() {
    assertThat(TraceLimits.DEFAULTS).isEqualTo(new TraceLimits(1 << 20, 1 << 22, 1 << 16, 1024, 4096, 2L << 30));
  }

  @Test
  void shouldRefuseALimitThatIsNotPositive() {
    assertThatThrownBy(() -> new TraceLimits(0, 1, 1, 1, 1, 1)).hasMessageContaining("maxMessageBytes");
    assertThatThrownBy(() -> new TraceLimits(1, 1, 1, 1, 1, -5)).hasMessageContaining("maxFileBytes must be positive");
  }
}
