package io.fabemu.switching.inc;

import io.fabemu.core.data.DataBuffer;
import io.fabemu.core.data.DataType;
import io.fabemu.core.data.ReduceOp;
import io.fabemu.core.inc.ControlPayload;
import io.fabemu.core.inc.IncAddresses;
import io.fabemu.core.inc.IncCodes.FailCause;
import io.fabemu.core.inc.IncCodes;
import io.fabemu.core.inc.IncFrame;
import io.fabemu.core.inc.IncHeader0;
import io.fabemu.core.inc.IncHeader2;
import io.fabemu.core.inc.IncPacketType;
import io.fabemu.core.inc.IncStreamHeader;
import io.fabemu.core.inc.IncWireCodec;
import io.fabemu.core.protocol.DeviceProtocol.Packet;
import io.fabemu.core.protocol.DirectedLink;
import io.fabemu.core.time.Units;
import io.fabemu.core.topology.Topology.Tier;
import io.fabemu.core.topology.Topology;
import io.fabemu.core.util.IntLongMap;
import io.fabemu.switching.inc.IncSlot.Generation;
import io.fabemu.switching.inc.IncSlot.State;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;

/**
 * A switch's INC unit (the INC patent's switch INC unit; the INC paper's FPGA beside a TOR or SPINE), the logic without
 * the switch's egress, which {@code SwitchCore} adds. The switch's arbiter hands it every flagged packet that is a
 * control packet or is addressed to this switch.
 *
 * <p>Control plane (the INC paper, section 3.3): a query (TREE_UP) collects the switches' capabilities and load on its
 * way to the MRR leader; a notify (TREE_DOWN) without a fail cause allocates the group here once (a group and its
 * aggregation slots) and records the tree (parent, children, how many children to wait for); a release frees it.
 * Control packets then go on toward their destination; a TOR sends a notify or release for a host under another TOR
 * to the SPINE the notify names, not by ECMP, so that the chosen SPINE sees every one.
 *
 * <p>Data plane (the INC paper, section 3.4; the INC patent's task packets): the fragments of a task are aggregated per
 * slot (group, fragment index) and generation (req_id) with a contributor bitmap; when every child has contributed, a
 * non-root sends one partial to its parent, the root sends the result down: a SPINE to each child TOR, a TOR by
 * filling it into the packets it cached and sending each to its original destination (the swap back of the INC patent).
 *
 * <p>A TOR's children are the group's leaders under it, known by rank (the MPI header's src_rank; in Socket mode a
 * host runs several leaders of one group); a SPINE's children are TORs, known by vertex.
 *
 * <p>Loss safety: a contribution from a child already counted is never counted again. If the generation has its
 * result, the result is resent to that child (at a TOR: the cached packet whose destination is that leader); if it
 * waits for the parent, the partial is resent to the parent (which treats it alike); otherwise it is dropped. With
 * the NICs' retransmission on timeout, a loss on any hop is recovered, exactly once.
 *
 * <p>Faults ({@link #tolerateFaults}): when the management node names dead links ({@link #onDeadLinks}), the unit
 * drops every group whose parent (a TOR's SPINE) or child TOR (at a SPINE) is across one of them, freeing its
 * resources: the tree cannot finish, and its leaders finish the case on the host. A task packet of a group not held
 * here (dropped so, or never set up here) is then discarded and counted instead of failing the run.
 *
 * <p>Timing: the unit is one FIFO per switch; every packet it handles occupies it for {@code unitLatencyPs} plus its
 * payload at {@code unitBitsPerSecond}, from the time the packet's tail is in. Outputs are handed to the switch
 * with the time the unit is done; the switch adds its pipeline latency and serializes them on the egress port.
 *
 * <p>Length: past 500 lines because the control plane (which allocates groups and slots) and the data plane (which
 * uses them) act on the same group table; the slot's generations are {@link IncSlot}, a group's tree {@link IncGroup}.
 */
public final class SwitchIncUnit {
  /** Where the unit's packets go. */
  public interface Sink {
    /**
     * Sends {@code packet}, which may leave the unit at {@code readyPs}.
     *
     * @param nextVertex the neighbour to send it to, or -1 to route it toward {@code packet.destinationHost()}
     */
    void send(Packet packet, int nextVertex, long readyPs);
  }

  /** Root flag of Header0's flags. */
  private static final int ROOT_FLAG = 1;

