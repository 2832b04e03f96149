package io.fabemu.nic;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabemu.core.data.DataBuffer;
import io.fabemu.core.data.DataType;
import io.fabemu.core.data.ReduceOp;
import io.fabemu.core.inc.ControlPayload;
import io.fabemu.core.inc.IncAddresses;
import io.fabemu.core.inc.IncCodes.FailCause;
import io.fabemu.core.inc.IncCodes;
import io.fabemu.core.inc.IncDataPlaneMessages;
import io.fabemu.core.inc.IncFrame;
import io.fabemu.core.inc.IncHeader2;
import io.fabemu.core.inc.IncPacketType;
import io.fabemu.core.inc.IncRequest;
import io.fabemu.core.protocol.DeviceProtocol.IncRetransmitTimer;
import io.fabemu.core.protocol.DeviceProtocol.Packet;
import io.fabemu.core.protocol.DeviceProtocol;
import io.fabemu.core.protocol.DirectedLink;
import io.fabemu.core.protocol.Message;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The NIC's INC unit alone: fragmenting, the merge table, retransmission and control packets. */
class NicIncUnitTest {
  private static final int HOST = 2;
  private static final int TOR = 9;
  private static final int SUCCESSOR = 3;
  private static final int HEADER_BYTES = 58;
  private static final long GROUP = 0x00ABCDEFL;
  /** 100 B of fragment: 25 int32 elements; float64 with MAXLOC (12 B) would be 8 elements (96 B). */
  private static final int FRAGMENT_BYTES = 100;
  private static final long ENGINE_PS = 40_000L;
  private static final long TIMEOUT_PS = 5_000_000L;

  private static NicIncUnit engine(int maxRetransmits) {
    return new NicIncUnit(HOST, TOR, new IncNicSpec(FRAGMENT_BYTES, ENGINE_PS, TIMEOUT_PS, maxRetransmits),
        HEADER_BYTES);
  }

  private static DataBuffer ints(int count, int base) {
    DataBuffer data = DataBuffer.allocate(DataType.INT32, count, false);
    for (int i = 0; i < count; i++) data.set(i, base + i);
    return data;
  }

  /** What the TOR would send back for {@code fragment}: the result slice under a TASK_DOWN frame. */
  private static Packet resultFor(Packet fragment, DataBuffer result, int predecessorRank) {
    IncFrame f = IncFrame.of(fragment);
    IncHeader2 h = f.header2();
    IncFrame down = new IncFrame(IncPacketType.TASK_DOWN, IncAddresses.ofVertex(1), IncAddresses.ofVertex(HOST),
        f.mpi(), null, new IncHeader2(h.taskId(), h.fragmentIndex(), h.fragmentCount(), h.fragmentBytes(), 0,
        IncAddresses.ofVertex(TOR)), null);
    DataBuffer slice = result == null ? null : result.slice(fragment.elementOffset(), fragment.slice().count());
    DeviceProtocol.MessageInfo info = new DeviceProtocol.MessageInfo(predecessorRank, HOST, 77L,
        fragment.info().totalElements(), fragment.info().dataType(), false, fragment.info().totalBytes());
    return Packet.builder().sourceHost(1).destinationHost(HOST).messageId(5L).segmentIndex(h.fragmentIndex())
        .segmentCount(h.fragmentCount()).wireBytes(fragment.wireBytes()).tailTimePs(0L).info(info)
        .elementOffset(fragment.elementOffset()).slice(slice).extension(down).build();
  }

