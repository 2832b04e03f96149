package io.fabemu.node.rank;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabemu.collectives.Algorithm;
import io.fabemu.collectives.ChannelRingAllreduce;
import io.fabemu.collectives.Collective;
import io.fabemu.collectives.WorkloadSpec;
import io.fabemu.core.data.DataType;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A rank's engines: the transfers of a step on different lanes run on their own clocks. On a network that charges
 * only a latency per message (no bytes), a ring on C channels with C engines takes exactly as long as one ring; with
 * one engine, every step pays C times the send and receive overheads.
 */
class ScheduleExecutorEnginesTest {
  private static final long ALPHA_PS = 1_000_000L;
  private static final long SEND_PS = 300_000L;
  private static final long RECV_PS = 500_000L;
  private static final int CHANNELS = 4;
  private static final int RANKS = 8;

  private static long latency(int channels, int engines) {
    int count = (int) (CHANNELS * ChannelRingAllreduce.MIN_CHUNK_BYTES * RANKS / 4);
    long sizeBytes = 4L * count;
    WorkloadSpec w = WorkloadSpec.builder(Collective.ALLREDUCE, List.of(Algorithm.RING), List.of(sizeBytes))
        .dataType(DataType.INT32).ppn(4).channels(channels).build();
    IdealNetwork net = new IdealNetwork(ALPHA_PS, 0).overheads(SEND_PS, RECV_PS, 0, 0).engines(engines);
    RankWorkload[] ranks = net.createRanks(w, RANKS, 11);
    net.run();
    long max = 0;
    for (RankWorkload r : ranks) {
      assertThat(r.results().get(0).wrongElements()).isZero();
      max = Math.max(max, r.results().get(0).maxLatencyPs());
    }
    return max;
  }

  @Test
  void shouldTakeOneRingsTimeWhenEveryChannelHasItsEngine() {
    long oneRing = latency(1, 1);
    assertThat(oneRing).isEqualTo(2L * (RANKS - 1) * (SEND_PS + ALPHA_PS + RECV_PS));
    assertThat(latency(CHANNELS, CHANNELS)).isEqualTo(oneRing);
    // More engines than channels change nothing: the spare ones stay idle.
    assertThat(latency(CHANNELS, 16)).isEqualTo(oneRing);
  }

  @Test
  void shouldPayEveryChannelsOverheadsInTurnWithOneEngine() {
    long oneEngine = latency(CHANNELS, 1);
    // Each step: the C sends one after another, the last message's latency, then its receive (the others' receives
    // were applied while it travelled, or queue behind one another).
    assertThat(oneEngine).isGreaterThan(latency(1, 1));
    assertThat(oneEngine).isGreaterThanOrEqualTo(2L * (RANKS - 1) * (CHANNELS * SEND_PS + ALPHA_PS + RECV_PS));
  }
}
