package io.fabemu.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import io.fabemu.core.sim.DeviceCore;
import io.fabemu.core.sim.Event;
import io.fabemu.core.sim.ProgressListener;
import io.fabemu.core.sim.WindowedEngine;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.pekko.actor.testkit.typed.javadsl.ActorTestKit;
import org.junit.jupiter.api.Test;

/**
 * Sub-windows run on several threads of a member ({@code fabemu.engine.window-threads} above 1): the devices in
 * partitions with their own calendars, events between partitions through inboxes. Whatever the thread count, and
 * on one member or several, every device handles the same events in the same order as in the plain engine.
 */
class PartitionedWindowsTest {
  private static final long LOOKAHEAD_PS = 1_000L;
  private static final long LATE_START_PS = 40_000_000L;
  private static final int DEVICES = 17;
  private static final int UNUSED_ID = 5;
  private static final int HOPS = 12;
  private static final Duration LIMIT = Duration.ofSeconds(60);

  /** Windows on {@code threads} threads, every one on all of them (no least work), never fanned out. */
  private static Config threads(int threads) {
    return ConfigFactory.parseString("fabemu.engine.window-threads = " + threads
            + "\nfabemu.engine.parallel-min-events = 0"
            + "\nfabemu.engine.fan-out-min-data-bytes = 1 GiB")
        .withFallback(ConfigFactory.load("application-test"));
  }

  private static DeviceCore[] fabric(long seed) {
    return GossipCore.fabric(DEVICES, UNUSED_ID, LOOKAHEAD_PS, HOPS, seed);
  }

  private static EngineOutcome run(int threads, DeviceCore[] devices, DeviceActorFactory factory) {
    ActorTestKit testKit = ActorTestKit.create("partitioned", threads(threads));
    try {
      return assertTimeoutPreemptively(LIMIT, () -> PekkoWindowEngine.run(testKit.system(), devices, factory,
          LOOKAHEAD_PS, GossipCore.starts(devices, LATE_START_PS), ProgressListener.NONE));
    } finally {
      testKit.shutdownTestKit();
    }
  }

  @Test
  void shouldMatchThePlainEngineOnAnyNumberOfThreadsWithoutTicks() {
    for (long seed = 1; seed <= 3; seed++) {
      WindowedEngine plain = GossipCore.plainRun(fabric(seed), LOOKAHEAD_PS, LATE_START_PS);
      assertThat(plain.eventsHandled()).as("a non-trivial run").isGreaterThan(1_000);
      for (int threads : new int[] {2, 3, 4, 16}) {
        AtomicInteger ticks = new AtomicInteger();
        EngineOutcome outcome = run(threads, fabric(seed), (runner, scheduler) ->
            PekkoWindowEngineTest.CountingDeviceActor.create(runner, scheduler, ticks));

        assertThat(outcome.reports()).as("seed %d on %d threads", seed, threads).isEqualTo(plain.reports());
        assertThat(outcome.windows()).isEqualTo(plain.windows());
        assertThat(outcome.events()).isEqualTo(plain.eventsHandled());
        assertThat(outcome.lastEventTimePs()).isEqualTo(plain.lastEventTimePs());
        assertThat(ticks.get()).as("no window went to the device actors").isZero();
      }
    }
  }

  @Test
  void shouldMatchThePlainEngineWhenSmallWindowsSendTheMemberBackToOneThreadMidRun() {
    WindowedEngine plain = GossipCore.plainRun(fabric(4), LOOKAHEAD_PS, LATE_START_PS);
    assertThat(plain.windows()).as("past the settling windows").isGreaterThan(40);
    DeviceCore[] devices = fabric(4);
    // Every window is "too small" for a least work of a million events: after 20 the member moves to one calendar,
    // with events pending in partitions and inboxes.
    ActorTestKit testKit = ActorTestKit.create("partitioned-settle", ConfigFactory.parseString(
        "fabemu.engine.parallel-min-events = 1000000\nfabemu.engine.parallel-settle-windows = 20")
        .withFallback(threads(2)));
    try {
      EngineOutcome outcome = assertTimeoutPreemptively(LIMIT, () -> PekkoWindowEngine.run(testKit.system(), devices,
          DeviceActorFactory.GENERIC, LOOKAHEAD_PS, GossipCore.starts(devices, LATE_START_PS), ProgressListener.NONE));

      assertThat(outcome.reports()).isEqualTo(plain.reports());
      assertThat(outcome.windows()).isEqualTo(plain.windows());
      assertThat(outcome.events()).isEqualTo(plain.eventsHandled());
      assertThat(outcome.lastEventTimePs()).isEqualTo(plain.lastEventTimePs());
    } finally {
      testKit.shutdownTestKit();
    }
  }

