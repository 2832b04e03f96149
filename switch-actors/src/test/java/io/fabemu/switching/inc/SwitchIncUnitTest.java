package io.fabemu.switching.inc;

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
import io.fabemu.core.protocol.DeviceProtocol.Packet;
import io.fabemu.core.protocol.DirectedLink;
import io.fabemu.core.time.Units;
import io.fabemu.core.topology.LinkSpec;
import io.fabemu.core.topology.Topologies;
import io.fabemu.core.topology.Topology;
import io.fabemu.nic.IncNicSpec;
import io.fabemu.nic.NicIncUnit;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The switch's INC unit alone, driven by hand: the query's updates and capacity refusals, the notify's tree,
 * aggregation with the contributor bitmap, duplicates, generations, release and reuse.
 */
class SwitchIncUnitTest {
  /** 8 hosts, 4 per TOR, 2 spines: hosts 0-7, TOR 8 (hosts 0-3), TOR 9 (hosts 4-7), spines 10 and 11. */
  private static final Topology TOPOLOGY = Topologies.leafSpine(8, 4, 2,
      new LinkSpec(100 * Units.GBPS, 500_000L), new LinkSpec(100 * Units.GBPS, 500_000L));
  private static final int TOR0 = 8;
  private static final int TOR1 = 9;
  private static final int SPINE = 11;
  private static final int HEADER_BYTES = 58;
  private static final long GROUP = 0x00123456L;
  private static final long UNIT_PS = 100_000L;
  /** 1 GB/s: a 16 B payload takes 16 ns in the unit. */
  private static final long UNIT_BITS_PER_SECOND = 8_000_000_000L;
  private static final IncNicSpec NIC = new IncNicSpec(256, 0L, 1_000_000_000L, 5);

  /** One packet the unit sent. */
  private record Out(Packet packet, int next, long readyPs) {}

  private static final class RecordingSink implements SwitchIncUnit.Sink {
    final List<Out> sent = new ArrayList<>();

    @Override
    public void send(Packet packet, int nextVertex, long readyPs) {
      sent.add(new Out(packet, nextVertex, readyPs));
    }

    List<Out> take() {
      List<Out> out = List.copyOf(sent);
      sent.clear();
      return out;
    }
  }

  private final RecordingSink sink = new RecordingSink();

  private static IncSwitchSpec unit(int slots, int groups, Set<ReduceOp> ops) {
    return new IncSwitchSpec(UNIT_PS, UNIT_BITS_PER_SECOND, slots, groups, 256, 4096, ops,
        EnumSet.of(DataType.INT32, DataType.FLOAT32));
  }

  private static SwitchIncUnit engine(int vertex) {
    return new SwitchIncUnit(vertex, TOPOLOGY, unit(64, 4, EnumSet.of(ReduceOp.SUM, ReduceOp.MAX)),
        HEADER_BYTES);
  }

  private static int torOf(int host) {
    return host < 4 ? TOR0 : TOR1;
  }

  private static Packet control(IncPacketType type, int from, int to, ControlPayload payload) {
    NicIncUnit nic = new NicIncUnit(from, torOf(from), NIC, HEADER_BYTES);
    return nic.controlPacket(IncDataPlaneMessages.control(type, from, to, payload), to, 0L).withTailTimePs(1_000L);
  }

  /** The one fragment of host {@code from}'s contribution {@code data} for req_id {@code reqId}. */
  private static Packet contribution(int from, int to, int reqId, DataBuffer data) {
    NicIncUnit nic = new NicIncUnit(from, torOf(from), NIC, HEADER_BYTES);
    Packet[] fragments = nic.startTask(IncDataPlaneMessages.task(from, to, 40L + from, GROUP, ReduceOp.SUM, data,
        reqId), to, 0L);
    assertThat(fragments).hasSize(1);
    return fragments[0].withTailTimePs(2_000L);
  }

  private static DataBuffer ints(int... values) {
    DataBuffer data = DataBuffer.allocate(DataType.INT32, values.length, false);
    for (int i = 0; i < values.length; i++) data.set(i, values[i]);
    return data;
  }

