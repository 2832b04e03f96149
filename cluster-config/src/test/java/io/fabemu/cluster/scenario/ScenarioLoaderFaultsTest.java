package io.fabemu.cluster.scenario;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import com.typesafe.config.ConfigFactory;
import com.typesafe.config.ConfigObject;
import com.typesafe.config.ConfigRenderOptions;
import com.typesafe.config.ConfigValueFactory;
import io.fabemu.core.fault.FaultAction;
import io.fabemu.core.fault.FaultEvent;
import io.fabemu.core.fault.FaultPlan;
import io.fabemu.core.fault.FaultSettings;
import io.fabemu.core.fault.RetransmitTimeout;
import io.fabemu.core.protocol.DirectedLink;
import io.fabemu.fabric.ScenarioSpec;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.assertj.core.api.AbstractThrowableAssert;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The fault plan keys of {@code faults} (settings and events), their errors, and events appended by the CLI. Past 500
 * lines: one test per key and per way it can be wrong, over the one scenario its fixtures write.
 */
class ScenarioLoaderFaultsTest {
  /** 4 hosts, 2 per TOR: host0-3 (vertices 0-3), tor0-1 (4-5), spine0-1 (6-7). */
  private static final String FABRIC = "topology { hosts = 4, hosts-per-tor = 2, spines = 2 }\n";
  private static final int TOR0 = 4;
  private static final int TOR1 = 5;
  private static final int SPINE0 = 6;
  private static final int SPINE1 = 7;
  private static final long US = 1_000_000L;

  private static ScenarioSpec load(String text) {
    return ScenarioLoader.parse(text, "x.conf").spec();
  }

  private static List<FaultEvent> events(String eventList) {
    return load(FABRIC + "faults.events = " + eventList).faults().events();
  }

  private static AbstractThrowableAssert<?, ? extends Throwable> assertError(String text) {
    return assertThatThrownBy(() -> ScenarioLoader.parse(text, "x.conf")).isInstanceOf(ScenarioException.class);
  }

  private static DirectedLink link(int from, int to) {
    return new DirectedLink(from, to);
  }

  // ------------------------------------------------------------------------------ settings

  @Test
  void shouldGiveTheFaultSettingsDefaultsAndAnEmptyPlanWhenNothingIsWritten() {
    FaultPlan plan = load("").faults();
    assertThat(plan.settings()).isEqualTo(FaultSettings.DEFAULTS);
    assertThat(plan.isEmpty()).isTrue();
    assertThat(plan).isEqualTo(FaultPlan.NONE);
    assertThat(load("").hasFaults()).isFalse();
  }

  @Test
  void shouldReadEverySettingKey() {
    FaultSettings settings = load("""
        faults {
          detection { heartbeat-period = 2 us, misses = 5 }
          management { latency = 3 us, update-time = 250 ns }
          transport { retransmit-timeout = 80 us, max-retransmissions = 4 }
        }
        """).faults().settings();
    assertThat(settings).isEqualTo(new FaultSettings(2 * US, 5, 3 * US, 250_000L, 80 * US, 4));
    assertThat(settings.baseline()).isTrue();
  }

  @Test
  void shouldReadTheAdaptiveTimeoutAndItsBoundsByDefaultAndWhenGiven() {
    assertThat(load("").faults().settings().retransmitTimeout())
        .isEqualTo(new RetransmitTimeout.Adaptive(10 * US, 10_000 * US));
    assertThat(load("faults.transport { retransmit-timeout = adaptive, min-retransmit-timeout = 50 us, "
        + "max-retransmit-timeout = 2 ms }").faults().settings().retransmitTimeout())
        .isEqualTo(new RetransmitTimeout.Adaptive(50 * US, 2_000 * US));
    // A fixed timeout leaves the bounds unused.
    assertThat(load("faults.transport.retransmit-timeout = 1 ms").faults().settings().retransmitTimeout())
        .isEqualTo(new RetransmitTimeout.Fixed(1_000 * US));
  }

  @Test
  void shouldRefuseATimeoutThatIsNeitherAdaptiveNorADurationAndBoundsTheWrongWayRound() {
    assertError("\nfaults.transport.retransmit-timeout = adaptve").hasMessage("x.conf:2: "
        + "faults.transport.retransmit-timeout: expected 'adaptive' or a duration such as 1 ms");
    assertError("faults.transport.retransmit-timeout = 0 us")
        .hasMessage("x.conf:1: faults.transport.retransmit-timeout: must be greater than 0");
    assertError("faults.transport { min-retransmit-timeout = 2 ms\nmax-retransmit-timeout = 1 ms }")
        .hasMessage("x.conf:2: faults.transport.max-retransmit-timeout: must be at least min-retransmit-timeout "
            + "(2 ms)");
    assertError("faults.transport.min-retransmit-timeout = 0 us")
        .hasMessage("x.conf:1: faults.transport.min-retransmit-timeout: must be greater than 0");
  }

