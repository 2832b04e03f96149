package io.fabemu.node.rank;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabemu.collectives.Algorithm;
import io.fabemu.collectives.BufferId;
import io.fabemu.collectives.Collective;
import io.fabemu.collectives.InputGenerator;
import io.fabemu.collectives.RankGrid;
import io.fabemu.collectives.RankLayout;
import io.fabemu.collectives.Schedule;
import io.fabemu.collectives.ScheduleBuilder;
import io.fabemu.collectives.Schedules;
import io.fabemu.collectives.Tags;
import io.fabemu.collectives.TestRings;
import io.fabemu.collectives.WorkloadSpec;
import io.fabemu.core.data.DataBuffer;
import io.fabemu.core.data.DataType;
import io.fabemu.core.data.ReduceOp;
import io.fabemu.core.protocol.Message;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Messages that arrive before their receive is posted (late ranks, reordering, the next operation's). */
class UnexpectedMessageTest {

  @Test
  void shouldKeepMessagesWhenTheyArriveBeforeTheRankStarts() {
    WorkloadSpec w = Workloads.of(Collective.ALLREDUCE, Algorithm.RING, 4 * 40, DataType.INT32, ReduceOp.SUM);
    IdealNetwork net = new IdealNetwork(1_000_000, 100);
    RankWorkload[] ranks = net.createRanks(w, 8, 3);
    long[] starts = new long[8];
    starts[3] = 50_000_000; // rank 3 starts 50 us late: its left neighbour's messages wait for it
    net.run(starts);
    assertThat(net.maxUnexpected()).isPositive();
    for (RankWorkload r : ranks) {
      assertThat(r.finished()).isTrue();
      assertThat(r.results().get(0).wrongElements()).isZero();
      assertThat(r.unexpectedMessages()).isZero();
    }
  }

  @Test
  void shouldComputeExactResultsWhenTheNetworkReordersMessages() {
    int mostQueued = 0;
    for (Collective c : Collective.values()) {
      // A pipeline needs its pipeline and an optical layout: PipelineCorrectnessTest reorders its messages too.
      if (c == Collective.PIPELINE) continue;
      for (Algorithm a : Algorithm.validFor(c)) {
        for (int p : new int[] {5, 8}) {
          ReduceOp op = c.reduces() ? ReduceOp.MAXLOC : ReduceOp.SUM;
          int count = 11;
          long size = (long) count * Schedules.elementBytes(c, DataType.INT32, op);
          WorkloadSpec w = WorkloadSpec.builder(c, List.of(a), List.of(size)).iterations(3).warmup(1).ppn(2)
              .dataType(DataType.INT32).op(op).root(p - 1).build();
          // Deterministic jitter of up to 20 alpha: later messages often overtake earlier ones.
          IdealNetwork net = new IdealNetwork(1_000_000, 10)
              .jitter((m, seq) -> Math.floorMod(InputGenerator.SplitMix.mix(seq * 31 + 7), 20_000_000L));
          // The embedded-ring algorithms run on a random ring, its reverse and two more random rings.
          RankWorkload[] ranks = net.createRanks(w, p, 11, new RankLayout(
              a == Algorithm.DIMENSION_RING ? RankGrid.of(p == 8 ? new int[] {2, 2, 2} : new int[] {p}) : null,
              a.onEmbeddedRings() ? TestRings.withReverse(p, 2, p) : null));
          net.run();
          mostQueued = Math.max(mostQueued, net.maxUnexpected());
          for (RankWorkload r : ranks) {
            assertThat(r.finished()).as("%s %s p=%d", c, a, p).isTrue();
            assertThat(r.results().get(0).wrongElements()).as("%s %s p=%d rank %d", c, a, p, r.rank()).isZero();
          }
        }
      }
    }
    assertThat(mostQueued).isGreaterThan(1);
  }

  @Test
  void shouldMatchQueuedMessagesOfLaterStepsAndLaterOperationsWhenTheirReceivesArePosted() {
    RecordingHost host = new RecordingHost();
    ScheduleExecutor executor = new ScheduleExecutor(0, host);
    ScheduleBuilder b = new ScheduleBuilder(0).buffers(0, 2);
    b.receive(1, BufferId.OUTPUT, 0, 1, false, 0).endStep();
    b.receive(1, BufferId.OUTPUT, 1, 1, true, 1).endStep();
    Schedule schedule = b.build();
    DataBuffer out = DataBuffer.allocate(DataType.INT64, 2, false);
    DataBuffer[] buffers = {null, out, null};

    // Operation 1's message arrives before operation 0 even begins; operation 0's round-1 message before round 0.
    executor.onMessage(10, message(Tags.tag(1, Tags.channel(0, 0, 0)), 100));
    executor.onMessage(20, message(Tags.tag(0, Tags.channel(0, 1, 0)), 5));
    assertThat(executor.unexpectedMessages()).isEqualTo(2);

    executor.begin(schedule, buffers, ReduceOp.SUM, 0, 30);
    assertThat(executor.active()).isTrue();
    assertThat(executor.unexpectedMessages()).isEqualTo(2);
    executor.onMessage(40, message(Tags.tag(0, Tags.channel(0, 0, 0)), 7));
    // Round 0 applied at 40 + 2, then the queued round-1 message reduced at once.
    assertThat(executor.active()).isFalse();
    assertThat(out.get(0)).isEqualTo(7.0);
    assertThat(out.get(1)).isEqualTo(5.0);
    assertThat(executor.cpuFreePs()).isEqualTo(40 + 2 + 2 + 8);
    assertThat(executor.unexpectedMessages()).isEqualTo(1);

    executor.begin(schedule, buffers, ReduceOp.SUM, 1, 0);
    assertThat(executor.unexpectedMessages()).isZero();
    assertThat(executor.pendingReceives()).isEqualTo(1);
    assertThat(out.get(0)).isEqualTo(100.0);
    executor.onMessage(60, message(Tags.tag(1, Tags.channel(0, 1, 0)), 1));
    assertThat(executor.active()).isFalse();
    assertThat(out.get(1)).isEqualTo(5.0 + 1.0); // reduced into what operation 0 left
  }

  @Test
  void shouldDeliverFirstInFirstOutWhenTwoMessagesShareSourceAndTag() {
    ScheduleExecutor executor = new ScheduleExecutor(0, new RecordingHost());
    ScheduleBuilder b = new ScheduleBuilder(0).buffers(0, 1);
    b.receive(1, BufferId.OUTPUT, 0, 1, false, 0).endStep();
    Schedule schedule = b.build();
    DataBuffer out = DataBuffer.allocate(DataType.INT64, 1, false);
    long tag = Tags.tag(0, Tags.channel(0, 0, 0));
    executor.onMessage(1, message(tag, 1));
    executor.onMessage(2, message(tag, 2));
    executor.begin(schedule, new DataBuffer[] {null, out, null}, null, 0, 5);
    assertThat(out.get(0)).isEqualTo(1.0);
    executor.begin(schedule, new DataBuffer[] {null, out, null}, null, 0, 5);
    assertThat(out.get(0)).isEqualTo(2.0);
    assertThat(executor.unexpectedMessages()).isZero();
  }

  @Test
  void shouldSendSizesAndChargeReduceByBytesWhenOperationIsSynthetic() {
    RecordingHost host = new RecordingHost();
    ScheduleExecutor executor = new ScheduleExecutor(0, host);
    ScheduleBuilder b = new ScheduleBuilder(0).buffers(3, 3);
    b.send(1, BufferId.INPUT, 0, 3, 0).receive(1, BufferId.OUTPUT, 0, 3, true, 0).endStep();
    Schedule schedule = b.build();

    executor.beginSynthetic(schedule, 12, 0, 10);
    long tag = Tags.tag(0, Tags.channel(0, 0, 0));
    executor.onMessage(20, Message.synthetic(1, 0, tag, 36));

    assertThat(host.sent).containsExactly(Message.synthetic(0, 1, tag, 36));
    assertThat(executor.active()).isFalse();
    assertThat(executor.cpuFreePs()).as("receive overhead + reduce of 36 B").isEqualTo(20 + 2 + 36);
  }

  @Test
  void shouldRejectMessageWhenItsSizeOrDataDoesNotFitTheSyntheticReceive() {
    ScheduleBuilder b = new ScheduleBuilder(0).buffers(0, 2);
    b.receive(1, BufferId.OUTPUT, 0, 2, false, 0).endStep();
    Schedule schedule = b.build();
    long tag = Tags.tag(0, Tags.channel(0, 0, 0));
    ScheduleExecutor wrongSize = new ScheduleExecutor(0, new RecordingHost());
    wrongSize.beginSynthetic(schedule, 8, 0, 0);
    ScheduleExecutor withData = new ScheduleExecutor(0, new RecordingHost());
    withData.beginSynthetic(schedule, 8, 0, 0);

    assertThatThrownBy(() -> wrongSize.onMessage(5, Message.synthetic(1, 0, tag, 8)))
        .isInstanceOf(IllegalStateException.class).hasMessageContaining("has 8 B, the synthetic receive expects 16 B");
    assertThatThrownBy(() -> withData.onMessage(5, new Message(1, 0, tag, DataBuffer.allocate(DataType.INT64, 2,
        false)))).isInstanceOf(IllegalStateException.class).hasMessageContaining("of data");
  }

  private static Message message(long tag, long value) {
    DataBuffer data = DataBuffer.allocate(DataType.INT64, 1, false);
    data.set(0, value);
    return new Message(1, 0, tag, data);
  }

  /** A host with tiny fixed costs that records what is sent. */
  private static final class RecordingHost implements RankHost {
    final List<Message> sent = new ArrayList<>();

    @Override
    public void send(Message message, long atPs) {
      sent.add(message);
    }

    @Override
    public long sendOverheadPs() {
      return 1;
    }

    @Override
    public long recvOverheadPs() {
      return 2;
    }

    @Override
    public long reducePs(long bytes) {
      return bytes;
    }

    @Override
    public long localCopyPs(long bytes) {
      return 0;
    }
  }
}
