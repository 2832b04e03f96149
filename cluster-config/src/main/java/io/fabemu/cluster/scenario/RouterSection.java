package io.fabemu.cluster.scenario;

import com.typesafe.config.ConfigValue;
import io.fabemu.core.router.RouterSpec;
import io.fabemu.core.router.Switching;
import java.math.BigDecimal;
import java.math.MathContext;
import java.util.Arrays;

/**
 * {@code devices.router}: the router in every node of a router network (mesh, torus, group-ring), read into a
 * {@link RouterSpec}, and the network's deadlock watchdog ({@code stall-limit}).
 *
 * <p>Contract: the values are read whatever the topology (they are the defaults' unless the user wrote them, which
 * {@link DevicesSection} allows only on a router network), so the topology section can build a router network's
 * channels ({@link RouterSpec#channel()}) before the devices section runs; reading twice gives equal results. Every
 * value is checked for type, unit and range, and together they must keep a hop and a channel inside the loader's
 * limits: a head flit's hop and a credit's return at most {@link ScenarioLoader#MAX_DURATION_PS}, a channel at most
 * {@link ScenarioLoader#MAX_RATE_BITS_PER_SECOND}, and the stall limit at least one hop and its credit's return.
 */
final class RouterSection {
  private static final String PATH = "devices.router.";

  private RouterSection() {}

  /** The router, checked. */
  static RouterSpec spec(ScenarioReader in) {
    long cyclePs = in.clockCyclePs(PATH + "clock");
    int flitBytes = (int) in.sizeBytes(PATH + "flit-bytes", 1, ScenarioLoader.MAX_FLIT_BYTES);
    int virtualChannels = in.intValue(PATH + "virtual-channels", 1, ScenarioLoader.MAX_VIRTUAL_CHANNELS);
    int bufferDepthFlits = in.intValue(PATH + "buffer-depth", 1, ScenarioLoader.MAX_BUFFER_DEPTH_FLITS);
    int routing = cycles(in, "routing-cycles", 0);
    int vcAllocation = cycles(in, "vc-allocation-cycles", 0);
    int switchAllocation = cycles(in, "switch-allocation-cycles", 0);
    int traversal = cycles(in, "traversal-cycles", 0);
    // At least 1: a channel's latency and a credit's delay are what lets the engine run devices apart.
    int linkLatency = cycles(in, "link-latency-cycles", 1);
    int creditDelay = cycles(in, "credit-delay-cycles", 1);
    Switching switching = in.enumValue(PATH + "switching", Switching::fromConfigName,
        Arrays.stream(Switching.values()).map(Switching::configName).toList());
    RouterSpec spec = new RouterSpec(cyclePs, flitBytes, virtualChannels, bufferDepthFlits, routing, vcAllocation,
        switchAllocation, traversal, linkLatency, creditDelay, switching);
    checkHop(in, spec);
    checkChannelRate(in, spec);
    return spec;
  }

  /** The stall limit in picoseconds, checked against the router {@link #spec} gives. */
  static long stallLimitPs(ScenarioReader in) {
    RouterSpec spec = spec(in);
    String path = PATH + "stall-limit";
    long stallLimitPs = in.durationPs(path, true);
    // No flit need move for one hop plus its credit's return even in a healthy network: a shorter watchdog would
    // stop runs that are merely busy.
    long roundTripCycles = (long) spec.routerCycles() + spec.linkLatencyCycles() + spec.creditDelayCycles();
    long roundTripPs = roundTripCycles * spec.cyclePs();
    if (stallLimitPs < roundTripPs) {
      ConfigValue v = in.value(path);
      throw in.error(path, v, "'" + ScenarioReader.text(v) + "' is shorter than one hop and its credit's return ("
          + roundTripCycles + " cycles = " + Quantities.formatDuration(roundTripPs) + "), in which even a healthy "
          + "network may move no flit");
    }
    return stallLimitPs;
  }

  private static int cycles(ScenarioReader in, String key, int min) {
    return in.intValue(PATH + key, min, ScenarioLoader.MAX_ROUTER_CYCLES);
  }

  /** A head flit's hop and a credit's return stay within every duration's limit (a slow clock could break it). */
  private static void checkHop(ScenarioReader in, RouterSpec spec) {
    // At most 5 x 2^20 cycles of at most 1e12 ps: inside a long.
    long hopCycles = (long) spec.routerCycles() + spec.linkLatencyCycles();
    long longestCycles = Math.max(hopCycles, spec.creditDelayCycles());
    long longestPs = longestCycles * spec.cyclePs();
    if (longestPs > ScenarioLoader.MAX_DURATION_PS) {
      String what = longestCycles == hopCycles
          ? "a head flit's hop (routing + vc-allocation + switch-allocation + traversal + link-latency cycles)"
          : "a credit's return (credit-delay-cycles)";
      ConfigValue v = in.value(PATH + "clock");
      throw in.error(PATH + "clock", v, "at '" + ScenarioReader.text(v) + "' " + what + " of " + longestCycles
          + " cycles takes " + Quantities.formatDuration(longestPs) + ", above the limit of 1 s (every duration is "
          + "at most 1 s)");
    }
  }

  /** A channel moves one flit per cycle; its rate must stay within every rate's limit. */
  private static void checkChannelRate(ScenarioReader in, RouterSpec spec) {
    // At most 2^19 bits x 1e12: inside a long.
    long bitsPerSecond = spec.channel().bandwidthBitsPerSecond();
    if (bitsPerSecond > ScenarioLoader.MAX_RATE_BITS_PER_SECOND) {
      ConfigValue v = in.value(PATH + "flit-bytes");
      throw in.error(PATH + "flit-bytes", v, "'" + ScenarioReader.text(v) + "' per cycle at '"
          + ScenarioReader.text(in.value(PATH + "clock")) + "' makes channels of "
          + fewDigits(BigDecimal.valueOf(bitsPerSecond).movePointLeft(12)) + " Tbps, above the limit of 10 Tbps");
    }
  }

  private static String fewDigits(BigDecimal value) {
    return value.round(new MathContext(4)).stripTrailingZeros().toPlainString();
  }
}