  @Test
  void shouldSkipTheBaselineRunWhenAsked() {
    ScenarioSpec spec = load(FABRIC + "faults { baseline = false, events = [{ at = 1 us, action = down, "
        + "switch = spine0 }] }");
    assertThat(spec.faults().settings().baseline()).isFalse();
    assertThat(spec.hasFaults()).isTrue();
    assertThat(spec.runsBaseline()).isFalse();
    assertThat(load(FABRIC + "faults.events = [{ at = 1 us, action = down, switch = spine0 }]").runsBaseline())
        .isTrue();
    assertError("\nfaults.baseline = sometimes").hasMessageStartingWith("x.conf:2: faults.baseline: ");
    assertError("faults.basline = false").hasMessage("x.conf:1: faults.basline: unknown key (did you mean "
        + "'baseline'?)");
  }

  @Test
  void shouldRefuseSettingsOutOfRangeOnTheirLine() {
    assertError("\nfaults.detection.misses = 0")
        .hasMessage("x.conf:2: faults.detection.misses: must be at least 1, got 0");
    assertError("faults.detection.misses = 1001")
        .hasMessage("x.conf:1: faults.detection.misses: 1001 is above the limit of 1000");
    assertError("faults.detection.heartbeat-period = 0 us")
        .hasMessage("x.conf:1: faults.detection.heartbeat-period: must be greater than 0");
    assertError("faults.management.latency = 2 s").hasMessageContaining("x.conf:1: faults.management.latency: "
        + "'2 s' is above the limit of 1 s");
    assertError("faults.transport.retransmit-timeout = 50").hasMessageStartingWith("x.conf:1: "
        + "faults.transport.retransmit-timeout: '50' has no unit");
    assertError("faults.transport.max-retransmissions = -1")
        .hasMessage("x.conf:1: faults.transport.max-retransmissions: must be at least 0, got -1");
    assertError("faults.transport.max-retransmision = 3").hasMessage("x.conf:1: "
        + "faults.transport.max-retransmision: unknown key (did you mean 'max-retransmissions'?)");
  }

  // ------------------------------------------------------------------------------ events

  @Test
  void shouldReadDownAndUpOfACableASwitchAndANode() {
    List<FaultEvent> events = events("""
        [
          { at = 40 us, action = down, link = "tor0-spine1" }
          { at = 45 us, action = up, link = [spine1, tor0] }
          { at = 10 us, action = down, switch = spine0 }
          { at = 12.5 us, action = up, switch = "spine0" }
          { at = 0 s, action = down, node = host3 }
        ]
        """);
    assertThat(events).containsExactly(
        new FaultEvent(0, 0, FaultAction.DOWN, "node host3", 3, List.of(link(3, TOR1), link(TOR1, 3)), 0, 0, 0, 0, 1),
        new FaultEvent(1, 10 * US, FaultAction.DOWN, "switch spine0", SPINE0,
            List.of(link(SPINE0, TOR0), link(TOR0, SPINE0), link(SPINE0, TOR1), link(TOR1, SPINE0)), 0, 0, 0, 0, 1),
        new FaultEvent(2, 12_500_000L, FaultAction.UP, "switch spine0", SPINE0,
            List.of(link(SPINE0, TOR0), link(TOR0, SPINE0), link(SPINE0, TOR1), link(TOR1, SPINE0)), 0, 0, 0, 0, 1),
        new FaultEvent(3, 40 * US, FaultAction.DOWN, "link tor0-spine1", -1,
            List.of(link(TOR0, SPINE1), link(SPINE1, TOR0)), 0, 0, 0, 0, 1),
        new FaultEvent(4, 45 * US, FaultAction.UP, "link spine1-tor0", -1,
            List.of(link(SPINE1, TOR0), link(TOR0, SPINE1)), 0, 0, 0, 0, 1));
    assertThat(events.get(1).describe()).isEqualTo("10.000 us switch spine0 down");
  }

