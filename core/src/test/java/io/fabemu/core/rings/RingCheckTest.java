package io.fabemu.core.rings;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabemu.core.topology.LinkSpec;
import io.fabemu.core.topology.Topologies;
import java.util.List;
import org.junit.jupiter.api.Test;

class RingCheckTest {

  private static final HostGraph RING4 = HostGraph.of(Topologies.ring(4, new LinkSpec(1_000_000_000L, 1_000)));

  @Test
  void shouldRefuseARingThatMissesAHost() {
    RingCheck.Result r = RingCheck.check(RING4, List.of(List.of(0, 1, 2)));
    assertThat(r.valid()).isFalse();
    assertThat(r.errors()).containsExactly("ring 0 has 3 hosts, but a ring must visit all 4 hosts once");
  }

  @Test
  void shouldRefuseARingThatVisitsAHostTwice() {
    assertThat(RingCheck.check(RING4, List.of(List.of(0, 1, 0, 3))).errors())
        .containsExactly("ring 0 visits host 0 twice");
  }

  @Test
  void shouldRefuseAHopWithoutALink() {
    assertThat(RingCheck.check(RING4, List.of(List.of(0, 1, 3, 2))).errors())
        .containsExactly("ring 0 hops from host 1 to host 3, which no link joins");
  }

  @Test
  void shouldRefuseAHostOutsideTheTopology() {
    assertThat(RingCheck.check(RING4, List.of(List.of(0, 1, 2, 7))).errors())
        .containsExactly("ring 0 names host 7, not in 0..3");
  }

  @Test
  void shouldWarnWithTheSharingCountWhenTwoRingsUseOneArc() {
    RingCheck.Result r = RingCheck.check(RING4, List.of(List.of(0, 1, 2, 3), List.of(1, 2, 3, 0)));
    assertThat(r.valid()).isTrue();
    assertThat(r.arcDisjoint()).isFalse();
    assertThat(r.sharedArcs()).isEqualTo(4);
    assertThat(r.maxSharing()).isEqualTo(2);
    assertThat(r.warnings()).first().isEqualTo("host 0 -> host 1 is used by 2 rings [0, 1] but has 1 link: up to 2"
        + " rings share one link's bandwidth");
  }

  @Test
  void shouldAcceptBothDirectionsAsArcDisjoint() {
    RingCheck.Result r = RingCheck.check(RING4, List.of(List.of(0, 1, 2, 3), List.of(0, 3, 2, 1)));
    assertThat(r.arcDisjoint()).isTrue();
    assertThat(r.warnings()).isEmpty();
  }
}
