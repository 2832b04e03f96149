package io.fabemu.core.rings;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabemu.core.topology.LinkSpec;
import io.fabemu.core.topology.PrismSpec;
import io.fabemu.core.topology.Topologies;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The exhaustive table of docs/prism.md ("How many rings"), small cases. */
class RingSearchTest {

  private static final LinkSpec LINK = new LinkSpec(1_000_000_000L, 1_000);
  private static final long STEPS = 10_000_000;

  @ParameterizedTest
  @CsvSource({"3, 2, 6", "3, 3, 6", "3, 4, 6", "4, 2, 8", "4, 3, 8", "5, 2, 6", "5, 3, 8", "6, 2, 8"})
  void shouldFindTheMaximumNumberOfArcDisjointRingsWhenThePrismIsSmall(int perLayer, int layers, int maximum) {
    HostGraph g = HostGraph.of(new PrismSpec(perLayer, layers, LINK, LINK).build());
    RingSearch.Result r = RingSearch.search(g, 99, STEPS);
    assertThat(r.exhaustive()).isTrue();
    assertThat(r.rings()).hasSize(maximum);
    RingCheck.Result check = RingCheck.check(g, r.rings());
    assertThat(check.arcDisjoint()).isTrue();
  }

  @Test
  void shouldProveThatTheTriangularPrismHasNoSeventhRing() {
    HostGraph g = HostGraph.of(new PrismSpec(3, 2, LINK, LINK).build());
    RingSearch.Result r = RingSearch.search(g, 99, STEPS);
    assertThat(r.upperBound()).isEqualTo(8);
    assertThat(r.message()).isEqualTo("6 arc-disjoint directed Hamiltonian rings (the maximum: every set was tried in "
        + r.steps() + " steps)");
  }

  @Test
  void shouldStopAtTheUpperBoundWhenReached() {
    HostGraph g = HostGraph.of(Topologies.ring(5, LINK));
    RingSearch.Result r = RingSearch.search(g, 99, STEPS);
    assertThat(r.rings()).hasSize(2);
    assertThat(r.exhaustive()).isTrue();
    assertThat(r.message()).isEqualTo("2 arc-disjoint directed Hamiltonian rings (the upper bound: the fewest links"
        + " leaving a host)");
  }

  @Test
  void shouldSayNoneExistsWhenTheGraphHasNoHamiltonianRing() {
    RingSearch.Result r = RingSearch.search(HostGraph.of(Topologies.line(4, LINK)), 99, STEPS);
    assertThat(r.rings()).isEmpty();
    assertThat(r.exhaustive()).isTrue();
    assertThat(r.message()).startsWith("no directed Hamiltonian ring exists on this topology");
  }

  @Test
  void shouldSayTheLimitEndedTheSearchWhenStepsRunOut() {
    HostGraph g = HostGraph.of(new PrismSpec(3, 4, LINK, LINK).build());
    RingSearch.Result r = RingSearch.search(g, 99, 5);
    assertThat(r.exhaustive()).isFalse();
    assertThat(r.rings()).isEmpty();
    assertThat(r.message()).isEqualTo("no directed Hamiltonian ring found within the step limit (5 steps); list the"
        + " rings in the scenario or raise the limit");
  }

  @Test
  void shouldFindNoRingOnALeafSpineWhoseHostsHaveNoDirectLinks() {
    HostGraph g = HostGraph.of(Topologies.leafSpine(4, 2, 1, LINK, LINK));
    RingSearch.Result r = RingSearch.search(g, 99, STEPS);
    assertThat(r.rings()).isEmpty();
    assertThat(r.upperBound()).isZero();
  }
}