  @Test
  void shouldExpandAFlapIntoItsDownsAndUps() {
    List<FaultEvent> events = events("""
        [{ at = 100 us, action = flap, switch = spine1, period = 20 us, down-for = 5 us, count = 3 }]
        """);
    assertThat(events).hasSize(6);
    assertThat(events.stream().map(FaultEvent::atPs).toList())
        .containsExactly(100 * US, 105 * US, 120 * US, 125 * US, 140 * US, 145 * US);
    assertThat(events.stream().map(FaultEvent::action).toList()).containsExactly(FaultAction.DOWN, FaultAction.UP,
        FaultAction.DOWN, FaultAction.UP, FaultAction.DOWN, FaultAction.UP);
    assertThat(events).allSatisfy(e -> {
      assertThat(e.target()).isEqualTo("switch spine1");
      assertThat(e.vertex()).isEqualTo(SPINE1);
      assertThat(e.links()).containsExactly(link(SPINE1, TOR0), link(TOR0, SPINE1), link(SPINE1, TOR1),
          link(TOR1, SPINE1));
    });
    assertThat(events.stream().map(FaultEvent::id).toList()).containsExactly(0, 1, 2, 3, 4, 5);

    List<FaultEvent> cable = events("[{ at = 0 us, action = flap, link = tor1-spine0, period = 3 us, down-for = 1 us, "
        + "count = 1 }]");
    assertThat(cable).containsExactly(
        new FaultEvent(0, 0, FaultAction.DOWN, "link tor1-spine0", -1, List.of(link(TOR1, SPINE0), link(SPINE0, TOR1)),
            0, 0, 0, 0, 1),
        new FaultEvent(1, US, FaultAction.UP, "link tor1-spine0", -1, List.of(link(TOR1, SPINE0), link(SPINE0, TOR1)),
            0, 0, 0, 0, 1));
  }

  @Test
  void shouldReadADegradeOfEveryKindOfTarget() {
    List<FaultEvent> events = events("""
        [
          { at = 1 us, action = degrade, link = "tor0-spine0", bandwidth = 50 Gbps, latency = 200 ns }
          { at = 2 us, action = degrade, switch = tor1, bandwidth = "10 Gbps" }
          { at = 3 us, action = degrade, node = host0, latency = 1 us }
          { at = 4 us, action = degrade, links-of = tor }
        ]
        """);
    assertThat(events).containsExactly(
        new FaultEvent(0, US, FaultAction.DEGRADE, "link tor0-spine0", -1, List.of(link(TOR0, SPINE0),
            link(SPINE0, TOR0)), 50_000_000_000L, 200_000L, 0, 0, 1),
        new FaultEvent(1, 2 * US, FaultAction.DEGRADE, "switch tor1", -1, List.of(link(TOR1, 2), link(TOR1, 3),
            link(TOR1, SPINE0), link(TOR1, SPINE1)), 10_000_000_000L, 0, 0, 0, 1),
        new FaultEvent(2, 3 * US, FaultAction.DEGRADE, "node host0", -1, List.of(link(0, TOR0)), 0, US, 0, 0, 1),
        new FaultEvent(3, 4 * US, FaultAction.DEGRADE, "links of tor", -1, List.of(link(TOR0, 0), link(TOR0, 1),
            link(TOR0, SPINE0), link(TOR0, SPINE1), link(TOR1, 2), link(TOR1, 3), link(TOR1, SPINE0),
            link(TOR1, SPINE1)), 0, 0, 0, 0, 1));
  }

  @Test
  void shouldResolveEveryDeviceClassOfLinksOf() {
    assertThat(events("[{ at = 0 us, action = lossy, links-of = spine, drop = 0.1 }]").get(0).links())
        .containsExactly(link(SPINE0, TOR0), link(SPINE0, TOR1), link(SPINE1, TOR0), link(SPINE1, TOR1));
    assertThat(events("[{ at = 0 us, action = lossy, links-of = host, drop = 0.1 }]").get(0).links())
        .containsExactly(link(0, TOR0), link(1, TOR0), link(2, TOR1), link(3, TOR1));
    assertThat(events("[{ at = 0 us, action = lossy, links-of = switch, drop = 0.1 }]").get(0).links()).hasSize(12);
    // Every direction of every one of the 8 cables.
    FaultEvent all = events("[{ at = 0 us, action = lossy, links-of = all, drop = 0.1 }]").get(0);
    assertThat(all.links()).hasSize(16).doesNotHaveDuplicates();
    assertThat(all.target()).isEqualTo("links of all");
  }

  @Test
  void shouldReadLossyAndStragglerEvents() {
    List<FaultEvent> events = events("""
        [
          { at = 5 us, action = lossy, link = "host2-tor1", drop = 0.01, corrupt = "0.002" }
          { at = 6 us, action = lossy, switch = spine0, corrupt = 0.5 }
          { at = 7 us, action = straggler, node = host1, slowdown = 2.5 }
        ]
        """);
    assertThat(events).containsExactly(
        new FaultEvent(0, 5 * US, FaultAction.LOSSY, "link host2-tor1", -1, List.of(link(2, TOR1), link(TOR1, 2)),
            0, 0, 0.01, 0.002, 1),
        new FaultEvent(1, 6 * US, FaultAction.LOSSY, "switch spine0", -1, List.of(link(SPINE0, TOR0),
            link(SPINE0, TOR1)), 0, 0, 0, 0.5, 1),
        new FaultEvent(2, 7 * US, FaultAction.STRAGGLER, "node host1", 1, List.of(), 0, 0, 0, 0, 2.5));
  }

