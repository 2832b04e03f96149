package io.fabemu.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabemu.core.sim.DeviceCore;
import io.fabemu.core.sim.WindowedEngine;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.apache.pekko.actor.testkit.typed.javadsl.ActorTestKit;
import org.apache.pekko.actor.testkit.typed.javadsl.TestProbe;
import org.apache.pekko.actor.typed.ActorRef;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * What a member scheduler tells its coordinator between windows: a {@link Coordinator.WindowsDone} every
 * {@link MemberScheduler#SUMMARY_EVERY}th window and after the last, and no more than
 * {@link MemberScheduler#MAX_WINDOWS_AHEAD} windows beyond the last one acknowledged. The coordinator is a probe.
 */
class MemberSchedulerSummaryTest {
  private static final long LOOKAHEAD_PS = 1_000L;
  private static final long LATE_START_PS = 40_000_000L;
  private static final int DEVICES = 17;
  private static final int UNUSED_ID = 5;
  private static final int HOPS = 40;
  private static final long SEED = 11L;
  private static final Duration WAIT = Duration.ofSeconds(20);

  private static ActorTestKit testKit;

  @BeforeAll
  static void startSystem() {
    testKit = ActorTestKit.create();
  }

  @AfterAll
  static void stopSystem() {
    testKit.shutdownTestKit();
  }

  private static DeviceCore[] fabric() {
    return GossipCore.fabric(DEVICES, UNUSED_ID, LOOKAHEAD_PS, HOPS, SEED);
  }

  private static WindowedEngine plainRun() {
    return GossipCore.plainRun(fabric(), LOOKAHEAD_PS, LATE_START_PS);
  }

  private static ActorRef<MemberScheduler.Command> startMember(TestProbe<Coordinator.Command> coordinator) {
    DeviceCore[] devices = fabric();
    ActorRef<MemberScheduler.Command> member = testKit.spawn(MemberScheduler.create(0, 1, devices, LOOKAHEAD_PS,
        DeviceActorFactory.GENERIC, coordinator.ref()));
    member.tell(new MemberScheduler.Inject(new ArrayList<>(GossipCore.starts(devices, LATE_START_PS))));
    return member;
  }

  @Test
  void shouldSummarizeEverySixteenthWindowAndTheLastWithEveryEventCounted() {
    WindowedEngine plain = plainRun();
    assertThat(plain.windows()).as("enough windows for several summaries and flow control")
        .isGreaterThan(2 * MemberScheduler.MAX_WINDOWS_AHEAD);
    TestProbe<Coordinator.Command> coordinator = testKit.createTestProbe();
    ActorRef<MemberScheduler.Command> member = startMember(coordinator);

    List<Coordinator.WindowsDone> summaries = new ArrayList<>();
    while (summaries.isEmpty() || !summaries.get(summaries.size() - 1).ended()) {
      Coordinator.WindowsDone done = coordinator.expectMessageClass(Coordinator.WindowsDone.class, WAIT);
      summaries.add(done);
      member.tell(new MemberScheduler.WindowsSeen(done.windowIndex()));
    }

    Coordinator.WindowsDone last = summaries.get(summaries.size() - 1);
    assertThat(last.windowIndex()).as("the last window").isEqualTo(plain.windows());
    assertThat(last.windowEndPs()).isEqualTo(plain.lastWindowStartPs() + LOOKAHEAD_PS);
    for (int i = 0; i < summaries.size() - 1; i++) {
      assertThat(summaries.get(i).windowIndex()).isEqualTo(i * MemberScheduler.SUMMARY_EVERY);
      assertThat(summaries.get(i).ended()).isFalse();
    }
    assertThat(summaries.get(0).windowEndPs()).as("window 0 is the injection").isZero();
    assertThat(summaries.stream().mapToLong(Coordinator.WindowsDone::eventsHandled).sum())
        .isEqualTo(plain.eventsHandled());
    coordinator.expectNoMessage(Duration.ofMillis(200));
    testKit.stop(member);
  }

  @Test
  void shouldRunAtMostMaxWindowsAheadOfTheLastAcknowledgement() {
    TestProbe<Coordinator.Command> coordinator = testKit.createTestProbe();
    ActorRef<MemberScheduler.Command> member = startMember(coordinator);

    // Never acknowledged: the member reports windows 0, 16, ..., MAX_WINDOWS_AHEAD, then waits.
    long expected = 0;
    while (expected <= MemberScheduler.MAX_WINDOWS_AHEAD) {
      Coordinator.WindowsDone done = coordinator.expectMessageClass(Coordinator.WindowsDone.class, WAIT);
      assertThat(done.windowIndex()).isEqualTo(expected);
      assertThat(done.ended()).isFalse();
      expected += MemberScheduler.SUMMARY_EVERY;
    }
    coordinator.expectNoMessage(Duration.ofMillis(500));

    member.tell(new MemberScheduler.WindowsSeen(MemberScheduler.SUMMARY_EVERY));
    Coordinator.WindowsDone next = coordinator.expectMessageClass(Coordinator.WindowsDone.class, WAIT);
    assertThat(next.windowIndex()).as("the acknowledgement let it run on")
        .isEqualTo(MemberScheduler.MAX_WINDOWS_AHEAD + MemberScheduler.SUMMARY_EVERY);
    testKit.stop(member);
  }
}
