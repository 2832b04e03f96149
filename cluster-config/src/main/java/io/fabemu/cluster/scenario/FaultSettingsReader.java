package io.fabemu.cluster.scenario;

import com.typesafe.config.ConfigValue;
import com.typesafe.config.ConfigValueType;
import io.fabemu.core.fault.FaultSettings;
import io.fabemu.core.fault.RetransmitTimeout;
import io.fabemu.core.time.Units;

/**
 * The settings of {@code faults} ({@code detection}, {@code management}, {@code transport}, {@code baseline}) read
 * into {@link FaultSettings}, for {@link FaultPlanSection}; each value refused on its own line.
 */
final class FaultSettingsReader {
  private static final String ADAPTIVE = "adaptive";
  private static final String TIMEOUT = "faults.transport.retransmit-timeout";
  private static final String MIN_TIMEOUT = "faults.transport.min-retransmit-timeout";
  private static final String MAX_TIMEOUT = "faults.transport.max-retransmit-timeout";

  private FaultSettingsReader() {}

  static FaultSettings read(ScenarioReader in) {
    return new FaultSettings(
        in.durationPs("faults.detection.heartbeat-period", true),
        in.intValue("faults.detection.misses", 1, ScenarioLoader.MAX_HEARTBEAT_MISSES),
        in.durationPs("faults.management.latency", true),
        in.durationPs("faults.management.update-time", false),
        retransmitTimeout(in),
        in.intValue("faults.transport.max-retransmissions", 0, ScenarioLoader.MAX_RETRANSMISSIONS),
        in.boolValue("faults.baseline"));
  }

  /**
   * {@code faults.transport}'s timeout: {@code retransmit-timeout = adaptive} (the default) estimates it between
   * {@code min-retransmit-timeout} and {@code max-retransmit-timeout}; a duration there fixes it. The bounds are
   * checked either way (a fixed timeout leaves them unused, not unread).
   */
  private static RetransmitTimeout retransmitTimeout(ScenarioReader in) {
    long minPs = in.durationPs(MIN_TIMEOUT, true);
    long maxPs = in.durationPs(MAX_TIMEOUT, true);
    if (maxPs < minPs) {
      throw in.error(MAX_TIMEOUT, in.value(MAX_TIMEOUT),
          "must be at least min-retransmit-timeout (" + Units.format(minPs) + ")");
    }
    ConfigValue v = in.value(TIMEOUT);
    if (v.valueType() == ConfigValueType.STRING) {
      String text = ((String) v.unwrapped()).strip();
      if (ADAPTIVE.equals(text)) return new RetransmitTimeout.Adaptive(minPs, maxPs);
      // A word that is not 'adaptive' (a duration starts with a digit): say what is expected, not "no unit".
      if (text.matches("[A-Za-z].*")) {
        throw in.error(TIMEOUT, v, "expected '" + ADAPTIVE + "' or a duration such as 1 ms");
      }
    }
    return new RetransmitTimeout.Fixed(in.durationPs(TIMEOUT, true));
  }
}
