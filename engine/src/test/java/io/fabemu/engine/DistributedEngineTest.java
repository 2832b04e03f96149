package io.fabemu.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import io.fabemu.core.data.DataBuffer;
import io.fabemu.core.data.DataType;
import io.fabemu.core.protocol.DeviceProtocol.MessageInfo;
import io.fabemu.core.protocol.DeviceProtocol.Packet;
import io.fabemu.core.sim.DeviceCore;
import io.fabemu.core.sim.Event;
import io.fabemu.core.sim.ProgressListener;
import io.fabemu.core.sim.RunBlueprint;
import io.fabemu.core.sim.WindowedEngine;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.apache.pekko.actor.testkit.typed.javadsl.ActorTestKit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The multi-member protocol inside one actor system: three member agents (found through the local receptionist),
 * every message serialized (serialize-messages = on), devices interleaved over members so most events cross.
 */
class DistributedEngineTest {
  private static final long LOOKAHEAD_PS = 1_000L;
  private static final long LATE_START_PS = 40_000_000L;
  private static final int DEVICES = 17;
  private static final int UNUSED_ID = 5;
  private static final int HOPS = 12;
  private static final Duration LIMIT = Duration.ofSeconds(30);

  private static ActorTestKit testKit;

  @BeforeAll
  static void startSystem() {
    testKit = ActorTestKit.create();
    for (int i = 0; i < 3; i++) {
      testKit.spawn(MemberAgent.create(DistributedEngineTest::build, DeviceActorFactory.GENERIC), "agent-" + i);
    }
  }

  @AfterAll
  static void stopSystem() {
    testKit.shutdownTestKit();
  }

  private static DeviceCore[] fabric(long seed) {
    return GossipCore.fabric(DEVICES, UNUSED_ID, LOOKAHEAD_PS, HOPS, seed);
  }

  /** Zones of devices ({@code id % ZONES}); a packet between zones takes CROSS_EXTRA_PS longer. */
  private static final int ZONES = 3;
  private static final long CROSS_EXTRA_PS = 2 * LOOKAHEAD_PS;

  private static DeviceCore[] zonedFabric(long seed) {
    return GossipCore.zonedFabric(DEVICES, UNUSED_ID, LOOKAHEAD_PS, HOPS, seed, ZONES, CROSS_EXTRA_PS);
  }

  /** What each member builds from its {@link GossipBlueprint}: the plain gossip, the zoned one, or big packets. */
  private static DeviceCore[] build(RunBlueprint scenario) {
    GossipBlueprint gossip = (GossipBlueprint) scenario;
    if (!gossip.zoned()) return fabric(gossip.seed());
    return gossip.big() ? bigPackets(gossip.seed(), gossip.hops(), gossip.elements()) : zonedFabric(gossip.seed());
  }

  private static DeviceCore[] bigPackets(long seed, int hops, int elements) {
    return GossipCore.withElementsPerPacket(
        GossipCore.zonedFabric(DEVICES, UNUSED_ID, LOOKAHEAD_PS, hops, seed, ZONES, CROSS_EXTRA_PS), elements);
  }

  /** Zone z on member z % members, so that every event between members crosses zones. */
  private static int[] byZone(int members) {
    int[] plan = new int[DEVICES];
    for (int id = 0; id < DEVICES; id++) {
      plan[id] = (id % ZONES) % members;
    }
    return plan;
  }

  private static int[] interleaved(int members) {
    int[] plan = new int[DEVICES];
    for (int id = 0; id < DEVICES; id++) {
      plan[id] = id % members;
    }
    return plan;
  }

  @Test
  void shouldMatchThePlainEngineWhenDevicesAreInterleavedOverMembers() {
    for (long seed = 1; seed <= 3; seed++) {
      WindowedEngine plain = GossipCore.plainRun(fabric(seed), LOOKAHEAD_PS, LATE_START_PS);
      List<Event> starts = GossipCore.starts(fabric(seed), LATE_START_PS);

      for (int members = 1; members <= 3; members++) {
        int n = members;
        long s = seed;
        EngineOutcome outcome = assertTimeoutPreemptively(LIMIT, () -> PekkoWindowEngine.runDistributed(
            testKit.system(), n, GossipBlueprint.plain(s), interleaved(n), LOOKAHEAD_PS, starts, ProgressListener.NONE,
            LIMIT));

        assertThat(outcome.reports()).as("seed %d on %d member(s)", seed, n).isEqualTo(plain.reports());
        assertThat(outcome.windows()).isEqualTo(plain.windows());
        assertThat(outcome.events()).isEqualTo(plain.eventsHandled());
        assertThat(outcome.lastEventTimePs()).isEqualTo(plain.lastEventTimePs());
      }
    }
  }