  @Test
  void shouldKeepTheOrderGivenForEventsAtTheSameTime() {
    List<FaultEvent> events = events("""
        [
          { at = 5 us, action = degrade, switch = spine0 }
          { at = 1 us, action = down, switch = spine0 }
          { at = 5 us, action = up, switch = spine0 }
        ]
        """);
    assertThat(events.stream().map(FaultEvent::action).toList())
        .containsExactly(FaultAction.DOWN, FaultAction.DEGRADE, FaultAction.UP);
  }

  @Test
  void shouldEchoEventsThatLoadAgainToTheSamePlan() {
    LoadedScenario loaded = ScenarioLoader.parse(FABRIC + """
        faults.detection.misses = 4
        faults.events = [{ at = 1 us, action = flap, node = host1, period = 4 us, down-for = 1 us, count = 2 },
                         { at = 2 us, action = lossy, links-of = all, drop = 0.25 }]
        """, "x.conf");
    String echo = loaded.config().root().render(ConfigRenderOptions.concise());
    assertThat(ScenarioLoader.parse(echo, "x.conf").spec().faults()).isEqualTo(loaded.spec().faults());
    assertThat(loaded.spec().faults().eventCount()).isEqualTo(5);
  }

  // ------------------------------------------------------------------------------ errors in events

  @Test
  void shouldRefuseUnknownKeysActionsAndParametersWithASuggestion() {
    assertError(FABRIC + "faults.events = [\n  { at = 1 us, action = down,\n    swtich = spine0 }\n]")
        .hasMessage("x.conf:4: faults.events[0].swtich: unknown key (did you mean 'switch'?)");
    assertError(FABRIC + "faults.events = [{ at = 1 us, action = dwon, switch = spine0 }]")
        .hasMessage("x.conf:2: faults.events[0].action: 'dwon' is not one of down, up, flap, degrade, lossy, "
            + "straggler (did you mean 'down'?)");
    assertError(FABRIC + "faults.events = [{ at = 1 us, action = degrade, switch = spine0, bandwith = 1 Gbps }]")
        .hasMessage("x.conf:2: faults.events[0].bandwith: unknown key (did you mean 'bandwidth'?)");
    assertError(FABRIC + "faults.events = [{ at = 1 us, action = degrade, switch = spine0, period = 1 us }]")
        .hasMessage("x.conf:2: faults.events[0].period: not a parameter of degrade (degrade takes bandwidth, "
            + "latency)");
    assertError(FABRIC + "faults.events = [{ at = 1 us, action = down, switch = spine0, drop = 0.1 }]")
        .hasMessage("x.conf:2: faults.events[0].drop: not a parameter of down (down takes no parameters)");
    assertError(FABRIC + "faults.events = [{ at = 1 us, action = down, switch = spine0, colour = red }]")
        .hasMessageStartingWith("x.conf:2: faults.events[0].colour: unknown key (known keys here: at, action, link, "
            + "switch, node, links-of, period, down-for, count, bandwidth, latency, drop, corrupt, slowdown)");
  }

