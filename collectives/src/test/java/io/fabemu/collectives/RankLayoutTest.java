package io.fabemu.collectives;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** A layout's server: the fabric's, or a compute node's ranks when the fabric has none. */
class RankLayoutTest {

  @Test
  void shouldTakeTheFabricsServerAndFallBackToTheNodesRanks() {
    assertThat(new RankLayout(null, null, null, 16).ranksPerServer(2)).isEqualTo(16);
    assertThat(RankLayout.NONE.ranksPerServer(4)).isEqualTo(4);
    assertThat(new RankLayout(null, null).ranksPerServer(3)).isEqualTo(3);
  }

  @Test
  void shouldRefuseANegativeServer() {
    assertThatThrownBy(() -> new RankLayout(null, null, null, -1)).isInstanceOf(IllegalArgumentException.class);
  }
}