  @Test
  void shouldMatchThePlainEngineWithFewerGlobalWindowsWhenMembersRunSubWindows() {
    long crossLookaheadPs = LOOKAHEAD_PS + CROSS_EXTRA_PS;
    for (long seed = 1; seed <= 2; seed++) {
      WindowedEngine plain = GossipCore.plainRun(zonedFabric(seed), LOOKAHEAD_PS, LATE_START_PS);
      List<Event> starts = GossipCore.starts(zonedFabric(seed), LATE_START_PS);
      assertThat(plain.eventsHandled()).as("a non-trivial scenario").isGreaterThan(1_000);

      for (int members = 1; members <= 3; members++) {
        int n = members;
        // One member: nothing crosses, so the global window is the lookahead (as PlacementPlan gives it).
        long windowPs = n == 1 ? LOOKAHEAD_PS : crossLookaheadPs;
        RunBlueprint scenario = GossipBlueprint.zoned(seed);
        EngineOutcome outcome = assertTimeoutPreemptively(LIMIT, () -> PekkoWindowEngine.runDistributed(
            testKit.system(), n, scenario, byZone(n), LOOKAHEAD_PS, windowPs, starts, ProgressListener.NONE, LIMIT,
            MemberWatcher.NONE));

        assertThat(outcome.reports()).as("seed %d on %d member(s)", seed, n).isEqualTo(plain.reports());
        assertThat(outcome.events()).isEqualTo(plain.eventsHandled());
        assertThat(outcome.lastEventTimePs()).isEqualTo(plain.lastEventTimePs());
        if (n == 1) {
          assertThat(outcome.windows()).isEqualTo(plain.windows());
        } else {
          assertThat(outcome.windows()).as("global windows on %d members", n).isLessThan(plain.windows());
        }
      }
    }
  }

  @Test
  void shouldDeliverEveryChunkWhenAWindowsEventsForAMemberFillSeveralBatches() {
    // 150,000 floats (600 kB) per packet: two events to one member in one window exceed a batch's ~1 MiB.
    int hops = 2;
    int elements = 150_000;
    WindowedEngine plain = GossipCore.plainRun(bigPackets(7L, hops, elements), LOOKAHEAD_PS, LATE_START_PS);
    List<Event> starts = GossipCore.starts(bigPackets(7L, hops, elements), LATE_START_PS);

    EngineOutcome outcome = assertTimeoutPreemptively(LIMIT, () -> PekkoWindowEngine.runDistributed(
        testKit.system(), 3, GossipBlueprint.bigPackets(7L, hops, elements), byZone(3), LOOKAHEAD_PS,
        LOOKAHEAD_PS + CROSS_EXTRA_PS, starts, ProgressListener.NONE, LIMIT, MemberWatcher.NONE));

    assertThat(outcome.reports()).isEqualTo(plain.reports());
    assertThat(outcome.events()).isEqualTo(plain.eventsHandled());
  }

  @Test
  void shouldFailNamingTheDeviceWhenAnEventCrossesMembersBelowTheGlobalWindow() {
    // Packets between zones take at least 3 lookaheads; a global window of 4 is too long.
    List<Event> starts = GossipCore.starts(zonedFabric(1), LATE_START_PS);

    assertTimeoutPreemptively(LIMIT, () -> assertThatThrownBy(() -> PekkoWindowEngine.runDistributed(
        testKit.system(), 3, GossipBlueprint.zoned(1L), byZone(3), LOOKAHEAD_PS, 4 * LOOKAHEAD_PS, starts,
        ProgressListener.NONE, LIMIT, MemberWatcher.NONE))
        .isInstanceOf(EngineFailedException.class)
        .hasMessageContaining("lookahead violated across members")
        .hasMessageContaining("before the global window's end"));
  }

  @Test
  void shouldRejectAGlobalWindowShorterThanTheLookahead() {
    assertThatThrownBy(() -> PekkoWindowEngine.runDistributed(testKit.system(), 2, GossipBlueprint.plain(1L), byZone(2),
        LOOKAHEAD_PS, LOOKAHEAD_PS - 1, List.of(), ProgressListener.NONE, LIMIT, MemberWatcher.NONE))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("at least the lookahead");
  }

  @Test
  void shouldCutBatchesByCountAndBytesWhenManyOrLargeEventsCross() {
    List<Event> small = new ArrayList<>();
    for (int i = 0; i < 2_500; i++) {
      small.add(new Event(i, 1, i, 2, GossipCore.wake(1)));
    }
    assertThat(MemberScheduler.chunks(small, MemberScheduler.MAX_BATCH_EVENTS, MemberScheduler.MAX_BATCH_BYTES))
        .extracting(List::size).containsExactly(1_000, 1_000, 500);

    DataBuffer slice = DataBuffer.wrap(DataType.FLOAT32, new float[100_000], null);  // 400 kB
    MessageInfo info = new MessageInfo(1, 2, 9L, slice.count(), slice.type(), false, slice.sizeBytes());
    List<Event> large = new ArrayList<>();
    for (int i = 0; i < 5; i++) {
      large.add(new Event(i, 1, i, 2, Packet.builder().sourceHost(1).destinationHost(2).messageId(9L).segmentIndex(i)
          .segmentCount(5).wireBytes(400_064).tailTimePs(i).info(info).elementOffset(0).slice(slice).build()));
    }
    assertThat(MemberScheduler.chunks(large, MemberScheduler.MAX_BATCH_EVENTS, MemberScheduler.MAX_BATCH_BYTES))
        .extracting(List::size).containsExactly(2, 2, 1);
  }
}