  /** Registers GROUP at a TOR as the root of a single-TOR group of hosts 0, 1, 2 (MRR 0). */
  private void registerSingleTorGroup(SwitchIncUnit tor) {
    for (int dst : new int[] {1, 2}) {
      tor.onPacket(control(IncPacketType.TREE_DOWN, 0, dst,
          IncDataPlaneMessages.notify(GROUP, 1024, 3, 3, dst, 0, 0, 3, 1)), 0, sink);
    }
    sink.take();
  }

  @Test
  void shouldFillItsCapabilitiesAddressAndLoadIntoTheQuery() {
    SwitchIncUnit tor1 = engine(TOR1);
    SwitchIncUnit spine = new SwitchIncUnit(SPINE, TOPOLOGY,
        new IncSwitchSpec(UNIT_PS, 0, 64, 7, 256, 2048, EnumSet.of(ReduceOp.SUM), EnumSet.of(DataType.INT32)),
        HEADER_BYTES);
    SwitchIncUnit tor0 = engine(TOR0);

    tor1.onPacket(control(IncPacketType.TREE_UP, 5, 0, IncDataPlaneMessages.query(GROUP, 8, 0, 5)), 5, sink);
    Out atTor1 = sink.take().get(0);
    spine.onPacket(atTor1.packet(), TOR1, sink);
    Out atSpine = sink.take().get(0);
    tor0.onPacket(atSpine.packet(), SPINE, sink);
    Out atTor0 = sink.take().get(0);

    assertThat(atTor1.next()).isEqualTo(-1); // up by ECMP: the query carries no SPINE yet
    assertThat(atSpine.next()).isEqualTo(TOR0);
    assertThat(atTor0.next()).isZero();
    ControlPayload c = IncFrame.of(atTor0.packet()).control();
    assertThat(c.hops()).isEqualTo(3);
    assertThat(c.isNotify()).isFalse();
    assertThat(c.supAllreduceOp()).isEqualTo(1 << IncCodes.opCode(ReduceOp.SUM));
    assertThat(c.supDataType()).isEqualTo(1 << IncCodes.typeCode(DataType.INT32));
    assertThat(c.supMaxDataSize()).isEqualTo(2048);
    assertThat(c.tor1Ip()).isEqualTo(IncAddresses.ofVertex(TOR1));
    assertThat(c.spineIp()).isEqualTo(IncAddresses.ofVertex(SPINE));
    assertThat(c.tor2Ip()).isEqualTo(IncAddresses.ofVertex(TOR0));
    assertThat(c.avaGrpNum()).isEqualTo(7);
    assertThat(c.failCause()).isZero();
    assertThat(IncFrame.of(atTor0.packet()).header0().level()).isEqualTo(1);
    // The query allocates nothing.
    assertThat(tor1.freeGroups()).isEqualTo(4);
    assertThat(spine.freeGroups()).isEqualTo(7);
  }

  @Test
  void shouldRefuseInTheQueryWhenNoGroupOrTooFewSlotsAreFree() {
    SwitchIncUnit noGroups = new SwitchIncUnit(TOR0, TOPOLOGY, unit(64, 0, EnumSet.of(ReduceOp.SUM)),
        HEADER_BYTES);
    // 4096 B at 256 B per payload needs 16 slots; this unit has 15.
    SwitchIncUnit fewSlots = new SwitchIncUnit(TOR0, TOPOLOGY, unit(15, 4, EnumSet.of(ReduceOp.SUM)),
        HEADER_BYTES);

    noGroups.onPacket(control(IncPacketType.TREE_UP, 1, 0, IncDataPlaneMessages.query(GROUP, 2, 0, 1)), 1, sink);
    fewSlots.onPacket(control(IncPacketType.TREE_UP, 1, 0, IncDataPlaneMessages.query(GROUP, 2, 0, 1)), 1, sink);
    List<Out> out = sink.take();

    assertThat(IncFrame.of(out.get(0).packet()).control().failCause()).isEqualTo(FailCause.NO_FREE_GROUPS.code());
    assertThat(IncFrame.of(out.get(1).packet()).control().failCause()).isEqualTo(FailCause.NO_AGGREGATION_SLOTS.code());
    // A fail cause already set stays.
    fewSlots.onPacket(out.get(0).packet(), 1, sink);
    assertThat(IncFrame.of(sink.take().get(0).packet()).control().failCause())
        .isEqualTo(FailCause.NO_FREE_GROUPS.code());
  }