  @Test
  void shouldCutATaskIntoWholeElementFragmentsAddressedToTheTor() {
    NicIncUnit engine = engine(3);
    Message task = IncDataPlaneMessages.task(HOST, SUCCESSOR, 77L, GROUP, ReduceOp.SUM, ints(60, 0), 4);

    Packet[] fragments = engine.startTask(task, SUCCESSOR, 11L);

    // 240 B in fragments of 25 elements: 100 + 100 + 40.
    assertThat(fragments).hasSize(3);
    int[] bytes = Arrays.stream(fragments).mapToInt(p -> IncFrame.of(p).header2().fragmentBytes()).toArray();
    assertThat(bytes).containsExactly(100, 100, 40);
    for (int i = 0; i < 3; i++) {
      Packet p = fragments[i];
      IncFrame f = IncFrame.of(p);
      assertThat(f.type()).isEqualTo(IncPacketType.TASK_UP);
      assertThat(p.sourceHost()).isEqualTo(HOST);
      assertThat(p.destinationHost()).isEqualTo(TOR);
      assertThat(f.ipSource()).isEqualTo(IncAddresses.ofVertex(HOST));
      assertThat(f.ipDestination()).isEqualTo(IncAddresses.ofVertex(TOR));
      assertThat(f.header2().dstIpCache()).isEqualTo(IncAddresses.ofVertex(SUCCESSOR));
      assertThat(f.header2().taskId()).isEqualTo(IncCodes.taskId(GROUP, 4));
      assertThat(f.header2().fragmentIndex()).isEqualTo(i);
      assertThat(f.header2().fragmentCount()).isEqualTo(3);
      assertThat(f.header2().flags()).isZero();
      assertThat(f.mpi().pktParaNum()).isEqualTo(bytes[i] / 4);
      assertThat(p.elementOffset()).isEqualTo(25 * i);
      assertThat(p.slice().get(0)).isEqualTo(25 * i);
      assertThat(p.wireBytes()).isEqualTo(HEADER_BYTES + 1 + 4 + 4 + 15 + 16 + bytes[i]);
    }
    assertThat(engine.pendingTask(HOST, IncCodes.taskId(GROUP, 4)).fragmentBytes()).isEqualTo(100);
    assertThat(engine.pendingTask(HOST, IncCodes.taskId(GROUP, 4)).dstIp()).isEqualTo(IncAddresses.ofVertex(SUCCESSOR));
  }

  @Test
  void shouldRoundTheFragmentDownToWholeElementsWhenElementsCarryLocations() {
    DataBuffer data = DataBuffer.allocate(DataType.FLOAT64, 20, true);
    Message task = IncDataPlaneMessages.task(HOST, SUCCESSOR, 77L, GROUP, ReduceOp.MAXLOC, data, 0);

    Packet[] fragments = engine(3).startTask(task, SUCCESSOR, 0L);

    // 12 B elements: 8 per 100 B fragment (96 B); 240 B = 96 + 96 + 48.
    assertThat(Arrays.stream(fragments).mapToInt(p -> IncFrame.of(p).header2().fragmentBytes()))
        .containsExactly(96, 96, 48);
  }

  @Test
  void shouldCutASyntheticTaskAsTheRealOne() {
    Message real = IncDataPlaneMessages.task(HOST, SUCCESSOR, 77L, GROUP, ReduceOp.SUM, ints(60, 0), 1);
    Message synthetic = IncDataPlaneMessages.syntheticTask(HOST, SUCCESSOR, 77L, GROUP, ReduceOp.SUM,
        DataType.INT32, 240, 1);

    Packet[] r = engine(3).startTask(real, SUCCESSOR, 0L);
    Packet[] s = engine(3).startTask(synthetic, SUCCESSOR, 0L);

    assertThat(s).hasSameSizeAs(r);
    for (int i = 0; i < r.length; i++) {
      assertThat(s[i].wireBytes()).isEqualTo(r[i].wireBytes());
      assertThat(IncFrame.of(s[i]).header2()).isEqualTo(IncFrame.of(r[i]).header2());
      assertThat(s[i].slice()).isNull();
    }
  }

  @Test
  void shouldMergeResultFragmentsIgnoringDuplicatesAndDeliverOnce() {
    NicIncUnit engine = engine(3);
    Packet[] fragments = engine.startTask(
        IncDataPlaneMessages.task(HOST, SUCCESSOR, 77L, GROUP, ReduceOp.SUM, ints(60, 0), 4), SUCCESSOR, 0L);
    DataBuffer result = ints(60, 1000);
    long taskId = IncCodes.taskId(GROUP, 4);

    assertThat(engine.acceptResultFragment(resultFor(fragments[2], result, 1))).isTrue();
    assertThat(engine.takeCompletedResult(HOST, taskId)).isNull();
    assertThat(engine.acceptResultFragment(resultFor(fragments[2], result, 1))).isFalse();
    assertThat(engine.acceptResultFragment(resultFor(fragments[0], result, 1))).isTrue();
    assertThat(engine.acceptResultFragment(resultFor(fragments[0], result, 1))).isFalse();
    assertThat(engine.takeCompletedResult(HOST, taskId)).isNull();
    assertThat(engine.acceptResultFragment(resultFor(fragments[1], result, 1))).isTrue();

    Message delivered = engine.takeCompletedResult(HOST, taskId);
    assertThat(delivered).isNotNull();
    assertThat(delivered.data()).isEqualTo(result);
    assertThat(delivered.sourceRank()).isEqualTo(1);
    assertThat(delivered.destinationRank()).isEqualTo(HOST);
    assertThat(delivered.tag()).isEqualTo(77L);
    assertThat(IncRequest.of(delivered).type()).isEqualTo(IncPacketType.TASK_DOWN);
    assertThat(IncRequest.of(delivered).mpi().reqId()).isEqualTo(4);
    assertThat(engine.pendingTasks()).isZero();
    // A late copy after completion is neither merged nor delivered again.
    assertThat(engine.acceptResultFragment(resultFor(fragments[1], result, 1))).isFalse();
    assertThat(engine.takeCompletedResult(HOST, taskId)).isNull();
  }