  @Test
  void shouldRefuseMissingOrExtraTargetsAndTargetsTheActionDoesNotTake() {
    assertError(FABRIC + "faults.events = [\n{ at = 1 us, action = down }]")
        .hasMessage("x.conf:3: faults.events[0]: missing target: give one of link, switch, node, links-of, e.g. "
            + "switch = \"spine0\"");
    assertError(FABRIC + "faults.events = [{ at = 1 us, action = down, switch = spine0,\nnode = host1 }]")
        .hasMessage("x.conf:3: faults.events[0].node: one target per event, but switch and node are both given");
    assertError(FABRIC + "faults.events = [{ at = 1 us, action = flap, links-of = tor, period = 2 us, down-for = 1 us, "
        + "count = 1 }]").hasMessage("x.conf:2: faults.events[0].links-of: flap takes a link, switch or node target; "
            + "links-of is only for degrade and lossy");
    assertError(FABRIC + "faults.events = [{ at = 1 us, action = straggler, switch = tor0, slowdown = 2 }]")
        .hasMessage("x.conf:2: faults.events[0].switch: straggler takes a node target (node = \"host3\"), not switch");
    assertError(FABRIC + "faults.events = [{ at = 1 us, action = down, switch = host1 }]")
        .hasMessage("x.conf:2: faults.events[0].switch: 'host1' is a node, not a switch (use node = \"host1\")");
    assertError(FABRIC + "faults.events = [{ at = 1 us, action = down, node = tor1 }]")
        .hasMessage("x.conf:2: faults.events[0].node: 'tor1' is a switch, not a node (use switch = \"tor1\")");
    assertError(FABRIC + "faults.events = [{ at = 1 us, action = down, link = tor0-tor1 }]")
        .hasMessage("x.conf:2: faults.events[0].link: there is no cable between tor0 and tor1");
    assertError(FABRIC + "faults.events = [{ at = 1 us, action = down, link = tor0-spine7 }]")
        .hasMessage("x.conf:2: faults.events[0].link: 'spine7' is not a device of this topology (tor0..tor1, "
            + "spine0..spine1, host0..host3)");
    assertError(FABRIC + "faults.events = [{ at = 1 us, action = down, link = tor0 }]")
        .hasMessage("x.conf:2: faults.events[0].link: expected a cable such as \"tor0-spine1\" or [\"tor0\", "
            + "\"spine1\"], got 'tor0'");
    assertError(FABRIC + "faults.events = [{ at = 1 us, action = down, link = [tor0, spine0, spine1] }]")
        .hasMessageStartingWith("x.conf:2: faults.events[0].link: expected a cable such as");
    assertError(FABRIC + "faults.events = [{ at = 1 us, action = lossy, links-of = spines }]")
        .hasMessage("x.conf:2: faults.events[0].links-of: 'spines' is not one of tor, spine, host, switch, all "
            + "(did you mean 'spine'?)");
    assertError("topology { kind = ring, hosts = 4 }\nfaults.events = [{ at = 1 us, action = lossy, links-of = tor }]")
        .hasMessage("x.conf:2: faults.events[0].links-of: this ring has no tor devices (tor: switches with hosts "
            + "cabled to them, spine: switches without)");
  }

  @Test
  void shouldRefuseBadValuesOnTheirLines() {
    assertError(FABRIC + "faults.events = [\n\"down\"\n]")
        .hasMessage("x.conf:3: faults.events[0]: expected an event such as { at = 40 us, action = down, switch = "
            + "\"spine0\" }, got 'down'");
    assertError(FABRIC + "faults.events = [{ action = down, switch = spine0 }]")
        .hasMessage("x.conf:2: faults.events[0]: missing at: when it happens, e.g. at = 40 us");
    assertError(FABRIC + "faults.events = [{ at = 1 us, switch = spine0 }]")
        .hasMessage("x.conf:2: faults.events[0]: missing action (one of down, up, flap, degrade, lossy, straggler)");
    assertError(FABRIC + "faults.events = [{ at = 2 s, action = down, switch = spine0 }]")
        .hasMessage("x.conf:2: faults.events[0].at: '2 s' is above the limit of 1 s (every duration is at most 1 s)");
    assertError(FABRIC + "faults.events = [{ at = 40 uss, action = down, switch = spine0 }]")
        .hasMessageStartingWith("x.conf:2: faults.events[0].at: '40 uss' has an unknown unit 'uss'");
    assertError(FABRIC + "faults.events = [{ at = 1 us, action = lossy, switch = spine0,\n drop = 1 }]")
        .hasMessage("x.conf:3: faults.events[0].drop: expected a probability in [0, 1), got 1");
    assertError(FABRIC + "faults.events = [{ at = 1 us, action = lossy, switch = spine0, corrupt = lots }]")
        .hasMessage("x.conf:2: faults.events[0].corrupt: expected a number, got 'lots'");
    assertError(FABRIC + "faults.events = [{ at = 1 us, action = degrade, switch = spine0, bandwidth = 20 Tbps }]")
        .hasMessage("x.conf:2: faults.events[0].bandwidth: '20 Tbps' is above the limit of 10 Tbps");
    assertError(FABRIC + "faults.events = [{ at = 1 us, action = straggler, node = host0, slowdown = 0.5 }]")
        .hasMessage("x.conf:2: faults.events[0].slowdown: must be at least 1 (1 is the node's own speed), got 0.5");
    assertError(FABRIC + "faults.events = [{ at = 1 us, action = straggler, node = host0 }]")
        .hasMessage("x.conf:2: faults.events[0]: missing slowdown: how many times slower the node gets, e.g. "
            + "slowdown = 2");
    assertError(FABRIC + "faults.events = [{ at = 1 us, action = straggler, node = host0, slowdown = 1001 }]")
        .hasMessage("x.conf:2: faults.events[0].slowdown: 1001 is above the limit of 1000");
  }