  @Test
  void shouldReportNoFreeGroupInsteadOfRefusingWhenASpineIsFull() {
    // The MRR may still pick another SPINE: a full one reports ava_grp_num 0 and sets no fail cause.
    SwitchIncUnit fullSpine = new SwitchIncUnit(SPINE, TOPOLOGY, unit(64, 0, EnumSet.of(ReduceOp.SUM)),
        HEADER_BYTES);
    SwitchIncUnit slotlessSpine = new SwitchIncUnit(SPINE, TOPOLOGY, unit(15, 4, EnumSet.of(ReduceOp.SUM)),
        HEADER_BYTES);

    fullSpine.onPacket(control(IncPacketType.TREE_UP, 1, 0, IncDataPlaneMessages.query(GROUP, 2, 0, 1)), TOR1, sink);
    slotlessSpine.onPacket(control(IncPacketType.TREE_UP, 1, 0, IncDataPlaneMessages.query(GROUP, 2, 0, 1)), TOR1,
        sink);
    List<Out> out = sink.take();

    for (Out o : out) {
      assertThat(IncFrame.of(o.packet()).control().failCause()).isZero();
      assertThat(IncFrame.of(o.packet()).control().avaGrpNum()).isZero();
      assertThat(IncFrame.of(o.packet()).control().spineIp()).isEqualTo(IncAddresses.ofVertex(SPINE));
    }
  }

  @Test
  void shouldRootASingleTorGroupAtTheTorAndRecordItsChildren() {
    SwitchIncUnit tor = engine(TOR0);

    tor.onPacket(control(IncPacketType.TREE_DOWN, 0, 1, IncDataPlaneMessages.notify(GROUP, 1024, 3, 3, 1, 0, 0, 3,
        1)), 0, sink);
    Out out = sink.take().get(0);

    assertThat(out.next()).isEqualTo(1);
    assertThat(IncFrame.of(out.packet()).header0().flags() & 1).isEqualTo(1);
    assertThat(IncFrame.of(out.packet()).header0().childCount()).isEqualTo(3);
    assertThat(IncFrame.of(out.packet()).header0().level()).isEqualTo(1);
    assertThat(tor.expectedChildren(GROUP)).isEqualTo(3);
    assertThat(tor.freeGroups()).isEqualTo(3);
    assertThat(tor.freeSlots()).isEqualTo(64 - 4); // 1024 B / 256 B
    // A second notify of the group allocates nothing more.
    tor.onPacket(control(IncPacketType.TREE_DOWN, 0, 2, IncDataPlaneMessages.notify(GROUP, 1024, 3, 3, 2, 0, 0, 3,
        1)), 0, sink);
    assertThat(tor.freeGroups()).isEqualTo(3);
    assertThat(tor.freeSlots()).isEqualTo(60);
  }

  @Test
  void shouldSendANotifyForAnotherTorToTheNamedSpineAndAllocateNothingOnAFailCause() {
    SwitchIncUnit tor = engine(TOR0);
    long spineIp = IncAddresses.ofVertex(SPINE);

    tor.onPacket(control(IncPacketType.TREE_DOWN, 0, 5, IncDataPlaneMessages.notify(GROUP, 1024, 4, 2, 5, spineIp,
        0, 2, 2)), 0, sink);
    Out out = sink.take().get(0);
    assertThat(out.next()).isEqualTo(SPINE);
    assertThat(IncFrame.of(out.packet()).header0().flags() & 1).isZero();
    assertThat(tor.freeGroups()).isEqualTo(3);

    SwitchIncUnit other = engine(TOR0);
    ControlPayload failed = ControlPayload.builder().queryNotifyHop(0x80).supCommType(1).globalGroupSize(4)
        .localGroupSize(2).trueCommId(GROUP).failCause(FailCause.OP_UNSUPPORTED.code()).dstRank(5).spineIp(spineIp)
        .srcLocalGroupSize(2).torCount(2).build();
    other.onPacket(control(IncPacketType.TREE_DOWN, 0, 5, failed), 0, sink);
    assertThat(sink.take()).hasSize(1);
    assertThat(other.freeGroups()).isEqualTo(4);
    assertThat(other.groupsHeld()).isZero();
  }

