package io.fabemu.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import com.typesafe.config.ConfigFactory;
import io.fabemu.core.protocol.DeviceProtocol.StartWorkload;
import io.fabemu.core.sim.DeviceCore;
import io.fabemu.core.sim.DeviceRunner;
import io.fabemu.core.sim.Event;
import io.fabemu.core.sim.ProgressListener;
import io.fabemu.core.sim.WindowedEngine;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.pekko.actor.testkit.typed.javadsl.ActorTestKit;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.javadsl.ActorContext;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

class PekkoWindowEngineTest {
  private static final long LOOKAHEAD_PS = 1_000L;
  private static final long LATE_START_PS = 40_000_000L;
  private static final int DEVICES = 17;
  private static final int UNUSED_ID = 5;
  private static final int HOPS = 12;
  private static final long SEED = 42L;
  private static final Duration LIMIT = Duration.ofSeconds(30);

  private static ActorTestKit testKit;

  @BeforeAll
  static void startSystem() {
    testKit = ActorTestKit.create();  // application-test.conf: serialize-messages = on
  }

  @AfterAll
  static void stopSystem() {
    testKit.shutdownTestKit();
  }

  private static DeviceCore[] fabric(long seed) {
    return GossipCore.fabric(DEVICES, UNUSED_ID, LOOKAHEAD_PS, HOPS, seed);
  }

  private static WindowedEngine plainRun(long seed) {
    return GossipCore.plainRun(fabric(seed), LOOKAHEAD_PS, LATE_START_PS);
  }

  private static EngineOutcome actorRun(long seed, DeviceActorFactory factory) {
    DeviceCore[] devices = fabric(seed);
    return assertTimeoutPreemptively(LIMIT, () -> PekkoWindowEngine.run(testKit.system(), devices, factory,
        LOOKAHEAD_PS, GossipCore.starts(devices, LATE_START_PS), ProgressListener.NONE));
  }

  @Test
  void shouldMatchPlainEngineWhenDevicesGossipWithSeededRandomness() {
    WindowedEngine plain = plainRun(SEED);

    EngineOutcome actors = actorRun(SEED, DeviceActorFactory.GENERIC);

    assertThat(plain.eventsHandled()).as("a non-trivial scenario").isGreaterThan(2_000);
    assertThat(plain.windows()).isGreaterThan(50);
    assertThat(plain.lastWindowStartPs()).as("the late start ran after an idle stretch")
        .isGreaterThanOrEqualTo(LATE_START_PS);
    assertThat(plain.lastEventTimePs()).isGreaterThanOrEqualTo(plain.lastWindowStartPs())
        .isLessThan(plain.lastWindowStartPs() + LOOKAHEAD_PS);
    assertThat(actors.reports()).hasSize(DEVICES - 1).isEqualTo(plain.reports());
    assertThat(actors.windows()).isEqualTo(plain.windows());
    assertThat(actors.events()).isEqualTo(plain.eventsHandled());
    assertThat(actors.lastEventTimePs()).isEqualTo(plain.lastEventTimePs());
  }

  @Test
  void shouldHandleSelfEventsInsideWindowsWhenDevicesSetTimers() {
    DeviceCore[] devices = fabric(SEED);
    PekkoWindowEngine.run(testKit.system(), devices, DeviceActorFactory.GENERIC, LOOKAHEAD_PS,
        GossipCore.starts(devices, LATE_START_PS), ProgressListener.NONE);

    long wakes = 0;
    for (DeviceCore device : devices) {
      wakes += device == null ? 0 : ((GossipCore) device).wakes();
    }
    assertThat(wakes).isGreaterThan(100);
  }