  private final int vertex;
  private final boolean spine;
  private final Tier tier;
  private final IncSwitchSpec unit;
  private final Topology topology;
  private final int nicHeaderBytes;
  private final long ip;
  /** Supported operations and data types, bit = IncCodes code. */
  private final int operationMask;
  private final int dataTypeMask;
  /** Unit rate in bits per second (0: free). */
  /** Groups held, by the 24-bit group key of task ids (key (group key, 0)). */
  private final IntLongMap<IncGroup> groups = new IntLongMap<>();
  /** The keys of {@link #groups}, in order: the groups a fault may cut. */
  private final TreeSet<Integer> groupKeys = new TreeSet<>();
  /** A run with faults: task packets of groups not held here are discarded instead of failing the run. */
  private boolean tolerateFaults;
  private long strayPackets;
  private long groupsCut;
  /** A SPINE with a dead link (the management node's latest view): it cannot reach every TOR, so offers no group. */
  private boolean impaired;
  private int freeGroups;
  private int freeSlots;
  /** Data bytes per fragment as the NICs cut messages (before rounding down to whole elements). */
  private final int nicFragmentBytes;
  /** When the unit has finished everything queued so far. */
  private long unitFreeAtPs;
  private long duplicatesDropped;
  private long resends;

  /**
   * @param vertex         the switch's vertex (a TOR, tier 1, or a SPINE, tier 2, of a leaf-spine topology)
   * @param nicHeaderBytes header bytes of every packet before the INC frame (Ethernet, IP, UDP, BTH), as the NICs
   *                       put them on; the unit's own packets carry the same
   */
  public SwitchIncUnit(int vertex, Topology topology, IncSwitchSpec unit, int nicHeaderBytes) {
    this(vertex, topology, unit, nicHeaderBytes, unit.maxPayloadBytes());
  }

  /**
   * @param nicFragmentBytes the NICs' fragment size ({@code IncNicSpec.fragmentBytes}): a group reserves one slot
   *                         per fragment its messages are cut into
   */
  public SwitchIncUnit(int vertex, Topology topology, IncSwitchSpec unit, int nicHeaderBytes,
                         int nicFragmentBytes) {
    Topology.Vertex v = topology.vertex(vertex);
    if (v.kind() != Topology.VertexKind.SWITCH || (v.tier() != Tier.TOR && v.tier() != Tier.SPINE)) {
      throw new IllegalArgumentException("an INC unit belongs to a TOR or SPINE switch; "
          + v.name() + " is neither");
    }
    if (unit.maxGroups() < 0 || unit.aggregationSlots() < 0 || unit.maxPayloadBytes() < 1
        || unit.unitLatencyPs() < 0 || unit.unitBitsPerSecond() < 0) {
      throw new IllegalArgumentException("INC unit of " + v.name() + " has impossible settings: " + unit);
    }
    this.vertex = vertex;
    this.tier = v.tier();
    this.spine = tier == Tier.SPINE;
    this.unit = unit;
    this.topology = topology;
    this.nicHeaderBytes = nicHeaderBytes;
    this.ip = IncAddresses.ofVertex(vertex);
    int ops = 0;
    for (ReduceOp op : unit.operations()) ops |= 1 << IncCodes.opCode(op);
    int types = 0;
    for (DataType type : unit.dataTypes()) types |= 1 << IncCodes.typeCode(type);
    this.operationMask = ops;
    this.dataTypeMask = types;
    this.freeGroups = unit.maxGroups();
    this.freeSlots = unit.aggregationSlots();
    this.nicFragmentBytes = Math.max(1, Math.min(nicFragmentBytes, unit.maxPayloadBytes()));
  }

  /** Groups this switch can still take (the INC paper's ava_grp_num). */
  public int freeGroups() {
    return freeGroups;
  }

  /** Aggregation slots not reserved by a group. */
  public int freeSlots() {
    return freeSlots;
  }

  /** Groups held now. */
  public int groupsHeld() {
    return groups.size();
  }

  /** Contributions received again from a child already counted, and not counted. */
  public long duplicatesDropped() {
    return duplicatesDropped;
  }

  /**
   * Makes the unit part of a run with faults: a task packet of a group not held here (a fault cut the group, see
   * {@link #onDeadLinks}) is discarded and counted ({@link #strayPackets}) instead of failing the run.
   */
  public void tolerateFaults() {
    this.tolerateFaults = true;
  }

  /** Task packets discarded because their group is not held here (a run with faults). */
  public long strayPackets() {
    return strayPackets;
  }