  @Test
  void shouldDeliverASyntheticResultAsItsSizeOnly() {
    NicIncUnit engine = engine(3);
    Packet[] fragments = engine.startTask(IncDataPlaneMessages.syntheticTask(HOST, SUCCESSOR, 77L, GROUP,
        ReduceOp.SUM, DataType.INT32, 240, 9), SUCCESSOR, 0L);
    for (Packet f : fragments) {
      IncFrame fr = IncFrame.of(f);
      engine.acceptResultFragment(Packet.builder().sourceHost(1).destinationHost(HOST).wireBytes(f.wireBytes())
          .info(new DeviceProtocol.MessageInfo(1, HOST, 77L, 0, null, false, 240))
          .extension(new IncFrame(IncPacketType.TASK_DOWN, fr.ipSource(), fr.header2().dstIpCache(), fr.mpi(), null,
              fr.header2(), null))
          .build());
    }
    Message delivered = engine.takeCompletedResult(HOST, IncCodes.taskId(GROUP, 9));
    assertThat(delivered.data()).isNull();
    assertThat(delivered.sizeBytes()).isEqualTo(240);
  }

  @Test
  void shouldResendOnlyTheFragmentsWhoseResultIsMissingWhenTheTimerFires() {
    NicIncUnit engine = engine(3);
    Packet[] fragments = engine.startTask(
        IncDataPlaneMessages.task(HOST, SUCCESSOR, 77L, GROUP, ReduceOp.SUM, ints(60, 0), 4), SUCCESSOR, 0L);
    long taskId = IncCodes.taskId(GROUP, 4);
    IncRetransmitTimer first = engine.armTimer(HOST, taskId);
    engine.acceptResultFragment(resultFor(fragments[1], ints(60, 0), 1));

    Packet[] resent = engine.onTimer(first);

    assertThat(resent).hasSize(2);
    assertThat(IncFrame.of(resent[0]).header2().fragmentIndex()).isZero();
    assertThat(IncFrame.of(resent[1]).header2().fragmentIndex()).isEqualTo(2);
    assertThat(resent).allSatisfy(p -> assertThat(IncFrame.of(p).header2().flags() & 1).isEqualTo(1));
    assertThat(resent[0].slice()).isEqualTo(fragments[0].slice());
    // A superseded timer is ignored; so is any timer once the task is complete.
    IncRetransmitTimer second = engine.armTimer(HOST, taskId);
    assertThat(engine.onTimer(first)).isNull();
    engine.acceptResultFragment(resultFor(fragments[0], ints(60, 0), 1));
    engine.acceptResultFragment(resultFor(fragments[2], ints(60, 0), 1));
    assertThat(engine.takeCompletedResult(HOST, taskId)).isNotNull();
    assertThat(engine.onTimer(second)).isNull();
  }

  @Test
  void shouldFailNamingTheTaskWhenRetransmissionsRunOut() {
    NicIncUnit engine = engine(2);
    engine.startTask(IncDataPlaneMessages.task(HOST, SUCCESSOR, 77L, GROUP, ReduceOp.SUM, ints(60, 0), 4),
        SUCCESSOR, 0L);
    long taskId = IncCodes.taskId(GROUP, 4);
    assertThat(engine.onTimer(engine.armTimer(HOST, taskId))).hasSize(3);
    assertThat(engine.onTimer(engine.armTimer(HOST, taskId))).hasSize(3);

    assertThatThrownBy(() -> engine.onTimer(engine.armTimer(HOST, taskId)))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("host " + HOST)
        .hasMessageContaining("group " + GROUP)
        .hasMessageContaining("req_id 4")
        .hasMessageContaining("[0, 1, 2]");
  }

