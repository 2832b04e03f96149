package io.fabemu.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
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

  @Test
  void shouldLeaveAnExplicitPekkoSettingAloneButStillCheckOurs() {
    Config auto = ConfigFactory.parseString("fabemu.aeron.idle-cpu-level = auto");
    Config explicit = ConfigFactory.parseString(EmbeddedCluster.AERON_IDLE_PATH + " = 7");

    assertThat(EmbeddedCluster.aeronIdleCpuLevel(ConfigFactory.empty(), auto, 2)).hasValue(1);
    assertThat(EmbeddedCluster.aeronIdleCpuLevel(explicit, auto, 2)).as("the user's Pekko setting wins").isEmpty();
    assertThat(EmbeddedCluster.aeronIdleCpuLevel(ConfigFactory.empty(),
        ConfigFactory.parseString("fabemu.aeron.idle-cpu-level = 3"), 64)).hasValue(3);
    assertThatThrownBy(() -> EmbeddedCluster.aeronIdleCpuLevel(explicit,
        ConfigFactory.parseString("fabemu.aeron.idle-cpu-level = busy"), 2))
        .isInstanceOf(ClusterStartException.class).hasMessageContaining("'busy'");
  }
}