  @Test
  void shouldRefuseFlapsThatDoNotFit() {
    String flap = "faults.events = [{ at = 1 us, action = flap, switch = spine0, ";
    assertError(FABRIC + flap + "period = 5 us, count = 2 }]")
        .hasMessage("x.conf:2: faults.events[0]: missing down-for: a flap needs period, down-for and count, e.g. "
            + "period = 20 us, down-for = 5 us, count = 3");
    assertError(FABRIC + flap + "period = 5 us, down-for = 5 us, count = 2 }]")
        .hasMessage("x.conf:2: faults.events[0].down-for: '5 us' is not shorter than the period ('5 us'): a "
            + "flapping target is up again within each period");
    assertError(FABRIC + flap + "period = 5 us, down-for = 0 us, count = 2 }]")
        .hasMessage("x.conf:2: faults.events[0].down-for: must be greater than 0");
    assertError(FABRIC + flap + "period = 5 us, down-for = 1 us, count = 0 }]")
        .hasMessage("x.conf:2: faults.events[0].count: must be at least 1, got 0");
    assertError(FABRIC + flap + "period = 5 us, down-for = 1 us, count = 5001 }]")
        .hasMessage("x.conf:2: faults.events[0].count: 5001 is above the limit of 5000");
    assertError(FABRIC + flap + "period = 300 ms, down-for = 1 us, count = 5 }]")
        .hasMessage("x.conf:2: faults.events[0].count: 5 flaps every 300 ms from 1 us end at 1.2 s, past the limit "
            + "of 1 s (every time is at most 1 s)");
  }

  @Test
  void shouldRefuseMoreThanTenThousandEvents() {
    String flaps = "faults.events = [\n"
        + "{ at = 0 us, action = flap, switch = spine0, period = 100 us, down-for = 1 us, count = 2500 }\n"
        + "{ at = 0 us, action = flap, switch = spine1, period = 100 us, down-for = 1 us, count = 2499 }\n";
    assertThat(load(FABRIC + flaps + "{ at = 1 us, action = degrade, link = tor0-spine0 }\n"
        + "{ at = 1 us, action = degrade, link = tor0-spine0 }\n]").faults().eventCount()).isEqualTo(10_000);
    assertError(FABRIC + flaps + "{ at = 1 us, action = degrade, link = tor0-spine0 }\n"
        + "{ at = 1 us, action = degrade, link = tor0-spine0 }\n{ at = 1 us, action = degrade, link = tor0-spine0 }\n]")
        .hasMessage("x.conf:7: faults.events[4]: one event more than the limit of 10000 (each flap counts as its "
            + "downs and ups)");
    assertError(FABRIC + flaps.replace("2499", "2501") + "]")
        .hasMessage("x.conf:4: faults.events[1].count: 2501 flaps are 5002 events, 10002 with the events before, "
            + "above the limit of 10000");
  }

  @Test
  void shouldReplayEachTargetsDownsAndUps() {
    assertError(FABRIC + "faults.events = [\n{ at = 1 us, action = up, switch = spine0 }\n]")
        .hasMessage("x.conf:3: faults.events[0]: up of switch spine0 at 1 us: it is not down then");
    assertError(FABRIC + """
        faults.events = [
          { at = 5 us, action = down, link = "spine0-tor1" }
          { at = 3 us, action = down, link = "tor1-spine0" }
        ]
        """).hasMessage("x.conf:3: faults.events[0]: down of link spine0-tor1 at 5 us: it is down already (link "
            + "tor1-spine0 went down at 3 us)");
    // A flap's third down meets a down of the same switch that is not up again yet.
    assertError(FABRIC + """
        faults.events = [
          { at = 0 us, action = flap, switch = spine0, period = 10 us, down-for = 2 us, count = 3 }
          { at = 15 us, action = down, switch = spine0 }
        ]
        """).hasMessage("x.conf:3: faults.events[0]: down of switch spine0 at 20 us: it is down already (switch "
            + "spine0 went down at 15 us)");
    // Ties go in the order given: an up written before its down at the same time is refused ...
    assertError(FABRIC + """
        faults.events = [
          { at = 1 us, action = up, node = host0 }
          { at = 1 us, action = down, node = host0 }
        ]
        """).hasMessage("x.conf:3: faults.events[0]: up of node host0 at 1 us: it is not down then");
    // ... and a down of a switch does not count as a down of its cables, nor the reverse.
    assertThat(events("""
        [
          { at = 1 us, action = down, switch = spine0 }
          { at = 2 us, action = down, link = tor0-spine0 }
          { at = 3 us, action = up, link = tor0-spine0 }
          { at = 4 us, action = up, switch = spine0 }
          { at = 4 us, action = down, switch = spine0 }
        ]
        """)).hasSize(5);
  }