  @Test
  void shouldMatchThePlainEngineWhenEveryMemberRunsOnSeveralThreads() {
    ActorTestKit testKit = ActorTestKit.create("partitioned-members", threads(3));
    try {
      for (int i = 0; i < 3; i++) {
        testKit.spawn(MemberAgent.create(scenario -> fabric(((GossipBlueprint) scenario).seed()),
            DeviceActorFactory.GENERIC),
            "agent-" + i);
      }
      for (long seed = 1; seed <= 2; seed++) {
        WindowedEngine plain = GossipCore.plainRun(fabric(seed), LOOKAHEAD_PS, LATE_START_PS);
        List<Event> starts = GossipCore.starts(fabric(seed), LATE_START_PS);
        for (int members = 1; members <= 3; members++) {
          int[] plan = new int[DEVICES];
          for (int id = 0; id < DEVICES; id++) {
            plan[id] = id % members;
          }
          int n = members;
          long s = seed;
          EngineOutcome outcome = assertTimeoutPreemptively(LIMIT, () -> PekkoWindowEngine.runDistributed(
              testKit.system(), n, GossipBlueprint.plain(s), plan, LOOKAHEAD_PS, starts, ProgressListener.NONE, LIMIT));

          assertThat(outcome.reports()).as("seed %d on %d member(s)", seed, n).isEqualTo(plain.reports());
          assertThat(outcome.events()).isEqualTo(plain.eventsHandled());
          assertThat(outcome.lastEventTimePs()).isEqualTo(plain.lastEventTimePs());
        }
      }
    } finally {
      testKit.shutdownTestKit();
    }
  }

  @Test
  void shouldReportTheDeviceAndTheWindowWhenADeviceFailsOnAWorker() {
    for (FaultyCore.Fault fault : new FaultyCore.Fault[] {FaultyCore.Fault.THROW,
        FaultyCore.Fault.SEND_BELOW_LOOKAHEAD}) {
      DeviceCore[] devices = fabric(1);
      devices[11] = new FaultyCore(devices[11], fault, 20);

      assertThatThrownBy(() -> run(4, devices, DeviceActorFactory.GENERIC))
          .as("%s", fault)
          .isInstanceOf(EngineFailedException.class)
          .hasMessageContaining("device 11 failed in window [");
    }
  }

  @Test
  void shouldNameTheSettingAndTheValueWhenAParallelSettingIsBad() {
    Config base = ConfigFactory.load("application-test");
    PekkoWindowEngine.checkParallelSettings(base);
    assertThatThrownBy(() -> PekkoWindowEngine.checkParallelSettings(
        ConfigFactory.parseString("fabemu.engine.parallel-min-events = lots").withFallback(base)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("fabemu.engine.parallel-min-events must be a whole number, got \"lots\"");
    assertThatThrownBy(() -> PekkoWindowEngine.checkParallelSettings(
        ConfigFactory.parseString("fabemu.engine.parallel-settle-windows = 0").withFallback(base)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("fabemu.engine.parallel-settle-windows must be at least 1, got 0");
  }

  @Test
  void shouldRefuseAWindowThreadCountThatIsNotOne() {
    Config config = ConfigFactory.parseString("fabemu.engine.window-threads = many");

    assertThatThrownBy(() -> PartitionedWindows.threads(config))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("fabemu.engine.window-threads must be auto or a whole number from 1 to 4096, got many");
    assertThat(PartitionedWindows.threads(ConfigFactory.parseString("fabemu.engine.window-threads = auto")))
        .isEqualTo(Runtime.getRuntime().availableProcessors());
    assertThat(PartitionedWindows.threads(ConfigFactory.parseString("fabemu.engine.window-threads = 3")))
        .isEqualTo(3);
  }
}