  /** Groups dropped because a link of their tree at this switch died. */
  public long groupsCut() {
    return groupsCut;
  }

  /**
   * The management node's view of the dead links: every group held here whose SPINE has a dead link (at a TOR), or
   * one of whose child TORs is across a dead link (at a SPINE), is dropped and its resources freed: the NICs break
   * such a group, and its case skips the release that would free it. While a SPINE has
   * a dead link its queries offer no free group (ava_grp_num 0), so that no new tree goes through it: a notify
   * through it might not reach every TOR.
   *
   * @return the ids of the groups dropped, in key order
   */
  public List<Long> onDeadLinks(List<DirectedLink> deadLinks) {
    List<Long> cut = new ArrayList<>();
    impaired = false;
    for (DirectedLink link : deadLinks) impaired |= spine && (link.from() == vertex || link.to() == vertex);
    for (int key : new ArrayList<>(groupKeys)) {
      IncGroup group = groups.get(key, 0L);
      if (!group.configured()) continue;
      // A TOR drops a group whose SPINE has any dead link, as the NICs break it then (the case skips its release,
      // so no other message would free the slot); a SPINE drops one with a dead link to a child TOR.
      boolean dead = !group.isRoot() && (spine ? deadBetween(deadLinks, group.parent())
          : touches(deadLinks, group.parent()));
      for (int c = 0; spine && !dead && c < group.childCount(); c++) dead = deadBetween(deadLinks, group.child(c));
      if (dead) {
        cut.add(group.groupId);
        release(group.groupId);
        groupsCut++;
      }
    }
    return cut;
  }

  /** Whether a dead link has {@code vertex} at either end. */
  private static boolean touches(List<DirectedLink> links, int vertex) {
    for (DirectedLink link : links) {
      if (link.from() == vertex || link.to() == vertex) return true;
    }
    return false;
  }


  private boolean deadBetween(List<DirectedLink> deadLinks, int neighbour) {
    for (DirectedLink link : deadLinks) {
      if ((link.from() == vertex && link.to() == neighbour) || (link.from() == neighbour && link.to() == vertex)) {
        return true;
      }
    }
    return false;
  }

  /** Partials and results resent in answer to a duplicate. */
  public long resends() {
    return resends;
  }

  /**
   * Handles a flagged packet: a control packet (on its way to a host) or a task packet addressed to this switch.
   *
   * @param ingressVertex the neighbour the packet came from
   * @throws IllegalStateException when a task packet's group is not held here, or this unit cannot compute it
   */
  public void onPacket(Packet packet, int ingressVertex, Sink sink) {
    IncFrame frame = IncFrame.of(packet);
    if (tolerateFaults && frame.header2() != null && !holds(frame.header2().taskId())) {
      strayPackets++;
      return;
    }
    switch (frame.type()) {
      case TREE_UP, TREE_DOWN, RELEASE -> onControl(packet, ingressVertex, sink);
      case TASK_UP -> onContribution(packet, sink);
      case TASK_DOWN -> onParentResult(packet, ingressVertex, sink);
    }
  }

  // ---- control plane ------------------------------------------------------------------------------------------

  private void onControl(Packet packet, int ingressVertex, Sink sink) {
    IncFrame frame = IncFrame.of(packet);
    ControlPayload control = frame.control();
    if (control == null || frame.header0() == null) {
      throw new IllegalArgumentException(name() + ": " + frame.type() + " packet without control payload or "
          + "Header0: " + frame);
    }
    long done = occupy(packet.tailTimePs(), ControlPayload.WIRE_BYTES);
    int destination = packet.destinationHost();
    IncHeader0 header0 = frame.header0();
    switch (frame.type()) {
      case TREE_UP -> {
        control = onQuery(control);
        header0 = new IncHeader0(header0.groupId(), header0.leaderRank(), header0.childCount(), tier.level(),
            header0.flags() & ~ROOT_FLAG, header0.dstIpCache());
      }
      case TREE_DOWN -> {
        if (control.failCause() == FailCause.NONE.code()) {
          header0 = onNotify(control, header0, ingressVertex, destination);
        }
      }
      default -> release(control.trueCommId());
    }
    IncFrame out = new IncFrame(frame.type(), frame.ipSource(), frame.ipDestination(), frame.mpi(), header0, null,
        control);
    sink.send(packet.toBuilder().destinationHost(destination).extension(out).build(),
        controlNextHop(frame.type(), control, destination), done);
  }