  @Test
  void shouldRefuseFaultsWhereDevicesDoNotHandleThemYet() {
    String event = "faults.events = [{ at = 1 us, action = down, node = host0 }]";
    assertError("topology.kind = mesh\ntraffic.pattern = uniform\n" + event)
        .hasMessage("x.conf:3: faults.events: faults with synthetic traffic are not supported yet (this scenario "
            + "writes a traffic section)");
    // Settings alone change nothing, so they are fine anywhere.
    assertThat(load("topology.kind = mesh\nfaults.detection.misses = 2").faults().isEmpty()).isTrue();
    assertThat(load(FABRIC + "devices.inc.enabled = true\nfaults.events = []").faults().isEmpty()).isTrue();
  }

  @Test
  void shouldTakeANodeOfARouterNetworkAsItsRouter() {
    ScenarioSpec spec = load("topology { kind = mesh, dimensions = [3, 3] }\ndevices.router.virtual-channels = 2\n"
        + "faults.events = [{ at = 1 us, action = down, node = host4 }, { at = 2 us, action = down, link = "
        + "\"router0-router1\" }, { at = 3 us, action = up, switch = router4 }]");
    FaultEvent down = spec.faults().event(0);
    // Router4 is vertex 9 + 4: the node's router, with its five cables (its NIC and four neighbours).
    assertThat(down.target()).isEqualTo("node host4");
    assertThat(down.vertex()).isEqualTo(13);
    assertThat(down.links()).hasSize(10);
    // The node and its router are one target: the router's up undoes the node's down.
    assertThat(spec.faults().event(2).vertex()).isEqualTo(13);
  }

  @Test
  void shouldRefuseDropAndCorruptAddingUpToOne() {
    assertError(FABRIC + "faults.events = [{ at = 1 us, action = lossy, link = \"tor0-spine0\", drop = 0.6, "
        + "corrupt = 0.4 }]")
        .hasMessage("x.conf:2: faults.events[0].corrupt: drop (0.6) and corrupt (0.4) add up to 1 or more: a packet "
            + "is lost or corrupted, not both, so they must add up to less than 1");
  }

  @Test
  void shouldRefuseRouterNetworkFaultsTheRoutersCannotTake() {
    String mesh = "topology { kind = mesh, dimensions = [3, 3] }\n";
    assertError(mesh + "devices.router.virtual-channels = 1\n"
        + "faults.events = [{ at = 1 us, action = down, node = host0 }]")
        .hasMessage("x.conf:3: faults.events: faults on a mesh need devices.router.virtual-channels to be a multiple "
            + "of 2 (detours through via nodes take 1 class per leg), got 1");
    assertError("topology { kind = torus, dimensions = [4, 4] }\ndevices.router.virtual-channels = 2\n"
        + "faults.events = [{ at = 1 us, action = down, node = host0 }]")
        .hasMessageContaining("multiple of 4 (detours through via nodes take 2 classes per leg), got 2");
    assertError(mesh + "devices.router.virtual-channels = 2\n"
        + "faults.events = [{ at = 1 us, action = lossy, link = \"router0-router1\", drop = 0.1 }]")
        .hasMessage("x.conf:3: faults.events[0].action: lossy is not supported on a router network (its channels "
            + "move flits by credits; use down, up, flap or straggler)");
  }

  @Test
  void shouldRefuseTheVirtualChannelsOfAVeryLargeTorusWithoutBuildingIt() {
    // 2^20 routers: building them (and their routing) would take tens of seconds and gigabytes; the rule needs only
    // the kind's classes. The timeout guards against a hang, it measures nothing.
    assertTimeoutPreemptively(Duration.ofSeconds(60), () ->
        assertError("topology { kind = torus, dimensions = [128, 128, 64] }\ndevices.router.virtual-channels = 2\n"
            + "faults.events = [{ at = 1 us, action = down, node = host0 }]")
            .hasMessage("x.conf:3: faults.events: faults on a torus need devices.router.virtual-channels to be a "
                + "multiple of 4 (detours through via nodes take 2 classes per leg), got 2"));
  }

  @Test
  void everyRouterNetworkKindKnowsTheClassesItsRoutingUses() {
    for (String topology : List.of("kind = mesh, dimensions = [3, 3]", "kind = torus, dimensions = [3, 3, 3]",
        "kind = group-ring, groups = 3, nodes-per-group = 2")) {
      ScenarioSpec spec = load("topology { " + topology + " }\ndevices.router.virtual-channels = 4\n");
      int routed = spec.topology().routerRouting(spec.topology().build()).orElseThrow().vcClasses();
      assertThat(TopologySection.kindNamed(spec.topology().configName()).routerVcClasses()).as(topology)
          .isEqualTo(routed);
    }
  }

