package io.fabemu.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import io.fabemu.core.data.DataBuffer;
import io.fabemu.core.data.DataType;
import io.fabemu.core.device.DeviceProtocol.MessageInfo;
import io.fabemu.core.device.DeviceProtocol.Packet;
import io.fabemu.core.engine.DeviceCore;
import io.fabemu.core.engine.Event;
import io.fabemu.core.engine.ProgressListener;
import io.fabemu.core.engine.WindowedEngine;
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
      testKit.spawn(MemberAgent.create(seed -> fabric((Long) seed), DeviceActorFactory.GENERIC), "agent-" + i);
    }
  }

  @AfterAll
  static void stopSystem() {
    testKit.shutdownTestKit();
  }

  private static DeviceCore[] fabric(long seed) {
    return GossipCore.fabric(DEVICES, UNUSED_ID, LOOKAHEAD_PS, HOPS, seed);
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
      DeviceCore[] plainDevices = fabric(seed);
      WindowedEngine plain = new WindowedEngine(plainDevices, LOOKAHEAD_PS);
      GossipCore.starts(plainDevices, LATE_START_PS).forEach(plain::inject);
      plain.run();
      List<Event> starts = GossipCore.starts(fabric(seed), LATE_START_PS);

      for (int members = 1; members <= 3; members++) {
        int n = members;
        long s = seed;
        EngineOutcome outcome = assertTimeoutPreemptively(LIMIT, () -> PekkoWindowEngine.runDistributed(
            testKit.system(), n, s, interleaved(n), LOOKAHEAD_PS, starts, ProgressListener.NONE, LIMIT));

        assertThat(outcome.reports()).as("seed %d on %d member(s)", seed, n).isEqualTo(plain.reports());
        assertThat(outcome.windows()).isEqualTo(plain.windows());
        assertThat(outcome.events()).isEqualTo(plain.eventsHandled());
        assertThat(outcome.lastWindowStartPs()).isEqualTo(plain.lastWindowStartPs());
      }
    }
  }

  @Test
  void shouldCutBatchesByCountAndBytesWhenManyOrLargeEventsCross() {
    List<Event> small = new ArrayList<>();
    for (int i = 0; i < 2_500; i++) {
      small.add(new Event(i, 1, i, 2, new GossipCore.Wake(1)));
    }
    assertThat(MemberScheduler.chunks(small, MemberScheduler.MAX_BATCH_EVENTS, MemberScheduler.MAX_BATCH_BYTES))
        .extracting(List::size).containsExactly(1_000, 1_000, 500);

    DataBuffer slice = DataBuffer.wrap(DataType.FLOAT32, new float[100_000], null);  // 400 kB
    MessageInfo info = new MessageInfo(1, 2, 9L, slice.count(), slice.type(), false, slice.sizeBytes());
    List<Event> large = new ArrayList<>();
    for (int i = 0; i < 5; i++) {
      large.add(new Event(i, 1, i, 2, new Packet(1, 2, 9L, i, 5, 400_064, i, info, 0, slice)));
    }
    assertThat(MemberScheduler.chunks(large, MemberScheduler.MAX_BATCH_EVENTS, MemberScheduler.MAX_BATCH_BYTES))
        .extracting(List::size).containsExactly(2, 2, 1);
  }
}