  /** The query's update (the INC paper, table 2): this switch's capabilities, address and load. */
  ControlPayload onQuery(ControlPayload c) {
    int hops = Math.min(0x7F, c.hops() + 1);
    int maxDataSize = Math.min(c.supMaxDataSize(), unit.maxDataSizeBytes());
    long tor1 = c.tor1Ip();
    long spineIp = c.spineIp();
    long tor2 = c.tor2Ip();
    if (spine) {
      spineIp = ip;
    } else if (tor1 == 0) {
      tor1 = ip;
    } else {
      tor2 = ip;
    }
    int failCause = c.failCause();
    boolean slotsFree = freeSlots >= slotsNeeded(maxDataSize, elementBytesOf(c));
    // A SPINE only reports its load: the MRR picks among the SPINEs the queries crossed, so one full SPINE does
    // not stop the group. A TOR is on the group's only path to its leaders: when it is full, the group cannot use INC.
    if (!spine && failCause == FailCause.NONE.code()) {
      if (freeGroups == 0) {
        failCause = FailCause.NO_FREE_GROUPS.code();
      } else if (!slotsFree) {
        failCause = FailCause.NO_AGGREGATION_SLOTS.code();
      }
    }
    long available = slotsFree && !impaired ? freeGroups : 0;
    // A stream keeps at most `window` chunks of a leader in flight, each on its own slots: lower the window the
    // query asks for to the chunks of the path's maximum data size that the free slots hold.
    int window = IncCodes.streamWindow(c.supCommType());
    if (window > 0) {
      window = Math.min(window, freeSlots / slotsNeeded(maxDataSize, elementBytesOf(c)));
    }
    return c.toBuilder().queryNotifyHop((c.queryNotifyHop() & 0x80) | hops)
        .supCommType(IncCodes.withStreamWindow(c.supCommType(), window))
        .supAllreduceOp(c.supAllreduceOp() & operationMask).supDataType(c.supDataType() & dataTypeMask)
        .supMaxDataSize(maxDataSize).avaGrpNum(spine ? available : c.avaGrpNum()).failCause(failCause).tor1Ip(tor1)
        .spineIp(spineIp).tor2Ip(tor2).build();
  }

  /** The largest element (8-byte values with a 4-byte MAXLOC/MINLOC location): the fewest data bytes per fragment. */
  private static final int LARGEST_ELEMENT_BYTES = 12;

  /**
   * Aggregation slots a group needs here: one per fragment of a message of {@code dataBytes}, cut as the NICs cut
   * it (fragments of whole {@code elementBytes} elements).
   */
  int slotsNeeded(int dataBytes, int elementBytes) {
    int perFragment = Math.max(elementBytes, nicFragmentBytes / elementBytes * elementBytes);
    return Math.max(1, (dataBytes + perFragment - 1) / perFragment);
  }

  /**
   * The largest element the payload's masks allow: the ranks put the case's one operation and type into their
   * query and the MRR into its notify (see IncControlPlane), so this is that element exactly; wider masks give the
   * largest of theirs, which never reserves too few slots.
   */
  private static int elementBytesOf(ControlPayload c) {
    int largest = 0;
    for (DataType type : DataType.values()) {
      if ((c.supDataType() & (1 << IncCodes.typeCode(type))) != 0) largest = Math.max(largest, type.sizeBytes());
    }
    if (largest == 0) return LARGEST_ELEMENT_BYTES;
    int located = (1 << IncCodes.opCode(ReduceOp.MAXLOC)) | (1 << IncCodes.opCode(ReduceOp.MINLOC));
    return largest + ((c.supAllreduceOp() & located) != 0 ? 4 : 0);
  }

