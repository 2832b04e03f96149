package io.fabemu.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.OptionalInt;
import org.junit.jupiter.api.Test;

/** {@code fabemu.aeron.idle-cpu-level}: auto picks level 1 on small machines only; a number is taken as is. */
class AeronIdleCpuLevelTest {

  @Test
  void shouldPickLevelOneOnSmallMachinesAndKeepPekkosDefaultOnLargerOnes() {
    assertThat(EmbeddedCluster.aeronIdleCpuLevel("auto", 1)).hasValue(1);
    assertThat(EmbeddedCluster.aeronIdleCpuLevel("auto", 2)).hasValue(1);
    assertThat(EmbeddedCluster.aeronIdleCpuLevel("auto", EmbeddedCluster.FEW_CORES)).hasValue(1);
    assertThat(EmbeddedCluster.aeronIdleCpuLevel(" auto ", EmbeddedCluster.FEW_CORES + 1)).isEmpty();
    assertThat(EmbeddedCluster.aeronIdleCpuLevel("auto", 64)).isEqualTo(OptionalInt.empty());
  }

  @Test
  void shouldTakeAnExplicitLevelWhateverTheCores() {
    assertThat(EmbeddedCluster.aeronIdleCpuLevel("1", 64)).hasValue(1);
    assertThat(EmbeddedCluster.aeronIdleCpuLevel("10", 2)).hasValue(10);
  }

  @Test
  void shouldRejectAnythingElseNamingTheSetting() {
    for (String bad : new String[] {"0", "11", "-1", "fast", "", "1.5"}) {
      assertThatThrownBy(() -> EmbeddedCluster.aeronIdleCpuLevel(bad, 2))
          .as("'%s'", bad)
          .isInstanceOf(ClusterStartException.class)
          .hasMessageContaining("fabemu.aeron.idle-cpu-level = '" + bad + "'")
          .hasMessageContaining("auto or a number from 1 to 10");
    }
  }
}