  @Test
  void shouldRefuseATaskSentAgainBeforeItsResult() {
    NicIncUnit engine = engine(3);
    Message task = IncDataPlaneMessages.task(HOST, SUCCESSOR, 77L, GROUP, ReduceOp.SUM, ints(4, 0), 4);
    engine.startTask(task, SUCCESSOR, 0L);

    assertThatThrownBy(() -> engine.startTask(task, SUCCESSOR, 1L)).isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("req_id 4");
  }

  @Test
  void shouldBuildOneControlPacketAndDeliverItsPayload() {
    NicIncUnit engine = engine(3);
    ControlPayload query = IncDataPlaneMessages.query(GROUP, 4, 0, HOST);
    Message message = IncDataPlaneMessages.control(IncPacketType.TREE_UP, HOST, 0, query);

    Packet packet = engine.controlPacket(message, 0, 3L);

    IncFrame f = IncFrame.of(packet);
    assertThat(packet.destinationHost()).isZero();
    assertThat(f.ipDestination()).isEqualTo(IncAddresses.ofVertex(0));
    assertThat(f.header0().groupId()).isEqualTo(GROUP);
    assertThat(f.header0().leaderRank()).isEqualTo(HOST);
    assertThat(f.header0().dstIpCache()).isEqualTo(IncAddresses.ofVertex(0));
    assertThat(f.header2()).isNull();
    assertThat(packet.wireBytes()).isEqualTo(HEADER_BYTES + 24 + 16 + ControlPayload.WIRE_BYTES);

    Message delivered = engine.onControlPacket(packet);
    assertThat(IncRequest.of(delivered).type()).isEqualTo(IncPacketType.TREE_UP);
    assertThat(IncRequest.of(delivered).control()).isEqualTo(query);
    assertThat(delivered.sizeBytes()).isEqualTo(ControlPayload.WIRE_BYTES);
    assertThat(delivered.data()).isNull();
    assertThat(delivered.sourceRank()).isEqualTo(HOST);
    assertThat(delivered.destinationRank()).isZero();
  }

  @Test
  void shouldQueueFragmentsInTheEngineOneAfterAnother() {
    NicIncUnit engine = engine(3);
    assertThat(engine.process(1_000L)).isEqualTo(1_000L + ENGINE_PS);
    assertThat(engine.process(1_000L)).isEqualTo(1_000L + 2 * ENGINE_PS);
    assertThat(engine.process(500_000L)).isEqualTo(500_000L + ENGINE_PS);
  }

  private static final int SPINE = 12;

  /** A notify of group {@code GROUP} over {@code SPINE} with {@code cause}, from rank {@code from} to {@code to}. */
  private static Message notify(int from, int to, FailCause cause) {
    ControlPayload payload = IncDataPlaneMessages.query(GROUP, 4, 0, from).toBuilder().queryNotifyHop(0x80)
        .spineIp(IncAddresses.ofVertex(SPINE)).failCause(cause.code()).dstRank(to).build();
    return IncDataPlaneMessages.control(IncPacketType.TREE_DOWN, from, to, payload);
  }

  @Test
  void shouldBreakAGroupWhoseSpineHasADeadLinkDropItsTasksAndStartNoMore() {
    NicIncUnit engine = engine(3);
    // This host's leader (rank 2, the MRR) sends the notify: its group goes over SPINE.
    engine.controlPacket(notify(HOST, 6, FailCause.NONE), 6, 0L);
    engine.startTask(IncDataPlaneMessages.task(HOST, SUCCESSOR, 77L, GROUP, ReduceOp.SUM, ints(60, 0), 4),
        SUCCESSOR, 1L);
    long taskId = IncCodes.taskId(GROUP, 4);
    IncRetransmitTimer timer = engine.armTimer(HOST, taskId);

    // A dead link between two other switches breaks nothing.
    assertThat(engine.onDeadLinks(List.of(new DirectedLink(10, 13)))).isEmpty();
    assertThat(engine.isBroken(GROUP)).isFalse();
    List<NicIncUnit.BrokenGroup> broken = engine.onDeadLinks(List.of(new DirectedLink(10, SPINE)));

    assertThat(broken).containsExactly(new NicIncUnit.BrokenGroup(GROUP, SPINE, List.of(HOST)));
    assertThat(engine.isBroken(GROUP)).isTrue();
    assertThat(engine.pendingTasks()).isZero();
    assertThat(engine.onTimer(timer)).isNull();
    // Broken once: a later view with the same dead links breaks nothing more.
    assertThat(engine.onDeadLinks(List.of(new DirectedLink(SPINE, 10)))).isEmpty();
    Message notice = NicIncUnit.breakNotice(GROUP, HOST);
    assertThat(notice.sourceRank()).isEqualTo(HOST);
    assertThat(notice.destinationRank()).isEqualTo(HOST);
    assertThat(IncRequest.of(notice).type()).isEqualTo(IncPacketType.TREE_DOWN);
    assertThat(IncRequest.of(notice).control().trueCommId()).isEqualTo(GROUP);
    assertThat(IncRequest.of(notice).control().failCause()).isEqualTo(FailCause.FAULT.code());
  }