  /** The notify's work: allocate the group once, record the tree; returns Header0 as this switch leaves it. */
  private IncHeader0 onNotify(ControlPayload c, IncHeader0 header0, int ingressVertex, int destination) {
    long groupId = c.trueCommId();
    IncGroup group = groups.get(groupKey(groupId), 0L);
    if (group == null) {
      // A streamed group (a window in sup_comm_type) holds the slots of one chunk per window position.
      int perPosition = slotsNeeded(c.supMaxDataSize(), elementBytesOf(c));
      int slots = perPosition * Math.max(1, IncCodes.streamWindow(c.supCommType()));
      if (freeGroups == 0 || freeSlots < slots) {
        throw new IllegalStateException(name() + " cannot allocate INC group " + groupId + ": " + freeGroups
            + " free groups and " + freeSlots + " free aggregation slots, the group needs 1 and " + slots
            + " (another group took them since the query?)");
      }
      group = new IncGroup(groupId, slots, perPosition, !spine);
      freeGroups--;
      freeSlots -= slots;
      groups.put(groupKey(groupId), 0L, group);
      groupKeys.add(groupKey(groupId));
    } else if (group.groupId != groupId) {
      throw new IllegalStateException(name() + ": INC groups " + group.groupId + " and " + groupId
          + " share the low 24 bits task ids carry; group ids must differ there");
    }
    // The tree at this switch: a SPINE is the root over the TORs; a TOR that gets the notify from a host (the MRR
    // leader) is the root of a single-TOR group or has the named SPINE as parent; one that gets it from the SPINE
    // has that SPINE as parent.
    boolean fromHost = topology.isHost(ingressVertex);
    int parent;
    int expected;
    if (spine) {
      parent = IncGroup.ROOT;
      expected = c.torCount();
    } else if (fromHost) {
      parent = c.torCount() == 1 ? IncGroup.ROOT
          : spineNamedBy(c, "a notify of a group over " + c.torCount() + " TORs");
      expected = c.srcLocalGroupSize();
    } else {
      parent = ingressVertex;
      expected = c.localGroupSize();
    }
    String problem = group.configure(parent, expected);
    if (problem != null) {
      throw new IllegalStateException(name() + ", INC group " + groupId + ": " + problem);
    }
    if (spine) {
      addChild(group, ingressVertex, "the ingress TOR");
      addChild(group, torOf(destination), "the egress TOR");
    } else {
      if (fromHost) {
        addChild(group, (int) header0.leaderRank(), "the sending leader");
      }
      if (torOf(destination) == vertex) {
        addChild(group, (int) c.dstRank(), "the destination leader");
      }
    }
    int childCount = spine ? c.globalGroupSize() : group.expectedChildren();
    return new IncHeader0(header0.groupId(), header0.leaderRank(), Math.min(0xFFFF, childCount), tier.level(),
        group.isRoot() ? header0.flags() | ROOT_FLAG : header0.flags() & ~ROOT_FLAG, header0.dstIpCache());
  }

  private void addChild(IncGroup group, int child, String role) {
    if (group.childIndex(child) < 0) {
      throw new IllegalStateException(name() + ", INC group " + group.groupId + ": " + role + " (" + childName(child)
          + ") would be child " + (group.childCount() + 1) + ", but the notify said to expect "
          + group.expectedChildren());
    }
  }

  /** A child as messages name it: a TOR's children are leader ranks, a SPINE's are TOR vertices. */
  private String childName(int child) {
    return spine ? "vertex " + child : "rank " + child;
  }

  /** The child a contribution comes from: its leader's rank at a TOR, the sending TOR at a SPINE. */
  private int childOf(Packet packet) {
    return spine ? packet.sourceHost() : IncFrame.of(packet).mpi().srcRank();
  }

  /** Frees the group's state and resources; releasing a group not held here does nothing. */
  private void release(long groupId) {
    IncGroup group = groups.get(groupKey(groupId), 0L);
    if (group == null || group.groupId != groupId) {
      return;
    }
    groups.remove(groupKey(groupId), 0L);
    groupKeys.remove(groupKey(groupId));
    freeGroups++;
    freeSlots += group.slotCount;
  }

  /**
   * Where a control packet goes next: at a TOR, a host under it directly, a notify or release for another TOR's
   * host to the SPINE it names; anything else by the routing table.
   */
  private int controlNextHop(IncPacketType type, ControlPayload c, int destination) {
    if (spine) {
      return torOf(destination);
    }
    if (torOf(destination) == vertex) {
      return destination;
    }
    if (type != IncPacketType.TREE_UP && c.spineIp() != 0) {
      return spineNamedBy(c, "a " + type + " for host " + destination);
    }
    return -1;
  }

  /** The SPINE the control payload names, checked to be a neighbour. */
  private int spineNamedBy(ControlPayload c, String what) {
    if (c.spineIp() == 0) {
      throw new IllegalStateException(name() + ": " + what + " names no SPINE (spine_ip = 0)");
    }
    int s = IncAddresses.vertexOf(c.spineIp());
    if (s >= topology.vertexCount() || !isNeighbour(s) || topology.tier(s) != Tier.SPINE) {
      throw new IllegalStateException(name() + ": " + what + " names " + IncAddresses.dotted(c.spineIp())
          + ", which is no SPINE linked to this TOR");
    }
    return s;
  }