  @Test
  void shouldGiveIdenticalResultsWhenRunAgainAndConcurrentlyOnOneSystem() throws Exception {
    EngineOutcome first = actorRun(SEED, DeviceActorFactory.GENERIC);
    EngineOutcome second = actorRun(SEED, DeviceActorFactory.GENERIC);
    CompletableFuture<EngineOutcome> third = CompletableFuture.supplyAsync(() -> actorRun(SEED,
        DeviceActorFactory.GENERIC));
    EngineOutcome fourth = actorRun(SEED, DeviceActorFactory.GENERIC);

    assertThat(second).isEqualTo(first);
    assertThat(third.get(LIMIT.toSeconds(), TimeUnit.SECONDS)).isEqualTo(first);
    assertThat(fourth).isEqualTo(first);
    assertThat(actorRun(SEED + 1, DeviceActorFactory.GENERIC).reports()).as("the seed matters")
        .isNotEqualTo(first.reports());
  }

  @Test
  void shouldMatchPlainEngineWhenFactoryPicksSpecializedActors() {
    AtomicInteger specializedTicks = new AtomicInteger();
    DeviceActorFactory factory = (runner, scheduler) -> runner.core().deviceId() % 2 == 0
        ? CountingDeviceActor.create(runner, scheduler, specializedTicks)
        : DeviceActor.create(runner, scheduler);

    EngineOutcome actors = actorRun(SEED, factory);

    assertThat(actors.reports()).isEqualTo(plainRun(SEED).reports());
    assertThat(specializedTicks.get()).isPositive();
  }

  @Test
  void shouldReportFinalProgressWhenRunEnds() {
    DeviceCore[] devices = fabric(SEED);
    AtomicLong lastProgress = new AtomicLong(-1);
    AtomicLong lastTimePs = new AtomicLong(-1);

    EngineOutcome outcome = PekkoWindowEngine.run(testKit.system(), devices, DeviceActorFactory.GENERIC,
        LOOKAHEAD_PS, GossipCore.starts(devices, LATE_START_PS), (done, timePs) -> {
          lastProgress.set(done);
          lastTimePs.set(timePs);
        });

    long expected = 0;
    for (DeviceCore device : devices) {
      expected += device == null ? 0 : device.progress();
    }
    assertThat(expected).isPositive();
    assertThat(lastProgress.get()).isEqualTo(expected);
    assertThat(lastTimePs.get()).as("the last call gives the virtual end").isEqualTo(outcome.lastEventTimePs());
  }

  @Test
  void shouldFinishWithoutWindowsWhenNothingIsInjected() {
    EngineOutcome outcome = PekkoWindowEngine.run(testKit.system(), fabric(SEED), DeviceActorFactory.GENERIC,
        LOOKAHEAD_PS, List.of(), ProgressListener.NONE);

    assertThat(outcome.windows()).isZero();
    assertThat(outcome.events()).isZero();
    assertThat(outcome.reports()).hasSize(DEVICES - 1);
  }

  @Test
  void shouldFailQuicklyWithClearErrorWhenDeviceCoreThrows() {
    DeviceCore[] devices = fabric(SEED);
    devices[3] = new FaultyCore(devices[3], FaultyCore.Fault.THROW, 4);

    CompletableFuture<EngineOutcome> run = PekkoWindowEngine.start(testKit.system(), devices,
        DeviceActorFactory.GENERIC, LOOKAHEAD_PS, GossipCore.starts(devices, LATE_START_PS),
        ProgressListener.NONE).toCompletableFuture();

    assertThatThrownBy(() -> run.get(10, TimeUnit.SECONDS))
        .isInstanceOf(ExecutionException.class)
        .cause().isInstanceOf(EngineFailedException.class)
        .hasMessageContaining("member 0: device 3 failed in window [")
        .hasMessageContaining("injected fault at");
  }

  @Test
  void shouldThrowFromRunWhenDeviceViolatesLookahead() {
    DeviceCore[] devices = fabric(SEED);
    devices[2] = new FaultyCore(devices[2], FaultyCore.Fault.SEND_BELOW_LOOKAHEAD, 3);

    assertTimeoutPreemptively(LIMIT, () ->
        assertThatThrownBy(() -> PekkoWindowEngine.run(testKit.system(), devices, DeviceActorFactory.GENERIC,
            LOOKAHEAD_PS, GossipCore.starts(devices, LATE_START_PS), ProgressListener.NONE))
            .isInstanceOf(EngineFailedException.class)
            .hasMessageContaining("device 2 failed")
            .hasMessageContaining("lookahead violated"));
  }