  @Test
  void shouldKnowOnlyGroupsInUseUntilTheirRelease() {
    NicIncUnit engine = engine(3);
    // A notify that says no INC sets nothing up; one received by this host's NMRR (rank 5) does.
    engine.controlPacket(notify(HOST, 6, FailCause.NO_FREE_GROUPS), 6, 0L);
    assertThat(engine.onDeadLinks(List.of(new DirectedLink(SPINE, 10)))).isEmpty();
    Packet received = engine.controlPacket(notify(0, 5, FailCause.NONE), HOST, 1L);
    engine.onControlPacket(received);
    Packet release = engine.controlPacket(IncDataPlaneMessages.control(IncPacketType.RELEASE, 0, 5,
        IncRequest.of(notify(0, 5, FailCause.NONE)).control()), HOST, 2L);
    engine.onControlPacket(release);

    assertThat(engine.onDeadLinks(List.of(new DirectedLink(SPINE, 10)))).isEmpty();
    assertThat(engine.isBroken(GROUP)).isFalse();
  }

  @Test
  void shouldGiveUpOnAnExhaustedTaskWithALineInsteadOfFailing() {
    NicIncUnit engine = engine(1);
    engine.startTask(IncDataPlaneMessages.task(HOST, SUCCESSOR, 77L, GROUP, ReduceOp.SUM, ints(60, 0), 4),
        SUCCESSOR, 0L);
    long taskId = IncCodes.taskId(GROUP, 4);
    IncRetransmitTimer first = engine.armTimer(HOST, taskId);
    assertThat(engine.retransmitsExhausted(first)).isFalse();
    assertThat(engine.onTimer(first)).hasSize(3);
    IncRetransmitTimer second = engine.armTimer(HOST, taskId);

    assertThat(engine.retransmitsExhausted(second)).isTrue();
    assertThat(engine.abandon(second, 123_456_000L)).isEqualTo("host 2 gave up on INC task " + taskId
        + " of rank 2 (group 11259375 req_id 4, 3 of 3 result fragments missing) after 1 retransmissions, at "
        + "123.456 us");
    assertThat(engine.pendingTasks()).isZero();
  }

  /** The TOR's answer to a chunk's fragment: the result slice under a TASK_DOWN frame that keeps the stream header. */
  private static Packet chunkResultFor(Packet fragment, DataBuffer result, int predecessorRank) {
    Packet plain = resultFor(fragment, result, predecessorRank);
    IncFrame f = IncFrame.of(plain);
    return plain.toBuilder().extension(new IncFrame(f.type(), f.ipSource(), f.ipDestination(), f.mpi(), null,
        f.header2(), null, IncFrame.of(fragment).stream())).build();
  }