  @Test
  void shouldRefuseANodeAndItsRouterGoingDownTwice() {
    assertError("topology { kind = mesh, dimensions = [3, 3] }\ndevices.router.virtual-channels = 2\n"
        + "faults.events = [{ at = 1 us, action = down, node = host4 }, { at = 2 us, action = down, switch = "
        + "router4 }]")
        .hasMessageContaining("down of switch router4 at 2 us: it is down already (node host4 went down at 1 us)");
  }

  @Test
  void shouldTakeFaultsWithIncOnALeafSpine() {
    // INC groups under faults: a tree the failure cuts falls back to the host (docs/faults.md).
    ScenarioSpec spec = load(FABRIC + "devices.inc.enabled = true\nworkload.algorithms = [inc-node]\n"
        + "faults.events = [{ at = 40 us, action = down, switch = spine0 }]");
    assertThat(spec.devices().inc()).isNotNull();
    assertThat(spec.faults().events()).singleElement()
        .satisfies(e -> assertThat(e.describe()).isEqualTo("40.000 us switch spine0 down"));
    assertThat(spec.faults().event(0).vertex()).isEqualTo(SPINE0);
  }

  // ------------------------------------------------------------------------------ appended events (--fault)

  private static ConfigObject appended(int n, Map<String, String> keys) {
    return ConfigValueFactory.fromMap(new LinkedHashMap<>(keys), "--fault #" + n);
  }

  @Test
  void shouldAppendEventsToTheFilesAndCheckThemAlike(@TempDir Path dir) throws Exception {
    Path file = dir.resolve("f.conf");
    Files.writeString(file, FABRIC + "faults.events = [{ at = 10 us, action = down, switch = \"spine0\" }]\n");
    ScenarioSpec spec = ScenarioLoader.load(file, ConfigFactory.empty(), List.of(
        appended(1, Map.of("at", "20us", "switch", "spine0", "action", "up")),
        appended(2, Map.of("at", "5us", "link", "tor0-spine1", "action", "degrade", "bandwidth", "50Gbps")))).spec();
    Path same = dir.resolve("same.conf");
    Files.writeString(same, FABRIC + """
        faults.events = [{ at = 10 us, action = down, switch = "spine0" }
                         { at = 20 us, action = up, switch = spine0 }
                         { at = 5 us, action = degrade, link = "tor0-spine1", bandwidth = 50 Gbps }]
        """);
    assertThat(spec.faults()).isEqualTo(ScenarioLoader.load(same).spec().faults());
    assertThat(spec.faults().eventCount()).isEqualTo(3);
  }

  @Test
  void shouldNameTheAppendedEventInItsErrors(@TempDir Path dir) throws Exception {
    Path file = dir.resolve("f.conf");
    Files.writeString(file, FABRIC + "faults.events = [{ at = 10 us, action = down, switch = spine0 }]\n");
    List<ConfigObject> fine = List.of(appended(1, Map.of("at", "20us", "switch", "spine0", "action", "up")));
    List<ConfigObject> events = new ArrayList<>(fine);
    events.add(appended(2, Map.of("at", "30 uss", "switch", "spine0", "action", "down")));
    assertThatThrownBy(() -> ScenarioLoader.load(file, ConfigFactory.empty(), events))
        .isInstanceOf(ScenarioException.class)
        .hasMessageStartingWith("--fault #2: at: '30 uss' has an unknown unit 'uss'");
    events.set(1, appended(2, Map.of("at", "30us", "swtich", "spine0", "action", "down")));
    assertThatThrownBy(() -> ScenarioLoader.load(file, ConfigFactory.empty(), events))
        .hasMessage("--fault #2: swtich: unknown key (did you mean 'switch'?)");
    events.set(1, appended(2, Map.of("at", "30us", "switch", "spine0", "action", "up")));
    assertThatThrownBy(() -> ScenarioLoader.load(file, ConfigFactory.empty(), events))
        .hasMessage("--fault #2: up of switch spine0 at 30 us: it is not down then");
    // The file's own events keep their lines.
    Files.writeString(file, FABRIC + "faults.events = [\n{ at = 10 us, action = up, switch = spine0 }]\n");
    assertThatThrownBy(() -> ScenarioLoader.load(file, ConfigFactory.empty(), fine))
        .hasMessage(file + ":3: faults.events[0]: up of switch spine0 at 10 us: it is not down then");
    // A list of appended events only: its refusal names the first.
    Files.writeString(file, "topology.kind = mesh\ndevices.router.virtual-channels = 1\n");
    assertThatThrownBy(() -> ScenarioLoader.load(file, ConfigFactory.empty(), fine))
        .hasMessage("--fault #1: faults on a mesh need devices.router.virtual-channels to be a multiple of 2 (detours "
            + "through via nodes take 1 class per leg), got 1");
  }
}
