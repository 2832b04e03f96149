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
  void shouldStretchTheHeartbeatIntervalPastAnyRunWhenTheMemberStaysAlone() throws InterruptedException {
    try (EmbeddedCluster member = EmbeddedCluster.startAlone()) {
      assertThat(heartbeatInterval(member)).isEqualTo(SingleMemberSettings.HEARTBEAT_INTERVAL);
      // start returns at the typed SelfUp; the classic state view that upMembers reads follows a moment later
      assertThat(upMembersWithin(member, Duration.ofSeconds(10))).isEqualTo(1);
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

  /** The members Up once there is one, waiting at most {@code limit} for the state view to catch up. */
  private static int upMembersWithin(EmbeddedCluster member, Duration limit) throws InterruptedException {
    long deadline = System.nanoTime() + limit.toNanos();
    while (member.upMembers() == 0 && System.nanoTime() < deadline) Thread.sleep(20);
    return member.upMembers();
  }

  private static Duration heartbeatInterval(EmbeddedCluster member) {
    return Duration.ofNanos(Cluster.get(member.system().classicSystem()).settings().HeartbeatInterval().toNanos());
  }
}