  @Test
  void shouldStreamATaskLargerThanTheNotifiedChunkSizeAWindowOfChunksAtATime() {
    NicIncUnit engine = new NicIncUnit(HOST, TOR, new IncNicSpec(FRAGMENT_BYTES, ENGINE_PS, TIMEOUT_PS, 3, 2),
        HEADER_BYTES);
    // The notify streams the group: chunks of 200 B (two fragments of 100 B), two chunks in flight.
    ControlPayload notify = IncDataPlaneMessages.notify(GROUP, 200, 2, 2, SUCCESSOR, 0, HOST, 2, 1).toBuilder()
        .supCommType(IncCodes.withStreamWindow(1, 2)).build();
    engine.controlPacket(IncDataPlaneMessages.control(IncPacketType.TREE_DOWN, HOST, SUCCESSOR, notify), SUCCESSOR,
        0L);
    DataBuffer data = ints(150, 0); // 600 B: three chunks of 50 elements
    Packet[] first = engine.startTask(IncDataPlaneMessages.task(HOST, SUCCESSOR, 77L, GROUP, ReduceOp.SUM, data, 4),
        SUCCESSOR, 1L);

    // Chunks 0 and 1, two fragments each, each fragment naming its chunk; the offsets are the vector's.
    assertThat(first).hasSize(4);
    assertThat(Arrays.stream(first).mapToLong(p -> IncFrame.of(p).stream().chunkIndex()).toArray())
        .containsExactly(0, 0, 1, 1);
    assertThat(Arrays.stream(first).mapToInt(Packet::elementOffset).toArray()).containsExactly(0, 25, 50, 75);
    assertThat(IncFrame.of(first[3]).stream().chunkCount()).isEqualTo(3);
    assertThat(IncFrame.of(first[3]).header2().fragmentIndex()).isEqualTo(1);
    assertThat(IncFrame.of(first[3]).header2().fragmentCount()).isEqualTo(2);
    assertThat(first[0].wireBytes()).isEqualTo(HEADER_BYTES + 40 + 10 + 100);

    DataBuffer sum = ints(150, 1000);
    // Chunk 1 first: position 1 has no chunk after it (1 + 2 = 3 is past the end).
    for (Packet p : List.of(first[2], first[3])) assertThat(engine.acceptResultFragment(chunkResultFor(p, sum, 1)))
        .isTrue();
    assertThat(engine.takeCompletedResult(HOST, NicIncUnit.taskKey(IncFrame.of(first[2])))).isNull();
    assertThat(engine.takeReadyChunks()).isEmpty();
    // Chunk 0 done: its position takes chunk 2.
    for (Packet p : List.of(first[0], first[1])) engine.acceptResultFragment(chunkResultFor(p, sum, 1));
    assertThat(engine.takeCompletedResult(HOST, NicIncUnit.taskKey(IncFrame.of(first[0])))).isNull();
    List<NicIncUnit.ReadyChunk> ready = engine.takeReadyChunks();
    assertThat(ready).hasSize(1);
    Packet[] third = ready.get(0).fragments();
    assertThat(Arrays.stream(third).mapToLong(p -> IncFrame.of(p).stream().chunkIndex()).toArray())
        .containsExactly(2, 2);
    assertThat(Arrays.stream(third).mapToInt(Packet::elementOffset).toArray()).containsExactly(100, 125);

    for (Packet p : third) engine.acceptResultFragment(chunkResultFor(p, sum, 1));
    Message result = engine.takeCompletedResult(HOST, NicIncUnit.taskKey(IncFrame.of(third[0])));
    assertThat(result).isNotNull();
    assertThat(result.sourceRank()).isEqualTo(1);
    for (int i = 0; i < 150; i++) assertThat(result.data().get(i)).as("element %d", i).isEqualTo(1000.0 + i);
    assertThat(engine.pendingTasks()).isZero();
  }

  @Test
  void shouldHoldALeadersNextTaskOfAGroupUntilItsTaskInFlightIsComplete() {
    NicIncUnit engine = engine(3);
    Packet[] first = engine.startTask(IncDataPlaneMessages.task(HOST, SUCCESSOR, 77L, GROUP, ReduceOp.SUM,
        ints(10, 0), 4), SUCCESSOR, 1L);
    // The next task (a pipelined Allreduce's next segment) waits: the switches' slots take a group's tasks in turn.
    assertThat(engine.startTask(IncDataPlaneMessages.task(HOST, SUCCESSOR, 78L, GROUP, ReduceOp.SUM, ints(10, 5), 5),
        SUCCESSOR, 2L)).isEmpty();
    assertThat(engine.takeReadyChunks()).isEmpty();

    engine.acceptResultFragment(resultFor(first[0], ints(10, 0), 1));
    assertThat(engine.takeCompletedResult(HOST, NicIncUnit.taskKey(IncFrame.of(first[0])))).isNotNull();
    List<NicIncUnit.ReadyChunk> ready = engine.takeReadyChunks();
    assertThat(ready).hasSize(1);
    assertThat(IncFrame.of(ready.get(0).fragments()[0]).mpi().reqId()).isEqualTo(5);
  }
}
