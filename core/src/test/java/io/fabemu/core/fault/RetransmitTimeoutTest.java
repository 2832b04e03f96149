package io.fabemu.core.fault;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The retransmit timeouts' waits (fixed and adaptive), their bounds and descriptions, and the fault plan's baseline.
 */
class RetransmitTimeoutTest {
  private static final long US = 1_000_000L;

  @Test
  void aFixedTimeoutIgnoresTheEstimateAndDoublesPerAttemptUpToSixtyFourTimes() {
    RetransmitTimeout fixed = new RetransmitTimeout.Fixed(50 * US);
    assertThat(fixed.waitPs(999 * US, 0)).isEqualTo(50 * US);
    assertThat(fixed.waitPs(0, 1)).isEqualTo(100 * US);
    assertThat(fixed.waitPs(0, 6)).isEqualTo(64 * 50 * US);
    assertThat(fixed.waitPs(0, 1000)).isEqualTo(64 * 50 * US);
    assertThat(fixed.describe()).isEqualTo("50 us");
  }

  @Test
  void anAdaptiveTimeoutClampsTheEstimateToItsBoundsAndDoublesUpToTheMaximum() {
    RetransmitTimeout adaptive = new RetransmitTimeout.Adaptive(10 * US, 10_000 * US);
    assertThat(adaptive.waitPs(0, 0)).as("no estimate yet: the minimum").isEqualTo(10 * US);
    assertThat(adaptive.waitPs(3 * US, 0)).isEqualTo(10 * US);
    assertThat(adaptive.waitPs(123 * US, 0)).isEqualTo(123 * US);
    assertThat(adaptive.waitPs(123 * US, 3)).isEqualTo(8 * 123 * US);
    assertThat(adaptive.waitPs(123 * US, 7)).isEqualTo(10_000 * US);
    assertThat(adaptive.waitPs(50_000 * US, 0)).isEqualTo(10_000 * US);
    // Far past any shift a long can take, still the maximum.
    assertThat(adaptive.waitPs(123 * US, 70)).isEqualTo(10_000 * US);
    assertThat(adaptive.describe()).isEqualTo("adaptive, 10 us to 10 ms");
    assertThat(RetransmitTimeout.DEFAULT).isEqualTo(adaptive);
  }

  @Test
  void refusesBoundsThatCannotHold() {
    assertThatThrownBy(() -> new RetransmitTimeout.Fixed(0)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new RetransmitTimeout.Adaptive(0, 1)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new RetransmitTimeout.Adaptive(2 * US, US)).isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void theBaselineOfAFaultedPlanKeepsItsMachineryButNoEvents() {
    FaultPlan plan = new FaultPlan(FaultSettings.DEFAULTS,
        List.of(FaultEvent.link(40 * US, FaultAction.DOWN, "link host0-tor0", 0, 4)));
    assertThat(plan.isActive()).isTrue();
    FaultPlan baseline = plan.withoutEvents();
    assertThat(baseline.isEmpty()).isTrue();
    assertThat(baseline.isActive()).as("acknowledgements and resends as in the faulted run").isTrue();
    assertThat(baseline.settings()).isEqualTo(plan.settings());
    assertThat(FaultPlan.NONE.isActive()).isFalse();
    assertThatThrownBy(() -> new FaultPlan(FaultSettings.DEFAULTS, plan.events(), false))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