  private boolean isNeighbour(int other) {
    List<Topology.Link> ports = topology.ports(vertex);
    for (Topology.Link link : ports) {
      if (link.to() == other) return true;
    }
    return false;
  }

  /** The TOR of host {@code host}: its only neighbour in a leaf-spine fabric. */
  private int torOf(int host) {
    List<Topology.Link> ports = topology.ports(host);
    if (!topology.isHost(host) || ports.size() != 1) {
      throw new IllegalStateException(name() + ": vertex " + host + " is no host under a single TOR");
    }
    return ports.get(0).to();
  }

  // ---- data plane ---------------------------------------------------------------------------------------------

  private void onContribution(Packet packet, Sink sink) {
    IncFrame frame = IncFrame.of(packet);
    IncHeader2 h2 = frame.header2();
    IncGroup group = groupOf(h2.taskId(), "a contribution");
    ReduceOp op = checkComputable(frame, group);
    int childId = childOf(packet);
    int child = group.childIndex(childId);
    if (child < 0) {
      throw new IllegalStateException(name() + ", INC group " + group.groupId + ": a contribution from "
          + childName(childId) + ", but all " + group.expectedChildren() + " expected children are known");
    }
    Generation gen = generation(group, h2, frame.stream(), reqIdOf(h2.taskId()));
    if (gen.hasContributed(child)) {
      answerDuplicate(group, gen, child, childId, recognise(packet.tailTimePs()), sink);
      return;
    }
    long done = occupy(packet.tailTimePs(), h2.fragmentBytes());
    gen.contribute(child, packet, op);
    if (gen.contributed < group.expectedChildren()) {
      return;
    }
    if (!group.isRoot()) {
      gen.partial = partial(group, gen);
      gen.state = State.WAITING_PARENT;
      sink.send(gen.partial, group.parent(), done);
    } else {
      gen.result = gen.aggregate;
      gen.state = State.HAS_RESULT;
      sendResult(group, gen, -1, done, 0, sink);
    }
  }

  /** A child sent a fragment again that was counted already: answer it, never count it twice. */
  private void answerDuplicate(IncGroup group, Generation gen, int child, int childId, long done, Sink sink) {
    switch (gen.state) {
      case HAS_RESULT -> {
        resends++;
        sendResult(group, gen, childId, done, IncHeader2.RETRANSMISSION_FLAG, sink);
      }
      case WAITING_PARENT -> {
        // Every child that waits resends after its timeout; one partial per round is enough (the parent answers
        // it for all). The first child's resend stands for the round: were it lost, the next round's is not.
        if (child != 0) {
          duplicatesDropped++;
          return;
        }
        resends++;
        // A chunk of a stream keeps its stream header (Packet.asRetransmission rebuilds the frame without it).
        Packet partial = gen.partial;
        sink.send(IncFrame.of(partial).stream() == null ? partial.asRetransmission()
            : partial.toBuilder().extension(partial.extension().asRetransmission()).build(), group.parent(), done);
      }
      default -> duplicatesDropped++;
    }
  }

  /** The result of the parent (a SPINE) for this TOR's partial. */
  private void onParentResult(Packet packet, int ingressVertex, Sink sink) {
    IncHeader2 h2 = IncFrame.of(packet).header2();
    IncGroup group = groupOf(h2.taskId(), "a result");
    if (group.isRoot() || group.parent() != ingressVertex) {
      throw new IllegalStateException(name() + ", INC group " + group.groupId + ": a result came from vertex "
          + ingressVertex + ", which is not this switch's parent in the tree");
    }
    long done = occupy(packet.tailTimePs(), h2.fragmentBytes());
    IncStreamHeader stream = IncFrame.of(packet).stream();
    IncSlot slot = group.existingSlot(slotIndex(group, h2, stream));
    Generation gen = slot == null ? null : slot.find(reqIdOf(h2.taskId()), stream == null ? 0 : stream.round());
    // A second copy of a result already filled in (the parent answered several resent partials) changes nothing.
    if (gen == null || gen.state == State.HAS_RESULT) {
      duplicatesDropped++;
      return;
    }
    if (gen.state != State.WAITING_PARENT) {
      throw new IllegalStateException(name() + ", INC group " + group.groupId + ": result of fragment "
          + h2.fragmentIndex() + " req_id " + reqIdOf(h2.taskId()) + " came before this switch sent its partial");
    }
    gen.result = packet.slice();
    gen.state = State.HAS_RESULT;
    gen.partial = null;
    sendResult(group, gen, -1, done, 0, sink);
  }

