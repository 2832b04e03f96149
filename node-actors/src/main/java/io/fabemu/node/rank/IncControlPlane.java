package io.fabemu.node.rank;

import io.fabemu.collectives.IncLayout;
import io.fabemu.collectives.Tags;
import io.fabemu.core.data.DataBuffer;
import io.fabemu.core.data.DataType;
import io.fabemu.core.data.ReduceOp;
import io.fabemu.core.inc.ControlPayload;
import io.fabemu.core.inc.IncAddresses;
import io.fabemu.core.inc.IncCodes.FailCause;
import io.fabemu.core.inc.IncCodes;
import io.fabemu.core.inc.IncPacketType;
import io.fabemu.core.inc.IncRequest;
import io.fabemu.core.inc.MpiHeader;
import io.fabemu.core.protocol.Message;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * One rank's part of the INC control plane (the INC paper, section 3.3; Socket mode, section 3.5), run before the first
 * iteration of an INC case (setup) and after its last (release); neither is timed, as an MPI library sets up its
 * communicator outside the measured loop.
 *
 * <p>Setup: (0) the group id, a random 32-bit number drawn from the run's seed, reaches every rank from the MRR
 * along a binomial tree of 4-byte point-to-point messages (every rank draws the same number; the messages carry
 * its cost). (1) Query: every NMRR sends a query (INC tree-generation up) to the MRR of its group; the switches on
 * the way fill in their capabilities, addresses and load. (2) Socket mode: each MRR reduces its queries to a
 * {@link Summary} and sends it to the other MRRs, so that every MRR decides from all of them (one aggregation tree
 * serves all groups). (3) Each MRR
 * decides ({@link #decide}) and sends a notify (tree-generation down, through the chosen SPINE) to its NMRRs; the
 * switches build the tree. (4) Every leader broadcasts the outcome to the ranks it leads (binomial tree, shared
 * memory). Release: each MRR sends a release (kill) to its NMRRs through the tree, freeing the switches; the NMRRs
 * wait for it, so that the next case's queries find the resources free.
 *
 * <p>Time: the plane keeps its own CPU clock, starting from the rank's; every message costs the host's send or
 * receive overhead, as in {@link ScheduleExecutor}. Messages are matched by (source, tag); those that arrive early
 * wait. Tags: the operation sequence number the workload gives, phase 15, round = the step below.
 *
 * <p>Length: past 500 lines because the setup's stages, the release and the MRR's decision (with its summaries) are
 * one protocol over one message queue; the decision is a pure static part ({@link #decide}) tested on its own.
 */
final class IncControlPlane {
  static final int PHASE = 15;
  private static final int ROUND_GROUP_ID = 0;
  private static final int ROUND_QUERY = 1;
  private static final int ROUND_SYNC = 2;
  private static final int ROUND_NOTIFY = 3;
  private static final int ROUND_OUTCOME = 4;
  private static final int ROUND_RELEASE = 5;
  private static final int GROUP_ID_BYTES = 4;

  private enum Stage { IDLE, GROUP_ID, QUERIES, SYNC, NOTIFY, OUTCOME, RELEASE }

  private final int rank;
  /** The vertex of the TOR above this rank's node: the tor1 address of the notifies it sends. */
  private final int torVertex;
  private final RankHost host;
  /** The running case's layout (Node or Socket mode). */
  private IncLayout layout;
  private final long seed;
  /** Messages arrived and not yet consumed, by (source, tag), in arrival order, with their arrival times. */
  private final Map<Key, ArrayDeque<Arrived>> arrived = new HashMap<>();

  private Stage stage = Stage.IDLE;
  private long sequence;
  private long cpuFreePs;
  private long groupId;
  private long sizeBytes;
  private DataType dataType;
  private ReduceOp op;
  private FailCause outcome;
  /** The notify (or, for an MRR, the decision) this leader got; passed down to the ranks it leads. */
  private ControlPayload decision;
  /** Queries an MRR got from its group's NMRRs. */
  private final List<ControlPayload> queries = new ArrayList<>();
  /** An MRR's summary of each group's queries (its own, and in Socket mode the other MRRs'), by group. */
  private Summary[] summaries;
  private int awaited;

  private record Arrived(Message message, long arrivalPs) {}

  private record Key(int source, long tag) {}

  /** An MRR's NMRRs (formula 4), computed once per setup; null on other ranks. */
  private int[] notifyTargets;
  /** The source of the message that arrived last; after one full sweep, only it can complete a wait. */
  private int lastSource = -1;
  private boolean swept;

  /** @param torVertex the vertex of the TOR above this rank's node (-1 without one) */
  IncControlPlane(int rank, RankHost host, int torVertex, long seed) {
    this.rank = rank;
    this.torVertex = torVertex;
    this.host = host;
    this.seed = seed;
  }

  /** True while setup or release waits for a message. */
  boolean active() {
    return stage != Stage.IDLE;
  }

  long cpuFreePs() {
    return cpuFreePs;
  }

  /** The setup's outcome: {@link FailCause#NONE} when the group uses INC. */
  FailCause outcome() {
    return outcome;
  }

  long groupId() {
    return groupId;
  }

  /**
   * Starts the setup of case {@code caseIndex} at {@code nowPs}; {@code sequence} is the operation number its tags
   * carry (the same on every rank).
   */
  void beginSetup(IncLayout layout, long sequence, int caseIndex, long sizeBytes, DataType dataType, ReduceOp op,
                  long nowPs) {
    this.layout = layout;
    this.sequence = sequence;
    this.sizeBytes = sizeBytes;
    this.dataType = dataType;
    this.op = op;
    this.cpuFreePs = Math.max(cpuFreePs, nowPs);
    this.groupId = groupIdOf(seed, caseIndex);
    this.outcome = null;
    this.decision = null;
    this.queries.clear();
    this.summaries = new Summary[layout.groupCount()];
    this.notifyTargets = layout.isMrr(rank) ? layout.notifyTargets(rank) : null;
    this.swept = false;
    stage = Stage.GROUP_ID;
    if (rank != groupIdRoot()) {
      awaited = 1;
    } else {
      forwardGroupId();
    }
    pump();
  }

  /** Starts the release of the case's tree (only after a setup whose outcome was {@link FailCause#NONE}). */
  void beginRelease(long sequence, long nowPs) {
    this.sequence = sequence;
    this.cpuFreePs = Math.max(cpuFreePs, nowPs);
    stage = Stage.RELEASE;
    if (layout.isMrr(rank)) {
      for (int target : notifyTargets) {
        sendControl(target, ROUND_RELEASE, IncPacketType.RELEASE, withDestination(decision, target));
      }
      stage = Stage.IDLE;
    } else if (layout.isNmrr(rank)) {
      awaited = 1;
      pump();
    } else {
      stage = Stage.IDLE;
    }
  }

  /**
   * Stops waiting for the release: a fault broke the group's tree, so the MRR's release may never come through it
   * (the switches drop a cut group on their own). The plane is done at {@code nowPs}, when the rank learned so.
   */
  void abandonRelease(long nowPs) {
    if (stage != Stage.RELEASE) return;
    stage = Stage.IDLE;
    cpuFreePs = Math.max(cpuFreePs, nowPs);
  }

  /** A control-plane message (tag phase {@link #PHASE}) arrived at {@code nowPs}. */
  void onMessage(long nowPs, Message message) {
    arrived.computeIfAbsent(new Key(message.sourceRank(), message.tag()), k -> new ArrayDeque<>())
        .add(new Arrived(message, nowPs));
    lastSource = message.sourceRank();
    pump();
  }

  /** The group id of a case: drawn from the run's seed, the same on every rank, never 0. */
  static long groupIdOf(long seed, int caseIndex) {
    SplittableRandom random = new SplittableRandom(seed ^ 0x1C0FFEE5EEDL ^ ((long) caseIndex << 40));
    return 1 + random.nextLong(0xFFFF_FFFEL);
  }

  private int groupIdRoot() {
    return layout.mrrOf(0);
  }

  /** Consumes what the current stage waits for, for as long as it is there. */
  private void pump() {
    boolean progressed = true;
    while (progressed && stage != Stage.IDLE) {
      progressed = switch (stage) {
        case GROUP_ID -> receiveGroupId();
        case QUERIES -> receiveQueries();
        case SYNC -> receiveSync();
        case NOTIFY -> receiveNotify();
        case OUTCOME -> receiveOutcome();
        case RELEASE -> receiveRelease();
        case IDLE -> false;
      };
    }
  }

  // ------------------------------------------------------------------ (0) the group id

  private boolean receiveGroupId() {
    int parent = treeParent(rank - groupIdRoot());
    if (take(parent + groupIdRoot(), ROUND_GROUP_ID) == null) return false;
    forwardGroupId();
    return true;
  }

  /** Sends the group id on down the binomial tree over all ranks, then starts the query stage. */
  private void forwardGroupId() {
    int root = groupIdRoot();
    int p = layout.rankCount();
    int relative = rank - root;
    for (int child : treeChildren(relative, p)) {
      sendPlain(child + root, ROUND_GROUP_ID, GROUP_ID_BYTES);
    }
    startQueries();
  }

  // ------------------------------------------------------------------ (1) queries

  private void startQueries() {
    if (!layout.isLeader(rank)) {
      stage = Stage.OUTCOME;
      awaited = 1;
      return;
    }
    if (layout.isNmrr(rank)) {
      int mrr = layout.queryTarget(rank);
      sendControl(mrr, ROUND_QUERY, IncPacketType.TREE_UP, initialQuery(mrr));
      stage = Stage.NOTIFY;
      awaited = 1;
      return;
    }
    stage = Stage.QUERIES;
    awaited = notifyTargets.length;
    swept = false;
  }

  private ControlPayload initialQuery(int mrr) {
    int group = layout.groupOf(rank);
    // The query asks for the case's operation and type: each switch keeps the bit if it supports it, and sizes
    // its aggregation slots by that element.
    // The stream window asked for is the most the field holds: the NICs and switches on the way lower it to the
    // chunks they can keep in flight.
    return ControlPayload.builder().masterNum(layout.groupCount() > 1 ? 1 : 0)
        .supCommType(IncCodes.withStreamWindow(1, IncCodes.MAX_STREAM_WINDOW))
        .supAllreduceOp(1 << IncCodes.opCode(op)).supDataType(1 << IncCodes.typeCode(dataType))
        .supMaxDataSize(0xFFFF).globalGroupSize(u16(layout.leaderCount()))
        .localGroupSize(leadersUnderTor(layout.torOfLeader(rank))).trueCommId(groupId).avaGrpNum(0xFFFF_FFFFL)
        .supMpiType(3).dstRank(mrr).jobId(1).cId(group).worldRank(rank).build();
  }

  private boolean receiveQueries() {
    boolean any = false;
    if (!swept) {
      // Queries may have come before this stage: look for each once; afterwards only the newest can be one.
      swept = true;
      for (int nmrr : notifyTargets) any |= takeQuery(nmrr);
    } else if (lastSource >= 0) {
      any = takeQuery(lastSource);
    }
    if (awaited > 0) return any;
    queries.sort((a, b) -> Long.compare(a.worldRank(), b.worldRank()));
    summaries[layout.groupOf(rank)] = summarize(queries, layout, rank);
    if (layout.groupCount() > 1) {
      // Socket mode: one tree serves every group, so every MRR decides from every group's queries; the decision
      // is a reduction, so each MRR sends the others one summary of its own.
      for (int g = 0; g < layout.groupCount(); g++) {
        int other = layout.mrrOf(g);
        if (other != rank) {
          sendControl(other, ROUND_SYNC, IncPacketType.TREE_UP, summaries[layout.groupOf(rank)].toPayload(rank));
        }
      }
      stage = Stage.SYNC;
      awaited = layout.groupCount() - 1;
      return true;
    }
    decideAndNotify();
    return true;
  }

  private boolean takeQuery(int source) {
    if (!layout.isNmrr(source) || layout.queryTarget(source) != rank) return false;
    Message m = take(source, ROUND_QUERY);
    if (m == null) return false;
    queries.add(IncRequest.of(m).control());
    awaited--;
    return true;
  }

  // ------------------------------------------------------------------ (2) Socket mode: MRRs share summaries

  private boolean receiveSync() {
    boolean any = false;
    for (int g = 0; g < layout.groupCount(); g++) {
      int other = layout.mrrOf(g);
      if (other == rank || summaries[g] != null) continue;
      Message m = take(other, ROUND_SYNC);
      if (m == null) continue;
      summaries[g] = Summary.fromPayload(IncRequest.of(m).control());
      awaited--;
      any = true;
    }
    if (awaited > 0) return any;
    decideAndNotify();
    return true;
  }

  // ------------------------------------------------------------------ (3) decision and notify

  private void decideAndNotify() {
    // Every MRR merges the same summaries in group order, so all reach the same decision.
    Summary all = summaries[0];
    for (int g = 1; g < summaries.length; g++) all = all.merge(summaries[g]);
    Decision d = decide(all, layout, sizeBytes, dataType, op);
    outcome = d.cause();
    // With INC, the notify names the one operation, type and size decided: the switches reserve slots by them. A
    // streamed message names its chunk size and the window, for which the switches reserve a chunk's slots each.
    boolean inc = d.cause() == FailCause.NONE;
    int ops = inc ? 1 << IncCodes.opCode(op) : d.supportedOps();
    int types = inc ? 1 << IncCodes.typeCode(dataType) : d.supportedTypes();
    int dataSize = !inc ? d.maxDataSize() : d.streamWindow() > 0 ? d.chunkBytes() : (int) sizeBytes;
    decision = ControlPayload.builder().masterNum(layout.groupCount() > 1 ? 1 : 0).queryNotifyHop(0x80)
        .supCommType(IncCodes.withStreamWindow(1, inc ? d.streamWindow() : 0)).supAllreduceOp(ops)
        .supDataType(types).supMaxDataSize(dataSize)
        .globalGroupSize(u16(layout.leaderCount())).trueCommId(groupId).avaGrpNum(d.spineFreeGroups()).supMpiType(3)
        .failCause(d.cause().code()).tor1Ip(IncAddresses.ofVertex(torVertex)).spineIp(d.spineIp()).jobId(1)
        .cId(layout.groupOf(rank)).worldRank(rank).srcLocalGroupSize(leadersUnderTor(layout.torOfLeader(rank)))
        .torCount(d.torCount()).build();
    for (int target : notifyTargets) {
      sendControl(target, ROUND_NOTIFY, IncPacketType.TREE_DOWN, withDestination(decision, target));
    }
    startOutcomeBroadcast();
  }

  /** The decision's payload addressed to one NMRR: its rank and the leaders under its TOR. */
  private ControlPayload withDestination(ControlPayload p, int target) {
    return p.toBuilder().localGroupSize(leadersUnderTor(layout.torOfLeader(target))).dstRank(target).build();
  }

  private boolean receiveNotify() {
    Message m = take(layout.queryTarget(rank), ROUND_NOTIFY);
    if (m == null) return false;
    decision = IncRequest.of(m).control();
    outcome = FailCause.ofCode(decision.failCause());
    startOutcomeBroadcast();
    return true;
  }

  // ------------------------------------------------------------------ (4) outcome to the led ranks

  private void startOutcomeBroadcast() {
    sendOutcomeToChildren();
    stage = Stage.IDLE;
  }

  private boolean receiveOutcome() {
    int leader = layout.leaderOf(rank);
    int parent = treeParent(rank - leader) + leader;
    Message m = take(parent, ROUND_OUTCOME);
    if (m == null) return false;
    decision = IncRequest.of(m).control();
    outcome = FailCause.ofCode(decision.failCause());
    sendOutcomeToChildren();
    stage = Stage.IDLE;
    return true;
  }

  private void sendOutcomeToChildren() {
    int leader = layout.leaderOf(rank);
    for (int child : treeChildren(rank - leader, layout.ledBy(leader).count())) {
      sendControl(child + leader, ROUND_OUTCOME, IncPacketType.TREE_DOWN, decision);
    }
  }

  // ------------------------------------------------------------------ release

  private boolean receiveRelease() {
    if (take(layout.queryTarget(rank), ROUND_RELEASE) == null) return false;
    stage = Stage.IDLE;
    return true;
  }

  // ------------------------------------------------------------------ the decision

  /**
   * What the MRRs decide. {@code streamWindow} > 0 when the message is streamed in chunks of {@code chunkBytes}
   * (then both are what the notify names); 0 when it fits one task.
   */
  record Decision(FailCause cause, long spineIp, long spineFreeGroups, int torCount, int supportedOps,
                  int supportedTypes, int maxDataSize, int streamWindow, int chunkBytes) {}

  /**
   * What one MRR learned from its group's queries, reduced: the first problem (in sender rank order), the
   * capabilities every switch crossed shares, and the best SPINE with INC that a query crossed. Summaries merge, so
   * in Socket mode the MRRs exchange one each instead of every query.
   */
  record Summary(FailCause cause, int ops, int types, int maxDataSize, long spineIp, long spineFreeGroups,
                 int queries, int streamWindow) {

    Summary merge(Summary later) {
      boolean laterSpine = later.spineIp != 0 && (spineIp == 0 || later.spineFreeGroups > spineFreeGroups
          || (later.spineFreeGroups == spineFreeGroups && later.spineIp < spineIp));
      return new Summary(cause != FailCause.NONE ? cause : later.cause, ops & later.ops, types & later.types,
          Math.min(maxDataSize, later.maxDataSize), laterSpine ? later.spineIp : spineIp,
          laterSpine ? later.spineFreeGroups : spineFreeGroups, queries + later.queries,
          Math.min(streamWindow, later.streamWindow));
    }

    /** On the wire between MRRs: a control payload (fail cause, masks, max size, SPINE, free groups, count). */
    ControlPayload toPayload(int mrr) {
      return ControlPayload.builder().masterNum(1).supCommType(IncCodes.withStreamWindow(1, streamWindow))
          .supAllreduceOp(ops).supDataType(types)
          .supMaxDataSize(maxDataSize).globalGroupSize(u16(queries)).avaGrpNum(spineFreeGroups).supMpiType(3)
          .failCause(cause.code()).spineIp(spineIp).jobId(1).worldRank(mrr).build();
    }

    static Summary fromPayload(ControlPayload p) {
      return new Summary(FailCause.ofCode(p.failCause()), p.supAllreduceOp(), p.supDataType(), p.supMaxDataSize(),
          p.spineIp(), p.avaGrpNum(), p.globalGroupSize(), IncCodes.streamWindow(p.supCommType()));
    }
  }

  /**
   * Reduces one group's queries (sorted by sender rank). A query that crossed another TOR must have passed INC units
   * at both TORs; the SPINE it crossed counts only if it has a unit (it wrote its address) — the notify goes through
   * the chosen SPINE only, so a SPINE without INC elsewhere does not stop the group. A switch's fail cause (a TOR
   * out of groups or slots) is the group's.
   */
  static Summary summarize(List<ControlPayload> queries, IncLayout layout, int mrr) {
    FailCause cause = FailCause.NONE;
    int ops = 0xFFFF;
    int types = 0xFFFF;
    int maxData = 0xFFFF;
    long bestSpine = 0;
    long bestFree = 0;
    int window = IncCodes.MAX_STREAM_WINDOW;
    int mrrTor = layout.torOfLeader(mrr);
    for (ControlPayload q : queries) {
      boolean crossTor = layout.torOfLeader((int) q.worldRank()) != mrrTor;
      boolean torsHaveInc = q.tor1Ip() != 0 && (!crossTor || q.tor2Ip() != 0);
      if (cause == FailCause.NONE && !torsHaveInc) cause = FailCause.NO_INC_SWITCH;
      if (cause == FailCause.NONE && q.failCause() != 0) cause = FailCause.ofCode(q.failCause());
      ops &= q.supAllreduceOp();
      types &= q.supDataType();
      maxData = Math.min(maxData, q.supMaxDataSize());
      window = Math.min(window, IncCodes.streamWindow(q.supCommType()));
      if (crossTor && q.spineIp() != 0 && (bestSpine == 0 || q.avaGrpNum() > bestFree
          || (q.avaGrpNum() == bestFree && q.spineIp() < bestSpine))) {
        bestSpine = q.spineIp();
        bestFree = q.avaGrpNum();
      }
    }
    return new Summary(cause, ops, types, maxData, bestSpine, bestFree, queries.size(), window);
  }

  /**
   * The MRRs' choice (the INC paper, notify): INC is used when the TORs have INC units and no switch is out of
   * resources, every switch crossed supports the operation, the type and the size, and (over several TORs) a SPINE with
   * INC and a free group was crossed: the one with the most free groups (ties: lowest address).
   */
  static Decision decide(Summary all, IncLayout layout, long sizeBytes, DataType type, ReduceOp op) {
    int torCount = 0;
    for (int tor = 0; tor < layout.torCount(); tor++) {
      int leaders = 0;
      for (int g = 0; g < layout.groupCount(); g++) leaders += layout.leadersUnderTor(g, tor);
      if (leaders > 0) torCount++;
    }
    FailCause cause = all.cause();
    if (all.queries() == 0) {
      // No NMRR: every leader is on node 0, and no notify would set a switch up.
      cause = FailCause.SINGLE_NODE;
    }
    if (cause == FailCause.NONE && (all.ops() & (1 << IncCodes.opCode(op))) == 0) cause = FailCause.OP_UNSUPPORTED;
    if (cause == FailCause.NONE && (all.types() & (1 << IncCodes.typeCode(type))) == 0) {
      cause = FailCause.TYPE_UNSUPPORTED;
    }
    // A message larger than the switches' maximum data size is streamed, in chunks of at most that size (whole
    // elements), when every NIC and switch on the queries' paths keeps a window of chunks; else it falls back.
    int elementBytes = type.sizeBytes() + (op.carriesLocation() ? DataBuffer.LOCATION_BYTES : 0);
    int chunkBytes = all.maxDataSize() / elementBytes * elementBytes;
    boolean streamed = sizeBytes > all.maxDataSize();
    if (cause == FailCause.NONE && streamed && (all.streamWindow() == 0 || chunkBytes == 0)) {
      cause = FailCause.MESSAGE_TOO_LARGE;
    }
    if (cause == FailCause.NONE && torCount > 1 && all.spineIp() == 0) cause = FailCause.NO_INC_SWITCH;
    if (cause == FailCause.NONE && torCount > 1 && all.spineFreeGroups() <= 0) cause = FailCause.NO_FREE_GROUPS;
    long spine = torCount > 1 ? all.spineIp() : 0;
    return new Decision(cause, spine, all.spineFreeGroups(), torCount, all.ops(), all.types(), all.maxDataSize(),
        streamed ? all.streamWindow() : 0, streamed ? chunkBytes : 0);
  }

  private static int u16(int n) {
    return Math.min(n, 0xFFFF);
  }

  // ------------------------------------------------------------------ helpers

  private int leadersUnderTor(int tor) {
    int n = 0;
    for (int g = 0; g < layout.groupCount(); g++) n += layout.leadersUnderTor(g, tor);
    return n;
  }

  private void sendPlain(int destination, int round, long bytes) {
    cpuFreePs += host.sendOverheadPs();
    host.send(Message.synthetic(rank, destination, tag(round), bytes), cpuFreePs);
  }

  private void sendControl(int destination, int round, IncPacketType type, ControlPayload payload) {
    cpuFreePs += host.sendOverheadPs();
    MpiHeader mpi = new MpiHeader(IncCodes.MPI_INC_TAG, rank, MpiHeader.CONTROL_COMM_ID, 0, 0, 0, 0);
    Message message = Message.synthetic(rank, destination, tag(round), ControlPayload.WIRE_BYTES)
        .withExtension(new IncRequest(type, mpi, payload, null));
    host.send(message, cpuFreePs);
  }

  /** Takes the oldest message from {@code source} with this round's tag, charging its receive; null if none. */
  private Message take(int source, int round) {
    Key key = new Key(source, tag(round));
    ArrayDeque<Arrived> queue = arrived.get(key);
    if (queue == null) return null;
    Arrived a = queue.poll();
    if (queue.isEmpty()) arrived.remove(key);
    cpuFreePs = Math.max(cpuFreePs, a.arrivalPs()) + host.recvOverheadPs();
    return a.message();
  }

  private long tag(int round) {
    return Tags.tag(sequence, Tags.channel(PHASE, round, 0));
  }

  /** Parent of relative rank {@code vr} (not 0) in a binomial tree rooted at 0: {@code vr} without its lowest bit. */
  private static int treeParent(int vr) {
    return vr & (vr - 1);
  }

  /** Children of relative rank {@code vr} in that tree, largest subtree first. */
  private static List<Integer> treeChildren(int vr, int p) {
    List<Integer> children = new ArrayList<>();
    int limit = vr == 0 ? Integer.highestOneBit(Math.max(1, p - 1)) << 1 : Integer.lowestOneBit(vr);
    for (int mask = limit >> 1; mask > 0; mask >>= 1) {
      if (vr + mask < p && (vr & mask) == 0) children.add(vr + mask);
    }
    return children;
  }
}
