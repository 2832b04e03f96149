package io.fabemu.cluster;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import java.time.Duration;

/**
 * The settings of a member that stays a cluster of one (every run without {@code --members}): it has no other member
 * to watch, so it runs without the failure detector's heartbeats. Pekko's heartbeat sender ticks every
 * {@code pekko.cluster.failure-detector.heartbeat-interval} even with no one to send to, and a tick delayed by twice
 * that (a busy machine, a long collection) logs the {@code pekkoHeartbeatStarvation} warning that "may cause failure
 * detection to mark members as unreachable", which for a member alone is noise. Pekko has no switch for the
 * heartbeats; an interval of {@link #HEARTBEAT_INTERVAL} puts the first tick past any run.
 *
 * <p>Contract: these settings are defaults under the caller's and the {@code -D} settings (which still win) and over
 * {@code fabemu-cluster.conf}. Members that others join (the {@code --members} and {@code member} commands, tests
 * with several members) never get them: their failure detection is unchanged.
 */
final class SingleMemberSettings {
  /** The heartbeat interval of a member alone: longer than any run. */
  static final Duration HEARTBEAT_INTERVAL = Duration.ofDays(1);

  /** Pekko's setting of the failure detector's heartbeat interval. */
  static final String HEARTBEAT_INTERVAL_PATH = "pekko.cluster.failure-detector.heartbeat-interval";

  private SingleMemberSettings() {}

  /** The settings, as a layer to put between the {@code -D} settings and fabemu's file. */
  static Config config() {
    return ConfigFactory.parseString(HEARTBEAT_INTERVAL_PATH + " = " + HEARTBEAT_INTERVAL.toDays() + "d");
  }
}
