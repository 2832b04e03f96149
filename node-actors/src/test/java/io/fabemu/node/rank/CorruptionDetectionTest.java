package io.fabemu.node.rank;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabemu.collectives.Algorithm;
import io.fabemu.collectives.Collective;
import io.fabemu.collectives.WorkloadSpec;
import io.fabemu.core.data.DataBuffer;
import io.fabemu.core.data.DataType;
import io.fabemu.core.data.ReduceOp;
import io.fabemu.core.protocol.Message;
import java.util.List;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;

/** The output check can fail: a payload corrupted in flight shows up as wrong elements. */
class CorruptionDetectionTest {

  @Test
  void shouldCountWrongElementsWhenOneDeliveredElementIsFlipped() {
    for (Collective c : List.of(Collective.ALLREDUCE, Collective.ALLGATHER, Collective.REDUCE_SCATTER,
        Collective.BROADCAST, Collective.ALLTOALL, Collective.SENDRECV)) {
      WorkloadSpec w = WorkloadSpec.builder(c, List.of(Algorithm.AUTO), List.of(4L * 16)).dataType(DataType.INT32)
          .build();
      IdealNetwork net = new IdealNetwork(1_000, 1).tamper(flipFirstElementOnce());
      RankWorkload[] ranks = net.createRanks(w, 4, 5);
      net.run();
      long wrong = 0;
      for (RankWorkload r : ranks) {
        assertThat(r.finished()).isTrue();
        wrong += r.results().get(0).wrongElements();
      }
      assertThat(wrong).as(c.configName()).isPositive();
    }
  }

  @Test
  void shouldCountWrongLocationWhenOnlyTheLocationIsCorrupted() {
    WorkloadSpec w = WorkloadSpec.builder(Collective.ALLREDUCE, List.of(Algorithm.RING), List.of(8L * 8))
        .dataType(DataType.INT32).op(ReduceOp.MAXLOC).build();
    UnaryOperator<Message> tamper = new UnaryOperator<>() {
      boolean done;

      @Override
      public Message apply(Message m) {
        if (done || m.data() == null) return m;
        done = true;
        DataBuffer copy = m.data().slice(0, m.data().count());
        // Every location: whichever elements the sender wins (or ties, since -1 is the smallest), one is wrong.
        for (int i = 0; i < copy.count(); i++) copy.setLocation(i, -1);
        return new Message(m.sourceRank(), m.destinationRank(), m.tag(), copy);
      }
    };
    IdealNetwork net = new IdealNetwork(1_000, 1).tamper(tamper);
    RankWorkload[] ranks = net.createRanks(w, 2, 5);
    net.run();
    assertThat(ranks[0].results().get(0).wrongElements() + ranks[1].results().get(0).wrongElements()).isPositive();
  }

  private static UnaryOperator<Message> flipFirstElementOnce() {
    return new UnaryOperator<>() {
      boolean done;

      @Override
      public Message apply(Message m) {
        if (done || m.data() == null || m.data().count() == 0) return m;
        done = true;
        DataBuffer copy = m.data().slice(0, m.data().count());
        copy.set(0, (long) copy.get(0) ^ 0x40);
        return new Message(m.sourceRank(), m.destinationRank(), m.tag(), copy);
      }
    };
  }
}