  @Test
  void shouldAggregateEveryChildOnceAndFillTheResultIntoTheCachedPackets() {
    SwitchIncUnit tor = engine(TOR0);
    registerSingleTorGroup(tor);

    // Ring 0 -> 1 -> 2 -> 0.
    tor.onPacket(contribution(0, 1, 0, ints(1, 2, 3)), 0, sink);
    tor.onPacket(contribution(0, 1, 0, ints(1, 2, 3)), 0, sink); // a duplicate while collecting: dropped
    tor.onPacket(contribution(1, 2, 0, ints(10, 20, 30)), 1, sink);
    assertThat(sink.take()).isEmpty();
    assertThat(tor.duplicatesDropped()).isEqualTo(1);
    tor.onPacket(contribution(2, 0, 0, ints(100, 200, 300)), 2, sink);
    List<Out> results = sink.take();

    assertThat(results).extracting(Out::next).containsExactly(1, 2, 0);
    for (Out r : results) {
      Packet p = r.packet();
      assertThat(IncFrame.of(p).type()).isEqualTo(IncPacketType.TASK_DOWN);
      assertThat(p.slice()).isEqualTo(ints(111, 222, 333));
      assertThat(p.destinationHost()).isEqualTo(r.next());
      assertThat(IncFrame.of(p).ipDestination()).isEqualTo(IncAddresses.ofVertex(r.next()));
      assertThat(IncFrame.of(p).header2().dstIpCache()).isEqualTo(IncAddresses.ofVertex(TOR0));
      // The cached packet's message facts: the predecessor's message to this host.
      assertThat(p.info().destinationRank()).isEqualTo(r.next());
    }
    // The unit reduces one packet at a time at 1 GB/s (the two notifies' 53 B, tails at 1000, then the three 12 B
    // contributions; the duplicate is recognised by its header and takes no reduce time); the result leaves after
    // the unit's 100 ns pipeline latency.
    assertThat(results.get(0).readyPs()).isEqualTo(1_000L + 2 * 53_000L + 3 * 12_000L + UNIT_PS);

    // Host 1 lost its result and resends: only host 1 gets it again, nothing is counted twice.
    tor.onPacket(contribution(1, 2, 0, ints(10, 20, 30)), 1, sink);
    List<Out> resent = sink.take();
    assertThat(resent).hasSize(1);
    assertThat(resent.get(0).next()).isEqualTo(1);
    assertThat(resent.get(0).packet().info().sourceRank()).isZero(); // host 0's packet, destined to host 1
    assertThat(resent.get(0).packet().slice()).isEqualTo(ints(111, 222, 333));
    assertThat(IncFrame.of(resent.get(0).packet()).header2().flags() & 1).isEqualTo(1);
  }