  /**
   * Sends the result down: a SPINE to its child TORs, a TOR filled into its cached packets, each to its original
   * destination. With {@code onlyTo} >= 0 only to that child: a TOR vertex (at a SPINE), or the leader rank the
   * cached packet is destined to (at a TOR).
   */
  private void sendResult(IncGroup group, Generation gen, int onlyTo, long readyPs, int flags, Sink sink) {
    IncHeader2 t = IncFrame.of(gen.template).header2();
    if (spine) {
      for (int c = 0; c < group.childCount(); c++) {
        int tor = group.child(c);
        if (onlyTo >= 0 && tor != onlyTo) continue;
        long torIp = IncAddresses.ofVertex(tor);
        IncHeader2 h2 = new IncHeader2(t.taskId(), t.fragmentIndex(), t.fragmentCount(), t.fragmentBytes(), flags,
            torIp);
        IncFrame frame = new IncFrame(IncPacketType.TASK_DOWN, ip, torIp, IncFrame.of(gen.template).mpi(), null, h2,
            null, IncFrame.of(gen.template).stream());
        sink.send(Packet.builder().sourceHost(vertex).destinationHost(tor).messageId(0L)
            .segmentIndex(t.fragmentIndex()).segmentCount(t.fragmentCount())
            .wireBytes(wireBytes(frame, t.fragmentBytes())).tailTimePs(0L).info(gen.template.info())
            .elementOffset(gen.template.elementOffset()).slice(gen.result).extension(frame).build(), tor, readyPs);
      }
      return;
    }
    boolean sent = false;
    for (Packet cached : gen.cached) {
      IncFrame f = IncFrame.of(cached);
      IncHeader2 c = f.header2();
      // The INC patent's swap back: the cached real destination becomes the IP destination again.
      int destination = IncAddresses.vertexOf(c.dstIpCache());
      if (onlyTo >= 0 && cached.info().destinationRank() != onlyTo) continue;
      IncHeader2 h2 = new IncHeader2(c.taskId(), c.fragmentIndex(), c.fragmentCount(), c.fragmentBytes(), flags,
          ip);
      IncFrame frame = new IncFrame(IncPacketType.TASK_DOWN, f.ipSource(), c.dstIpCache(), f.mpi(), null, h2, null,
          f.stream());
      sink.send(cached.toBuilder().destinationHost(destination).wireBytes(wireBytes(frame, c.fragmentBytes()))
          .tailTimePs(0L).slice(gen.result).extension(frame).build(), destination, readyPs);
      sent = true;
    }
    if (onlyTo >= 0 && !sent) {
      throw new IllegalStateException(name() + ": no cached packet of fragment " + t.fragmentIndex() + " req_id "
          + gen.reqId + " is destined to rank " + onlyTo + " (do the group's leaders under this TOR send in a "
          + "closed ring?)");
    }
  }

  /** The partial result of this switch's children, addressed to the parent. */
  private Packet partial(IncGroup group, Generation gen) {
    IncHeader2 t = IncFrame.of(gen.template).header2();
    long parentIp = IncAddresses.ofVertex(group.parent());
    IncHeader2 h2 = new IncHeader2(t.taskId(), t.fragmentIndex(), t.fragmentCount(), t.fragmentBytes(), 0,
        parentIp);
    IncFrame frame = new IncFrame(IncPacketType.TASK_UP, ip, parentIp, IncFrame.of(gen.template).mpi(), null, h2, null,
        IncFrame.of(gen.template).stream());
    return Packet.builder().sourceHost(vertex).destinationHost(group.parent()).messageId(0L)
        .segmentIndex(t.fragmentIndex()).segmentCount(t.fragmentCount()).wireBytes(wireBytes(frame, t.fragmentBytes()))
        .tailTimePs(0L).info(gen.template.info()).elementOffset(gen.template.elementOffset()).slice(gen.aggregate)
        .extension(frame).build();
  }

  /** Whether the group of task {@code taskId} is held and set up here. */
  private boolean holds(long taskId) {
    IncGroup group = groups.get((int) (taskId >>> 8), 0L);
    return group != null && group.configured();
  }

  private IncGroup groupOf(long taskId, String what) {
    IncGroup group = groups.get((int) (taskId >>> 8), 0L);
    if (group == null || !group.configured()) {
      throw new IllegalStateException(name() + ": " + what + " of INC group " + (taskId >>> 8) + " (low 24 bits), "
          + "req_id " + reqIdOf(taskId) + ", but the group is not registered here (no notify set it up on this "
          + "switch, or it was released)");
    }
    return group;
  }

