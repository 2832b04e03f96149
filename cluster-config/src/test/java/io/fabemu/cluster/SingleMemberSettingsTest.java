package io.fabemu.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import com.typesafe.config.ConfigFactory;
import java.time.Duration;
import org.apache.pekko.cluster.Cluster;
import org.junit.jupiter.api.Test;

/**
 * A member alone runs without failure-detector heartbeats (so a busy machine prints no warning about them); a member
 * that others may join keeps Pekko's interval. Read back from the running member's cluster settings, which is what
 * Pekko's heartbeat sender schedules its ticks by.
 */
class SingleMemberSettingsTest {

  @Test
  void shouldStretchTheHeartbeatIntervalPastAnyRunWhenTheMemberStaysAlone() {
    try (EmbeddedCluster member = EmbeddedCluster.startAlone()) {
      assertThat(heartbeatInterval(member)).isEqualTo(SingleMemberSettings.HEARTBEAT_INTERVAL);
      assertThat(member.upMembers()).isEqualTo(1);
    }
  }

  @Test
  void shouldKeepPekkosHeartbeatIntervalWhenOtherMembersMayJoin() {
    try (EmbeddedCluster member = EmbeddedCluster.start(ConfigFactory.empty())) {
      assertThat(heartbeatInterval(member)).isEqualTo(Duration.ofSeconds(1));
    }
  }

  @Test
  void shouldLetTheCallersSettingWinOverTheSingleMemberDefault() {
    assertThat(SingleMemberSettings.config().getDuration(SingleMemberSettings.HEARTBEAT_INTERVAL_PATH))
        .isEqualTo(Duration.ofDays(1));
    System.setProperty(SingleMemberSettings.HEARTBEAT_INTERVAL_PATH, "2s");
    ConfigFactory.invalidateCaches();
    try (EmbeddedCluster member = EmbeddedCluster.startAlone()) {
      assertThat(heartbeatInterval(member)).isEqualTo(Duration.ofSeconds(2));
    } finally {
      System.clearProperty(SingleMemberSettings.HEARTBEAT_INTERVAL_PATH);
      ConfigFactory.invalidateCaches();
    }
  }

  private static Duration heartbeatInterval(EmbeddedCluster member) {
    return Duration.ofNanos(Cluster.get(member.system().classicSystem()).settings().HeartbeatInterval().toNanos());
  }
}