  @Test
  void shouldThrowFromRunWhenDeviceReportFails() {
    DeviceCore[] devices = fabric(SEED);
    devices[7] = new FaultyCore(devices[7], FaultyCore.Fault.THROW_IN_REPORT, 0);

    assertTimeoutPreemptively(LIMIT, () ->
        assertThatThrownBy(() -> PekkoWindowEngine.run(testKit.system(), devices, DeviceActorFactory.GENERIC,
            LOOKAHEAD_PS, GossipCore.starts(devices, LATE_START_PS), ProgressListener.NONE))
            .isInstanceOf(EngineFailedException.class)
            .hasMessageContaining("device 7 failed while reporting")
            .hasMessageContaining("injected report fault"));
  }

  @Test
  void shouldFailAfterStallTimeoutWhenMessageCannotBeSerialized() {
    ActorTestKit shortStall = ActorTestKit.create("short-stall", ConfigFactory.parseString(
        PekkoWindowEngine.STALL_TIMEOUT_PATH + " = 1s")
        .withFallback(FaultyCore.withoutRegistration(ConfigFactory.load("application-test"))));
    try {
      DeviceCore[] devices = fabric(SEED);
      devices[4] = new FaultyCore(devices[4], FaultyCore.Fault.SEND_UNREGISTERED, 2);

      assertTimeoutPreemptively(LIMIT, () ->
          assertThatThrownBy(() -> PekkoWindowEngine.run(shortStall.system(), devices,
              DeviceActorFactory.GENERIC, LOOKAHEAD_PS, GossipCore.starts(devices, LATE_START_PS),
              ProgressListener.NONE))
              .isInstanceOf(EngineFailedException.class)
              .hasMessageContaining("no progress for 1 s while waiting for the windows after window ")
              .hasMessageContaining("fabemu.wire.registrations"));
    } finally {
      shortStall.shutdownTestKit();
    }
  }

  @Test
  void shouldRejectRunWhenInitialEventTargetsUnusedId() {
    DeviceCore[] devices = fabric(SEED);
    List<Event> events = List.of(new Event(0L, Event.EXTERNAL_SOURCE, 0L, UNUSED_ID,
        StartWorkload.INSTANCE));

    assertThatThrownBy(() -> PekkoWindowEngine.run(testKit.system(), devices, DeviceActorFactory.GENERIC,
        LOOKAHEAD_PS, events, ProgressListener.NONE))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("unknown device " + UNUSED_ID);
  }

  @Test
  void shouldKeepRunningWhenProgressListenerThrows() {
    EngineOutcome outcome = assertTimeoutPreemptively(LIMIT, () -> {
      DeviceCore[] devices = fabric(SEED);
      return PekkoWindowEngine.run(testKit.system(), devices, DeviceActorFactory.GENERIC, LOOKAHEAD_PS,
          GossipCore.starts(devices, LATE_START_PS), (done, timePs) -> {
            throw new IllegalStateException("display broken");
          });
    });

    assertThat(outcome.reports()).isEqualTo(plainRun(SEED).reports());
  }

  /** A device module's actor: extends the shell and adds its own behavior around ticks. */
  static final class CountingDeviceActor extends DeviceActor {
    private final AtomicInteger ticks;

    static Behavior<DeviceActor.Command> create(DeviceRunner runner, ActorRef<MemberScheduler.Command> scheduler,
                                                AtomicInteger ticks) {
      return Behaviors.setup(context -> new CountingDeviceActor(context, runner, scheduler, ticks));
    }

    private CountingDeviceActor(ActorContext<Command> context, DeviceRunner runner,
                                ActorRef<MemberScheduler.Command> scheduler, AtomicInteger ticks) {
      super(context, runner, scheduler);
      this.ticks = ticks;
    }

    @Override
    protected Behavior<Command> onTick(Tick tick) {
      ticks.incrementAndGet();
      return super.onTick(tick);
    }
  }
}