  /** The data's reduce operation, checked to be one this unit computes on the data's type. */
  private ReduceOp checkComputable(IncFrame frame, IncGroup group) {
    int opCode = frame.mpi().opCode();
    int typeCode = frame.mpi().operandType();
    if ((operationMask & (1 << opCode)) == 0 || (dataTypeMask & (1 << typeCode)) == 0) {
      throw new IllegalStateException(name() + ", INC group " + group.groupId + ": cannot compute "
          + IncCodes.op(opCode) + " on " + IncCodes.type(typeCode) + " (this unit supports " + unit.operations()
          + " on " + unit.dataTypes() + ")");
    }
    return IncCodes.op(opCode);
  }

  private Generation generation(IncGroup group, IncHeader2 h2, IncStreamHeader stream, int reqId) {
    IncSlot slot = h2.fragmentIndex() < group.slotsPerPosition ? group.slot(slotIndex(group, h2, stream)) : null;
    if (slot == null) {
      throw new IllegalStateException(name() + ", INC group " + group.groupId + ": fragment " + h2.fragmentIndex()
          + " of " + h2.fragmentCount() + (stream == null ? "" : " of chunk " + stream.chunkIndex() + " (window "
          + "position " + stream.slotPosition() + ")") + " is beyond the " + group.slotCount + " aggregation slots "
          + "reserved for the group (a message larger than its sup_max_data_size, or a window wider than the "
          + "notify's?)");
    }
    Generation gen = stream == null ? slot.acquire(reqId)
        : slot.acquire(reqId, stream.round(), stream.lastRound());
    if (gen == null) {
      throw new IllegalStateException(name() + ", INC group " + group.groupId + ", fragment " + h2.fragmentIndex()
          + ": a contribution for req_id " + reqId + " while both generations are busy (" + slot.describe()
          + "); at most two consecutive requests of a group may overlap");
    }
    return gen;
  }

  /**
   * The slot of a fragment: its index for a task of one chunk; for a chunk of a stream, the slots of the chunk's
   * window position, then the fragment's index among them.
   */
  private static int slotIndex(IncGroup group, IncHeader2 h2, IncStreamHeader stream) {
    return stream == null ? h2.fragmentIndex() : stream.slotPosition() * group.slotsPerPosition + h2.fragmentIndex();
  }

  /**
   * Occupies the unit with a packet whose tail is in at {@code tailPs}; returns when the result leaves. The unit's
   * time for one packet: it is busy reducing the payload at its rate (packets queue for that), and the
   * result leaves after the unit's pipeline latency, which does not hold the unit (an FPGA pipeline takes the next
   * packet while this one is in flight).
   */
  private long occupy(long tailPs, long payloadBytes) {
    long start = Math.max(tailPs, unitFreeAtPs);
    unitFreeAtPs = start + Units.transferPs(payloadBytes, unit.unitBitsPerSecond());
    return unitFreeAtPs + unit.unitLatencyPs();
  }

  /** A duplicate is recognised by its header: it costs the pipeline latency but takes no reduce time. */
  private long recognise(long tailPs) {
    return tailPs + unit.unitLatencyPs();
  }

  private int wireBytes(IncFrame frame, int dataBytes) {
    return nicHeaderBytes + IncWireCodec.wireBytes(frame) + dataBytes;
  }

  /** The 24-bit group key task ids carry. */
  private static int groupKey(long groupId) {
    return (int) (groupId & 0xFFFFFFL);
  }

  private static int reqIdOf(long taskId) {
    return (int) (taskId & 0xFF);
  }

  private String name() {
    return "switch " + topology.vertex(vertex).name() + " (vertex " + vertex + ")";
  }

  /** The slot state of a group, for tests: the data the generation of {@code reqId} holds, or null. */
  DataBuffer resultOf(long groupId, int fragmentIndex, int reqId) {
    IncGroup group = groups.get(groupKey(groupId), 0L);
    IncSlot slot = group == null ? null : group.existingSlot(fragmentIndex);
    Generation gen = slot == null ? null : slot.find(reqId);
    return gen == null ? null : gen.result;
  }

  /** The children a group expects here, or -1 when the group is not held: for tests. */
  int expectedChildren(long groupId) {
    IncGroup group = groups.get(groupKey(groupId), 0L);
    return group == null ? -1 : group.expectedChildren();
  }
}
