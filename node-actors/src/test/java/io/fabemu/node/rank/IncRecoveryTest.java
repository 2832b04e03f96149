package io.fabemu.node.rank;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabemu.collectives.IncLayout;
import io.fabemu.collectives.IncMode;
import io.fabemu.collectives.Tags;
import io.fabemu.core.data.DataBuffer;
import io.fabemu.core.data.DataType;
import io.fabemu.core.data.ReduceOp;
import io.fabemu.core.inc.IncPacketType;
import io.fabemu.core.inc.IncRequest;
import io.fabemu.core.protocol.Message;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A leader's recovery alone, driven by hand: 2 nodes of 2 ranks, one TOR each (leaders 0 and 2, root 0); the
 * in-network step of operation 5 is interrupted by a break.
 */
class IncRecoveryTest {
  private static final IncLayout LAYOUT = IncLayout.of(IncMode.NODE, 2, 2, 1, 1);
  private static final long GROUP = 77L;
  private static final long OP = 5;
  private static final long TASK_TAG = Tags.tag(OP, Tags.channel(1, 0, 0));
  private static final long OVERHEAD_PS = 1_000L;

  /** A host that records what is sent, with fixed costs. */
  private static final class Recorder implements RankHost {
    final List<Message> sent = new ArrayList<>();
    final List<Long> atPs = new ArrayList<>();

    @Override
    public void send(Message message, long at) {
      sent.add(message);
      atPs.add(at);
    }

    @Override
    public long sendOverheadPs() {
      return OVERHEAD_PS;
    }

    @Override
    public long recvOverheadPs() {
      return OVERHEAD_PS;
    }

    @Override
    public long reducePs(long bytes) {
      return 10 * bytes;
    }

    @Override
    public long localCopyPs(long bytes) {
      return bytes;
    }
  }

  private final Recorder host = new Recorder();

  private static DataBuffer ints(int... values) {
    DataBuffer data = DataBuffer.allocate(DataType.INT32, values.length, false);
    for (int i = 0; i < values.length; i++) data.set(i, values[i]);
    return data;
  }

  private static Message task(int leader, DataBuffer partial) {
    return new Message(leader, LAYOUT.ringSuccessor(leader), TASK_TAG, partial)
        .withExtension(new IncRequest(IncPacketType.TASK_UP, null, null, null));
  }

  private static Message recovery(int from, int to, int round, DataBuffer data) {
    long tag = Tags.tag(OP, Tags.channel(IncRecovery.PHASE, round, 0));
    return data == null ? new Message(from, to, tag, null) : new Message(from, to, tag, data);
  }

  private IncRecovery leader(int rank) {
    IncRecovery recovery = new IncRecovery(rank, host);
    recovery.beginCase(LAYOUT, GROUP, ReduceOp.SUM, 3);
    return recovery;
  }

  @Test
  void aLeaderWaitingInTheStepSendsItsPartialToTheRootAndTakesItsResult() {
    IncRecovery two = leader(2);
    assertThat(two.onTaskSent(task(2, ints(3, 4)), 10_000L)).isTrue(); // not broken yet: on to the NIC

    two.onBreakNotice(GROUP, 50_000L);

    assertThat(two.broken()).isTrue();
    assertThat(host.sent).singleElement().satisfies(m -> {
      assertThat(m.destinationRank()).isZero();
      assertThat(Tags.round(m.tag())).isEqualTo(2);
      assertThat(m.data()).isEqualTo(ints(3, 4));
    });
    assertThat(host.atPs).containsExactly(51_000L);
    two.onMessage(recovery(0, 2, 3, ints(10, 20)), 60_000L);
    Message ready = two.takeReady();
    assertThat(ready.sourceRank()).isEqualTo(LAYOUT.ringPredecessor(2));
    assertThat(ready.tag()).isEqualTo(TASK_TAG);
    assertThat(ready.data()).isEqualTo(ints(10, 20));
    assertThat(two.readyPs()).isEqualTo(61_000L);
    assertThat(two.takeReady()).isNull();
    // A late in-network result is dropped, not handed to the executor.
    assertThat(two.onIncResult(new Message(2, 2, TASK_TAG, ints(10, 20)), 70_000L)).isFalse();
  }

  @Test
  void theRootAsksTheOthersAndReducesTheirPartialsInRankOrder() {
    IncRecovery root = leader(0);
    root.onBreakNotice(GROUP, 1_000L);

    // Broken: the task stays on the host, and the root asks leader 2.
    assertThat(root.onTaskSent(task(0, ints(1, 2)), 10_000L)).isFalse();
    assertThat(host.sent).singleElement().satisfies(m -> {
      assertThat(m.destinationRank()).isEqualTo(2);
      assertThat(Tags.round(m.tag())).isEqualTo(1);
    });
    root.onMessage(recovery(2, 0, 2, ints(3, 4)), 20_000L);

    assertThat(root.takeReady().data()).isEqualTo(ints(4, 6));
    // Received at 20 us + 1 ns, reduced (8 B x 10 ps), the result sent back at + 1 ns.
    assertThat(host.sent).hasSize(2);
    assertThat(host.sent.get(1).destinationRank()).isEqualTo(2);
    assertThat(host.sent.get(1).data()).isEqualTo(ints(4, 6));
    assertThat(host.atPs.get(1)).isEqualTo(20_000L + OVERHEAD_PS + 80 + OVERHEAD_PS);
  }

  @Test
  void theRootTakesTheInNetworkResultALeaderAlreadyHad() {
    IncRecovery root = leader(0);
    assertThat(root.onTaskSent(task(0, ints(1, 2)), 10_000L)).isTrue();
    root.onBreakNotice(GROUP, 15_000L); // waiting in the step: the root asks leader 2

    root.onMessage(recovery(2, 0, 3, ints(40, 50)), 20_000L);

    assertThat(root.takeReady().data()).isEqualTo(ints(40, 50));
    // Leader 2 had its result: nothing is sent back to it but the QUERY.
    assertThat(host.sent).extracting(m -> Tags.round(m.tag())).containsExactly(1);
  }

  @Test
  void aLeaderWhoseResultCameThroughAnswersTheRootsQueryWithIt() {
    IncRecovery two = leader(2);
    two.onTaskSent(task(2, ints(3, 4)), 10_000L);
    assertThat(two.onIncResult(new Message(2, 2, TASK_TAG, ints(9, 9)), 12_000L)).isTrue();

    two.onMessage(recovery(0, 2, 1, null), 20_000L);

    assertThat(host.sent).singleElement().satisfies(m -> {
      assertThat(Tags.round(m.tag())).isEqualTo(3);
      assertThat(m.data()).isEqualTo(ints(9, 9));
    });
    assertThat(two.takeReady()).isNull();
  }

  @Test
  void noticesOfOtherGroupsAndMessagesOfEarlierCasesChangeNothing() {
    IncRecovery two = leader(2);
    two.onTaskSent(task(2, ints(3, 4)), 10_000L);
    two.onBreakNotice(GROUP + 1, 20_000L);
    two.onMessage(new Message(0, 2, Tags.tag(2, Tags.channel(IncRecovery.PHASE, 3, 0)), ints(1, 1)), 20_000L);

    assertThat(two.broken()).isFalse();
    assertThat(host.sent).isEmpty();
  }
}
