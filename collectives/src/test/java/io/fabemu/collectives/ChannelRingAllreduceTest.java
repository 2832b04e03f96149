package io.fabemu.collectives;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The channels' rings, how many a size gets, and the schedule's shape; exactness is CollectiveCorrectness's. */
class ChannelRingAllreduceTest {

  @Test
  void shouldGiveEachChannelAtLeast64KibPerRankAndEveryRankAnElement() {
    long mib = 1L << 20;
    assertThat(ChannelRingAllreduce.channelsFor(64 * mib, (int) (16 * mib), 16, 8)).isEqualTo(8);
    assertThat(ChannelRingAllreduce.channelsFor(4 * mib, (int) mib, 16, 8)).isEqualTo(4);
    assertThat(ChannelRingAllreduce.channelsFor(4 * mib, (int) mib, 8, 8)).isEqualTo(8);
    assertThat(ChannelRingAllreduce.channelsFor(mib, 262_144, 32, 8)).isEqualTo(1);
    assertThat(ChannelRingAllreduce.channelsFor(1024, 256, 8, 8)).isEqualTo(1);
    assertThat(ChannelRingAllreduce.channelsFor(64 * mib, 3, 2, 8)).as("one element per rank").isEqualTo(1);
    assertThat(ChannelRingAllreduce.channelsFor(64 * mib, (int) (16 * mib), 16, 1)).isEqualTo(1);
  }

  @Test
  void shouldVisitEveryRankOnceOnEveryChannelAndCrossBetweenServersOnOneRail() {
    int gpus = 8;
    for (int servers : new int[] {1, 2, 3, 4}) {
      int p = servers * gpus;
      for (int c = 0; c < 8; c++) {
        Set<Integer> seen = new HashSet<>();
        Set<Integer> leavingGpus = new HashSet<>();
        for (int position = 0; position < p; position++) {
          int rank = ChannelRingAllreduce.rankAt(position, c, gpus);
          assertThat(ChannelRingAllreduce.positionOf(rank, c, gpus)).isEqualTo(position);
          seen.add(rank);
          int next = ChannelRingAllreduce.rankAt((position + 1) % p, c, gpus);
          if (next / gpus == rank / gpus) {
            assertThat(Math.floorMod(next - rank, gpus)).as("within a server, a neighbouring GPU")
                .isIn(1, gpus - 1);
            continue;
          }
          leavingGpus.add(rank % gpus);
          boolean wrapOfAnOddCount = servers % 2 == 1 && position == p - 1;
          if (!wrapOfAnOddCount) {
            assertThat(next % gpus).as("servers %d channel %d: one rail from rank %d", servers, c, rank)
                .isEqualTo(rank % gpus);
          }
        }
        assertThat(seen).hasSize(p);
        if (servers > 1) {
          // Even to odd on rail c - 1, odd to even on rail c (and the odd count's wrap leaves from c - 1 too).
          assertThat(leavingGpus).isSubsetOf((c + gpus - 1) % gpus, c);
        }
      }
    }
  }

  @Test
  void shouldSendOneMessagePerChannelInEveryStepOnItsOwnLane() {
    int p = 8;
    int channels = 3;
    Schedule s = Schedules.build(Collective.ALLREDUCE, Algorithm.RING, 5, p, 100, 0, false, 4, 1, RankLayout.NONE,
        channels);
    int sendingSteps = 0;
    for (int i = 0; i < s.stepCount(); i++) {
      Step step = s.step(i);
      int sends = step.sendCount();
      if (sends == 0) continue;
      sendingSteps++;
      assertThat(sends).isEqualTo(channels);
      Set<Integer> lanes = new HashSet<>();
      for (int j = 0; j < sends; j++) lanes.add(Tags.index(step.send(j).channel()));
      assertThat(lanes).containsExactlyInAnyOrder(0, 1, 2);
    }
    assertThat(sendingSteps).isEqualTo(2 * (p - 1));
  }

  @Test
  void shouldMatchEverySendWithOneReceiveOfTheSameSizeOnAnyWorldServerAndChannels() {
    for (int[] shape : new int[][] {{6, 3}, {8, 4}, {16, 8}, {5, 1}, {12, 5}}) {
      int p = shape[0];
      int ppn = shape[1];
      for (int channels : new int[] {2, 5, 8}) {
        for (int count : new int[] {7, 100}) {
          java.util.Map<String, Integer> sends = new java.util.HashMap<>();
          java.util.Map<String, Integer> receives = new java.util.HashMap<>();
          for (int rank = 0; rank < p; rank++) {
            Schedule s = Schedules.build(Collective.ALLREDUCE, Algorithm.RING, rank, p, count, 0, false, ppn, 1,
                RankLayout.NONE, channels);
            for (int i = 0; i < s.stepCount(); i++) {
              Step step = s.step(i);
              for (int j = 0; j < step.sendCount(); j++) {
                Transfer t = step.send(j);
                assertThat(sends.put(rank + ">" + t.peer() + "#" + t.channel(), t.count())).isNull();
              }
              for (int j = 0; j < step.receiveCount(); j++) {
                Transfer t = step.receive(j);
                assertThat(receives.put(t.peer() + ">" + rank + "#" + t.channel(), t.count())).isNull();
              }
            }
          }
          assertThat(receives).as("p=%d ppn=%d channels=%d count=%d", p, ppn, channels, count).isEqualTo(sends);
        }
      }
    }
  }

  @Test
  void shouldRefuseMoreChannelsThanLanes() {
    assertThatThrownBy(() -> Schedules.build(Collective.ALLREDUCE, Algorithm.RING, 0, 4, 100, 0, false, 1, 1,
        RankLayout.NONE, 17)).isInstanceOf(IllegalArgumentException.class).hasMessage("channels must be 1 to 16, got 17");
  }
}
