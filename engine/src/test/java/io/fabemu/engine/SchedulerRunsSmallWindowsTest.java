package io.fabemu.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import com.typesafe.config.ConfigFactory;
import io.fabemu.core.sim.DeviceCore;
import io.fabemu.core.sim.ProgressListener;
import io.fabemu.core.sim.WindowedEngine;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.pekko.actor.testkit.typed.javadsl.ActorTestKit;
import org.junit.jupiter.api.Test;

/**
 * Sub-windows the member's scheduler runs itself (too little data to fan out to the device actors), alone and mixed
 * with fanned-out ones: the same results as the plain engine, and failures reported as a device actor's would be.
 */
class SchedulerRunsSmallWindowsTest {
  private static final long LOOKAHEAD_PS = 1_000L;
  private static final long LATE_START_PS = 40_000_000L;
  private static final int DEVICES = 17;
  private static final int UNUSED_ID = 5;
  private static final int HOPS = 12;
  private static final long SEED = 42L;
  private static final Duration LIMIT = Duration.ofSeconds(30);

  private static DeviceCore[] fabric() {
    return GossipCore.fabric(DEVICES, UNUSED_ID, LOOKAHEAD_PS, HOPS, SEED);
  }

  /** Runs {@code devices} on a system whose sub-windows fan out from {@code fanOutMinDataBytes} of data on. */
  private static EngineOutcome run(String fanOutMinDataBytes, DeviceCore[] devices, DeviceActorFactory factory) {
    ActorTestKit testKit = ActorTestKit.create("small-windows", ConfigFactory.parseString(
        "fabemu.engine.fan-out-min-data-bytes = " + fanOutMinDataBytes
            + "\nfabemu.engine.fan-out-min-data-bytes-per-device = 0")
        .withFallback(ConfigFactory.load("application-test")));
    try {
      return assertTimeoutPreemptively(LIMIT, () -> PekkoWindowEngine.run(testKit.system(), devices, factory,
          LOOKAHEAD_PS, GossipCore.starts(devices, LATE_START_PS), ProgressListener.NONE));
    } finally {
      testKit.shutdownTestKit();
    }
  }

  @Test
  void shouldMatchPlainEngineWhenSchedulerRunsEveryWindow() {
    WindowedEngine plain = GossipCore.plainRun(fabric(), LOOKAHEAD_PS, LATE_START_PS);
    AtomicInteger ticks = new AtomicInteger();

    EngineOutcome outcome = run("1 GiB", fabric(), (runner, scheduler) ->
        PekkoWindowEngineTest.CountingDeviceActor.create(runner, scheduler, ticks));

    assertThat(ticks.get()).as("no window fanned out").isZero();
    assertThat(outcome.reports()).isEqualTo(plain.reports());
    assertThat(outcome.windows()).isEqualTo(plain.windows());
    assertThat(outcome.events()).isEqualTo(plain.eventsHandled());
    assertThat(outcome.lastEventTimePs()).isEqualTo(plain.lastEventTimePs());
  }

  @Test
  void shouldMatchPlainEngineWhenSomeWindowsFanOutAndOthersRunInTheScheduler() {
    WindowedEngine plain = GossipCore.plainRun(fabric(), LOOKAHEAD_PS, LATE_START_PS);
    AtomicInteger ticks = new AtomicInteger();

    // A gossip timer delivers 16 B: a window with several timers due fans out, one with a single timer or none not.
    EngineOutcome outcome = run("32 B", fabric(), (runner, scheduler) ->
        PekkoWindowEngineTest.CountingDeviceActor.create(runner, scheduler, ticks));

    AtomicInteger allTicks = new AtomicInteger();
    run("0 B", fabric(), (runner, scheduler) ->
        PekkoWindowEngineTest.CountingDeviceActor.create(runner, scheduler, allTicks));
    assertThat(ticks.get()).as("some windows fanned out").isPositive();
    assertThat(ticks.get()).as("not all of them").isLessThan(allTicks.get());
    assertThat(outcome.reports()).isEqualTo(plain.reports());
    assertThat(outcome.events()).isEqualTo(plain.eventsHandled());
  }

  @Test
  void shouldReportTheDeviceWhenItFailsInAWindowTheSchedulerRuns() {
    DeviceCore[] devices = fabric();
    devices[2] = new FaultyCore(devices[2], FaultyCore.Fault.SEND_BELOW_LOOKAHEAD, 3);

    assertThatThrownBy(() -> run("1 GiB", devices, DeviceActorFactory.GENERIC))
        .isInstanceOf(EngineFailedException.class)
        .hasMessageContaining("device 2 failed in window [")
        .hasMessageContaining("lookahead violated");
  }
}