  @Test
  void shouldSendOnePartialUpThenFillTheParentsResultDown() {
    SwitchIncUnit tor = engine(TOR1);
    long spineIp = IncAddresses.ofVertex(SPINE);
    for (int dst : new int[] {4, 5}) {
      tor.onPacket(control(IncPacketType.TREE_DOWN, 0, dst, IncDataPlaneMessages.notify(GROUP, 1024, 4, 2, dst,
          spineIp, 0, 2, 2)), SPINE, sink);
    }
    sink.take();

    tor.onPacket(contribution(4, 5, 7, ints(1, 1)), 4, sink);
    tor.onPacket(contribution(5, 4, 7, ints(2, 2)), 5, sink);
    List<Out> partial = sink.take();
    assertThat(partial).hasSize(1);
    assertThat(partial.get(0).next()).isEqualTo(SPINE);
    Packet up = partial.get(0).packet();
    assertThat(IncFrame.of(up).type()).isEqualTo(IncPacketType.TASK_UP);
    assertThat(up.sourceHost()).isEqualTo(TOR1);
    assertThat(up.destinationHost()).isEqualTo(SPINE);
    assertThat(IncFrame.of(up).ipDestination()).isEqualTo(spineIp);
    assertThat(up.slice()).isEqualTo(ints(3, 3));

    // A duplicate while waiting for the parent resends the partial.
    tor.onPacket(contribution(4, 5, 7, ints(1, 1)), 4, sink);
    List<Out> again = sink.take();
    assertThat(again).hasSize(1);
    assertThat(again.get(0).next()).isEqualTo(SPINE);
    assertThat(again.get(0).packet().slice()).isEqualTo(ints(3, 3));

    Packet down = resultFromSpine(up, ints(30, 30));
    tor.onPacket(down, SPINE, sink);
    List<Out> results = sink.take();
    assertThat(results).extracting(Out::next).containsExactly(5, 4);
    assertThat(results).allSatisfy(r -> assertThat(r.packet().slice()).isEqualTo(ints(30, 30)));
    // A second copy of the result changes nothing.
    tor.onPacket(down, SPINE, sink);
    assertThat(sink.take()).isEmpty();
  }

  /** The SPINE's answer to {@code partial}. */
  private static Packet resultFromSpine(Packet partial, DataBuffer result) {
    IncFrame f = IncFrame.of(partial);
    IncHeader2 h = f.header2();
    return Packet.builder().sourceHost(SPINE).destinationHost(partial.sourceHost()).messageId(0L)
        .segmentIndex(h.fragmentIndex()).segmentCount(h.fragmentCount()).wireBytes(partial.wireBytes())
        .tailTimePs(3_000_000L).info(partial.info()).elementOffset(partial.elementOffset()).slice(result)
        .extension(new IncFrame(IncPacketType.TASK_DOWN, IncAddresses.ofVertex(SPINE), f.ipSource(), f.mpi(), null,
            new IncHeader2(h.taskId(), h.fragmentIndex(), h.fragmentCount(),
                h.fragmentBytes(), 0, f.ipSource()), null))
        .build();
  }

  @Test
  void shouldRootAGroupAtTheSpineAndResendTheResultOnlyToTheTorThatAsks() {
    SwitchIncUnit spine = engine(SPINE);
    long spineIp = IncAddresses.ofVertex(SPINE);
    spine.onPacket(control(IncPacketType.TREE_DOWN, 0, 5, IncDataPlaneMessages.notify(GROUP, 1024, 2, 1, 5, spineIp,
        0, 1, 2)), TOR0, sink);
    Out notify = sink.take().get(0);
    assertThat(notify.next()).isEqualTo(TOR1);
    assertThat(IncFrame.of(notify.packet()).header0().flags() & 1).isEqualTo(1);
    assertThat(IncFrame.of(notify.packet()).header0().level()).isEqualTo(2);

    SwitchIncUnit tor0 = engine(TOR0);
    tor0.onPacket(control(IncPacketType.TREE_DOWN, 0, 5, IncDataPlaneMessages.notify(GROUP, 1024, 2, 1, 5, spineIp,
        0, 1, 2)), 0, sink);
    sink.take();
    tor0.onPacket(contribution(0, 0, 3, ints(5)), 0, sink);
    Packet partial0 = sink.take().get(0).packet();
    SwitchIncUnit tor1 = engine(TOR1);
    tor1.onPacket(notify.packet(), SPINE, sink);
    sink.take();
    tor1.onPacket(contribution(5, 5, 3, ints(7)), 5, sink);
    Packet partial1 = sink.take().get(0).packet();

    spine.onPacket(partial0, TOR0, sink);
    assertThat(sink.take()).isEmpty();
    spine.onPacket(partial1, TOR1, sink);
    List<Out> results = sink.take();
    assertThat(results).extracting(Out::next).containsExactlyInAnyOrder(TOR0, TOR1);
    assertThat(results).allSatisfy(r -> {
      assertThat(r.packet().slice()).isEqualTo(ints(12));
      assertThat(IncFrame.of(r.packet()).type()).isEqualTo(IncPacketType.TASK_DOWN);
      assertThat(r.packet().destinationHost()).isEqualTo(r.next());
    });

    spine.onPacket(partial1, TOR1, sink);
    List<Out> resent = sink.take();
    assertThat(resent).hasSize(1);
    assertThat(resent.get(0).next()).isEqualTo(TOR1);
    assertThat(resent.get(0).packet().slice()).isEqualTo(ints(12));
  }

