package io.fabemu.node.rank;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabemu.collectives.Algorithm;
import io.fabemu.collectives.Collective;
import io.fabemu.collectives.LineProtocol;
import io.fabemu.collectives.ProtocolCost;
import io.fabemu.collectives.ProtocolSpec;
import io.fabemu.collectives.WorkloadSpec;
import io.fabemu.core.data.DataType;
import io.fabemu.core.protocol.LineFraming;
import io.fabemu.core.protocol.Message;
import io.fabemu.core.time.Units;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A protocol's costs at the rank: each message holds its engine for the payload at the protocol's rate, leaves the
 * protocol's latency later and carries its framing; the data stays exact. On a network that charges only a latency
 * per message, a ring allreduce takes exactly its steps times the sum.
 */
class ScheduleExecutorProtocolTest {
  private static final long ALPHA_PS = 1_000_000L;
  private static final long SEND_PS = 300_000L;
  private static final long RECV_PS = 500_000L;
  private static final int RANKS = 8;
  /** 4,096 int32 per rank: 2 KiB per ring step. */
  private static final int COUNT = 4_096;
  private static final long STEP_BYTES = 4L * COUNT / RANKS;

  private record Run(long latencyPs, List<Message> delivered) {}

  private static Run run(ProtocolSpec protocols) {
    WorkloadSpec w = WorkloadSpec.builder(Collective.ALLREDUCE, List.of(Algorithm.RING), List.of(4L * COUNT))
        .dataType(DataType.INT32).protocols(protocols).build();
    List<Message> delivered = new ArrayList<>();
    IdealNetwork net = new IdealNetwork(ALPHA_PS, 0).overheads(SEND_PS, RECV_PS, 0, 0).tamper(m -> {
      delivered.add(m);
      return m;
    });
    RankWorkload[] ranks = net.createRanks(w, RANKS, 5);
    net.run();
    long max = 0;
    for (RankWorkload r : ranks) {
      assertThat(r.results().get(0).wrongElements()).isZero();
      max = Math.max(max, r.results().get(0).maxLatencyPs());
    }
    return new Run(max, delivered);
  }

  private static ProtocolSpec only(LineProtocol protocol, ProtocolCost cost) {
    return new ProtocolSpec(List.of(protocol), cost, cost, cost, 1);
  }

  @Test
  void shouldAddNothingAndFrameNothingBySimpleAtNoCost() {
    Run simple = run(ProtocolSpec.SIMPLE_ONLY);
    assertThat(simple.latencyPs()).isEqualTo(2L * (RANKS - 1) * (SEND_PS + ALPHA_PS + RECV_PS));
    assertThat(simple.delivered()).isNotEmpty().allSatisfy(m -> assertThat(m.extension()).isNull());
  }

  @Test
  void shouldHoldTheEngineForThePayloadThenWaitTheLatencyAndFrameEveryMessage() {
    long latencyPs = 700_000L;
    ProtocolCost cost = new ProtocolCost(latencyPs, 16 * Units.GBPS);
    long enginePs = cost.enginePs(STEP_BYTES);
    assertThat(enginePs).isEqualTo(1_024_000L);

    Run ll = run(only(LineProtocol.LL, cost));

    assertThat(ll.latencyPs()).isEqualTo(2L * (RANKS - 1) * (SEND_PS + enginePs + latencyPs + ALPHA_PS + RECV_PS));
    // Every message of the collective carries LL's framing for the NIC (the barriers' empty ones need none).
    List<Message> withData = ll.delivered().stream().filter(m -> m.sizeBytes() > 0).toList();
    assertThat(withData).hasSize(2 * RANKS * (RANKS - 1))
        .allSatisfy(m -> assertThat(LineFraming.of(m)).isEqualTo(LineProtocol.LL.framing()));
  }

  @Test
  void shouldRunEachCaseByTheProtocolTheTunerChose() {
    // LL is free but for a slow engine; Simple costs a latency, LL128 a larger one: LL for the small case (32 B a
    // step), Simple for the large one (512 KiB a step: 524 us by LL, 7.2 us by Simple, 8.6 us by LL128).
    ProtocolSpec auto = new ProtocolSpec(List.of(LineProtocol.values()), new ProtocolCost(2_000_000L, 0),
        new ProtocolCost(0, 8 * Units.GBPS), new ProtocolCost(3_000_000L, 0), 800 * Units.GBPS);
    WorkloadSpec w = WorkloadSpec.builder(Collective.ALLREDUCE, List.of(Algorithm.RING), List.of(256L, 4L << 20))
        .dataType(DataType.INT32).protocols(auto).build();
    assertThat(w.protocolOfCase(0, RANKS, 1)).isEqualTo(LineProtocol.LL);
    assertThat(w.protocolOfCase(1, RANKS, 1)).isEqualTo(LineProtocol.SIMPLE);
    List<Message> delivered = new ArrayList<>();
    IdealNetwork net = new IdealNetwork(ALPHA_PS, 0).tamper(m -> {
      delivered.add(m);
      return m;
    });
    RankWorkload[] ranks = net.createRanks(w, RANKS, 5);
    net.run();
    for (RankWorkload r : ranks) {
      assertThat(r.results()).allSatisfy(c -> assertThat(c.wrongElements()).isZero());
    }
    assertThat(delivered.stream().filter(m -> m.sizeBytes() == 32)).isNotEmpty()
        .allSatisfy(m -> assertThat(LineFraming.of(m)).isEqualTo(LineProtocol.LL.framing()));
    assertThat(delivered.stream().filter(m -> m.sizeBytes() == (4L << 20) / RANKS)).isNotEmpty()
        .allSatisfy(m -> assertThat(m.extension()).isNull());
  }
}