  @Test
  void shouldLetTwoConsecutiveRequestsOverlapAndRefuseAThird() {
    SwitchIncUnit tor = engine(TOR0);
    registerSingleTorGroup(tor);

    // req 0 and req 1 interleave; each completes with its own sum.
    tor.onPacket(contribution(0, 1, 0, ints(1)), 0, sink);
    tor.onPacket(contribution(0, 1, 1, ints(1000)), 0, sink);
    tor.onPacket(contribution(1, 2, 0, ints(2)), 1, sink);
    tor.onPacket(contribution(1, 2, 1, ints(2000)), 1, sink);
    tor.onPacket(contribution(2, 0, 0, ints(4)), 2, sink);
    List<Out> r0 = sink.take();
    assertThat(r0).hasSize(3).allSatisfy(o -> assertThat(o.packet().slice()).isEqualTo(ints(7)));
    // req 2 may start once req 0 is done: it takes req 0's generation.
    tor.onPacket(contribution(0, 1, 2, ints(5)), 0, sink);
    assertThat(tor.resultOf(GROUP, 0, 0)).isNull();
    assertThat(sink.take()).isEmpty();

    // req 1 and req 2 are both collecting: a third request is refused.
    assertThatThrownBy(() -> tor.onPacket(contribution(1, 2, 3, ints(9)), 1, sink))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("req_id 3")
        .hasMessageContaining("both generations are busy")
        .hasMessageContaining("group " + GROUP);

    tor.onPacket(contribution(2, 0, 1, ints(4000)), 2, sink);
    assertThat(sink.take()).hasSize(3).allSatisfy(o -> assertThat(o.packet().slice()).isEqualTo(ints(7000)));
  }

  @Test
  void shouldFreeAReleasedGroupForTheNextOne() {
    SwitchIncUnit tor = new SwitchIncUnit(TOR0, TOPOLOGY, unit(4, 1, EnumSet.of(ReduceOp.SUM)), HEADER_BYTES);
    registerSingleTorGroup(tor);
    assertThat(tor.freeGroups()).isZero();
    assertThat(tor.freeSlots()).isZero();

    tor.onPacket(control(IncPacketType.RELEASE, 0, 1, IncDataPlaneMessages.release(GROUP, 1, 0)), 0, sink);
    tor.onPacket(control(IncPacketType.RELEASE, 0, 2, IncDataPlaneMessages.release(GROUP, 2, 0)), 0, sink);
    assertThat(sink.take()).extracting(Out::next).containsExactly(1, 2); // released packets go on
    assertThat(tor.freeGroups()).isEqualTo(1);
    assertThat(tor.freeSlots()).isEqualTo(4);
    assertThat(tor.groupsHeld()).isZero();

    assertThatThrownBy(() -> tor.onPacket(contribution(0, 1, 0, ints(1)), 0, sink))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("not registered")
        .hasMessageContaining("tor0");

    long next = 0x00777777L;
    tor.onPacket(control(IncPacketType.TREE_DOWN, 0, 1, IncDataPlaneMessages.notify(next, 1024, 2, 2, 1, 0, 0, 2,
        1)), 0, sink);
    assertThat(tor.freeGroups()).isZero();
    assertThat(tor.expectedChildren(next)).isEqualTo(2);
  }

  @Test
  void shouldRefuseDataItCannotCompute() {
    SwitchIncUnit tor = new SwitchIncUnit(TOR0, TOPOLOGY, unit(64, 4, EnumSet.of(ReduceOp.MAX)),
        HEADER_BYTES);
    registerSingleTorGroup(tor);

    assertThatThrownBy(() -> tor.onPacket(contribution(0, 1, 0, ints(1)), 0, sink))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("cannot compute SUM on INT32")
        .hasMessageContaining("group " + GROUP);
  }

  /** Registers GROUP at TOR1 as a child of SPINE with leaders 4 and 5. */
  private SwitchIncUnit torUnderSpine() {
    SwitchIncUnit tor = engine(TOR1);
    long spineIp = IncAddresses.ofVertex(SPINE);
    for (int dst : new int[] {4, 5}) {
      tor.onPacket(control(IncPacketType.TREE_DOWN, 0, dst, IncDataPlaneMessages.notify(GROUP, 1024, 4, 2, dst,
          spineIp, 0, 2, 2)), SPINE, sink);
    }
    sink.take();
    return tor;
  }

  @Test
  void shouldDropAGroupWhoseParentLinkDiedAndDiscardItsLaterPackets() {
    SwitchIncUnit tor = torUnderSpine();
    tor.tolerateFaults();
    int groups = tor.freeGroups();
    int slots = tor.freeSlots();

    // The link to the other spine (10) does not cut the tree.
    assertThat(tor.onDeadLinks(List.of(new DirectedLink(TOR1, 10), new DirectedLink(10, TOR1)))).isEmpty();
    assertThat(tor.groupsHeld()).isEqualTo(1);
    assertThat(tor.onDeadLinks(List.of(new DirectedLink(SPINE, TOR1)))).containsExactly(GROUP);

    assertThat(tor.groupsHeld()).isZero();
    assertThat(tor.freeGroups()).isEqualTo(groups + 1);
    assertThat(tor.freeSlots()).isGreaterThan(slots);
    assertThat(tor.groupsCut()).isEqualTo(1);
    // A leader's resend, still on its way: discarded and counted, not a failed run.
    tor.onPacket(contribution(4, 5, 7, ints(1, 1)), 4, sink);
    assertThat(sink.take()).isEmpty();
    assertThat(tor.strayPackets()).isEqualTo(1);
  }

  @Test
  void shouldDropAtTheSpineAGroupWithADeadChildLinkAndOfferNoGroupWhileALinkIsDead() {
    SwitchIncUnit spine = engine(SPINE);
    spine.tolerateFaults();
    long spineIp = IncAddresses.ofVertex(SPINE);
    spine.onPacket(control(IncPacketType.TREE_DOWN, 0, 5, IncDataPlaneMessages.notify(GROUP, 1024, 2, 1, 5, spineIp,
        0, 1, 2)), TOR0, sink);
    sink.take();

    assertThat(spine.onDeadLinks(List.of(new DirectedLink(TOR1, SPINE)))).containsExactly(GROUP);
    spine.onPacket(control(IncPacketType.TREE_UP, 1, 0, IncDataPlaneMessages.query(GROUP + 1, 2, 0, 1)), TOR0, sink);
    assertThat(IncFrame.of(sink.take().get(0).packet()).control().avaGrpNum()).isZero();
    // The link back: the spine offers its groups again.
    assertThat(spine.onDeadLinks(List.of())).isEmpty();
    spine.onPacket(control(IncPacketType.TREE_UP, 1, 0, IncDataPlaneMessages.query(GROUP + 1, 2, 0, 1)), TOR0, sink);
    assertThat(IncFrame.of(sink.take().get(0).packet()).control().avaGrpNum()).isEqualTo(4);
  }

  @Test
  void shouldStillFailOnAPacketOfAnUnknownGroupWithoutFaults() {
    SwitchIncUnit tor = torUnderSpine();
    tor.onDeadLinks(List.of(new DirectedLink(SPINE, TOR1)));

    assertThatThrownBy(() -> tor.onPacket(contribution(4, 5, 7, ints(1, 1)), 4, sink))
        .isInstanceOf(IllegalStateException.class).hasMessageContaining("is not registered here");
  }
}
