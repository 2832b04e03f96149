package io.fabemu.collectives;

/**
 * Who does what in an INC Allreduce, by rank (the INC paper: table 3, sections 3.3-3.5, formulas (1)-(6)).
 *
 * <p>Ranks are placed in blocks: host node {@code n} holds ranks {@code n*ppn .. n*ppn+ppn-1}; with {@code S}
 * sockets per node, socket {@code s} of node {@code n} holds the next {@code ppn/S} of them. The paper's roles:
 *
 * <ul>
 *   <li><b>SRR</b> (leader): the lowest rank of each node (Node mode) or of each socket of each node (Socket mode).
 *       It reduces the data of the ranks it leads, takes part in INC, and broadcasts the result back to them.
 *   <li><b>SR</b>: every other rank; it only talks to its SRR, inside the node.
 *   <li><b>MRR</b>: the SRRs of node 0 - one in Node mode, one per socket in Socket mode (formula (1)). Each MRR heads
 *       one INC <i>group</i>: the SRRs of the same socket index on every node (Node mode: all SRRs, one group).
 *   <li><b>NMRR</b>: the other SRRs (formula (2)); each queries its group's MRR (formula (3)) and is notified by it
 *       (formula (4)).
 * </ul>
 *
 * <p>On the data plane the SRRs of one group under the same TOR send their data in a closed ring in rank order
 * (formulas (5), (6)). Host {@code h} is under TOR {@code h / hostsPerTor} (leaf-spine); the last TOR may have fewer
 * hosts.
 *
 * <p>Everything is computed from the five numbers: no table grows with the rank count, so a layout of 16,384 nodes x
 * 64 ranks costs the same as one of 2 x 2. Only {@link #leaders(int)} and {@link #notifyTargets(int)} build arrays,
 * of at most one entry per node. Queries that take a rank refuse one outside {@code [0, rankCount())}; those that
 * take a leader, an MRR or an NMRR refuse a rank that is not one.
 *
 * <p>The formulas' names map to ours so: the paper's {@code N} (CPUs per node) is {@link #groupCount()} (1 in Node
 * mode), {@code P} (processes per CPU) is {@link #ranksPerLeader()} ({@code ppn} in Node mode), {@code S} (nodes) is
 * {@link #nodes()}, {@code S'} (nodes under one TOR) is {@link #leadersUnderTor(int, int)}. The paper's indices are
 * 1-based; the code keeps them so where it evaluates a formula.
 */
public final class IncLayout {

  /** The ranks an SRR leads: {@code count} ranks from {@code first} (the SRR itself), contiguous. */
  public record Block(int first, int count) {
    /** One past the last rank of the block. */
    public int end() {
      return first + count;
    }

    public boolean contains(int rank) {
      return rank >= first && rank < first + count;
    }
  }

  private final IncMode mode;
  private final int nodes;
  private final int ppn;
  private final int socketsPerNode;
  private final int hostsPerTor;
  /** The paper's N: leaders (and INC groups) per node. */
  private final int groups;
  /** The paper's P: ranks each leader leads. */
  private final int ranksPerLeader;

  private IncLayout(IncMode mode, int nodes, int ppn, int socketsPerNode, int hostsPerTor) {
    this.mode = mode;
    this.nodes = nodes;
    this.ppn = ppn;
    this.socketsPerNode = socketsPerNode;
    this.hostsPerTor = hostsPerTor;
    this.groups = mode == IncMode.SOCKET ? socketsPerNode : 1;
    this.ranksPerLeader = ppn / groups;
  }

  /**
   * The layout of {@code nodes} host nodes with {@code ppn} ranks each, {@code socketsPerNode} CPU sockets per node
   * and {@code hostsPerTor} hosts under each TOR.
   *
   * <p>The paper's constraints (1)-(3) for Node mode and (1)-(4) for Socket mode - equal process counts per node and
   * per socket, ranks contiguous per socket, node and TOR - hold by the block placement as long as the numbers allow
   * it; what is checked here is what the numbers can break.
   *
   * @throws IllegalArgumentException naming the violated constraint and the numbers: a count below 1; more than
   *     {@link Integer#MAX_VALUE} ranks; in Socket mode fewer than 2 sockets per node (constraint (1)) or {@code ppn}
   *     not divisible by the socket count (constraint (2): the same number of ranks on every socket)
   */
  public static IncLayout of(IncMode mode, int nodes, int ppn, int socketsPerNode, int hostsPerTor) {
    if (mode == null) throw new IllegalArgumentException("INC layout needs a mode (inc-node or inc-socket)");
    String name = mode.configName();
    requireAtLeastOne(name, "node", nodes);
    requireAtLeastOne(name, "rank per node (ppn)", ppn);
    requireAtLeastOne(name, "socket per node", socketsPerNode);
    requireAtLeastOne(name, "host per TOR", hostsPerTor);
    if ((long) nodes * ppn > Integer.MAX_VALUE) {
      throw new IllegalArgumentException(name + " needs at most " + Integer.MAX_VALUE + " ranks: nodes " + nodes
          + " x ppn " + ppn + " = " + (long) nodes * ppn);
    }
    if (mode == IncMode.SOCKET) {
      if (socketsPerNode < 2) {
        throw new IllegalArgumentException(name + " needs at least 2 sockets per node, got " + socketsPerNode);
      }
      if (ppn % socketsPerNode != 0) {
        throw new IllegalArgumentException(
            name + " needs ppn divisible by sockets: ppn " + ppn + ", sockets " + socketsPerNode);
      }
    }
    return new IncLayout(mode, nodes, ppn, socketsPerNode, hostsPerTor);
  }

  private static void requireAtLeastOne(String name, String what, int value) {
    if (value < 1) throw new IllegalArgumentException(name + " needs at least 1 " + what + ", got " + value);
  }

  public IncMode mode() {
    return mode;
  }

  /** Host nodes taking part (the paper's S). */
  public int nodes() {
    return nodes;
  }

  /** Ranks per node. */
  public int ppn() {
    return ppn;
  }

  public int socketsPerNode() {
    return socketsPerNode;
  }

  public int hostsPerTor() {
    return hostsPerTor;
  }

  /** All ranks: {@code nodes x ppn}. */
  public int rankCount() {
    return nodes * ppn;
  }

  /** INC groups, one MRR each: 1 in Node mode, the sockets per node in Socket mode (the paper's N). */
  public int groupCount() {
    return groups;
  }

  /** Ranks led by each SRR, itself included: {@code ppn} in Node mode, {@code ppn / sockets} in Socket mode. */
  public int ranksPerLeader() {
    return ranksPerLeader;
  }

  /** SRRs in all: one per node and group. */
  public int leaderCount() {
    return nodes * groups;
  }

  /** TORs with hosts of this job: {@code ceil(nodes / hostsPerTor)}. */
  public int torCount() {
    return (nodes - 1) / hostsPerTor + 1;
  }

  /** The host node running {@code rank} (block placement). */
  public int hostOf(int rank) {
    checkRank(rank);
    return rank / ppn;
  }

  /** True if {@code rank} is an SRR (a leader: MRR or NMRR); false for an SR. */
  public boolean isLeader(int rank) {
    checkRank(rank);
    return rank % ranksPerLeader == 0;
  }

  /** The SRR leading {@code rank}: the lowest rank of its node (Node mode) or socket (Socket mode). */
  public int leaderOf(int rank) {
    checkRank(rank);
    return rank - rank % ranksPerLeader;
  }

  /**
   * The INC group of {@code rank}'s SRR: 0 in Node mode, its socket index in Socket mode (the paper numbers groups
   * from 1: group {@code g} here is its group {@code g + 1}).
   */
  public int groupOf(int rank) {
    checkRank(rank);
    return (rank / ranksPerLeader) % groups;
  }

  /** The MRR of {@code group}: the SRR of that socket on node 0 - formula (1), {@code MRR = {i x P}}. */
  public int mrrOf(int group) {
    checkGroup(group);
    return group * ranksPerLeader;
  }

  /** True if {@code rank} is an MRR: an SRR on node 0. */
  public boolean isMrr(int rank) {
    return isLeader(rank) && rank < ppn;
  }

  /** True if {@code rank} is an NMRR: an SRR on any node but node 0 (formula (2)). */
  public boolean isNmrr(int rank) {
    return isLeader(rank) && rank >= ppn;
  }

  /** The SRRs of {@code group}, ascending: its MRR, then one NMRR per further node. */
  public int[] leaders(int group) {
    checkGroup(group);
    int[] ranks = new int[nodes];
    for (int n = 0; n < nodes; n++) {
      ranks[n] = n * ppn + group * ranksPerLeader;
    }
    return ranks;
  }

  /** The ranks {@code leader} (an SRR) reduces before INC and broadcasts to after: itself and its SRs. */
  public Block ledBy(int leader) {
    checkLeader(leader);
    return new Block(leader, ranksPerLeader);
  }

  /** The TOR above {@code leader}'s host. */
  public int torOfLeader(int leader) {
    checkLeader(leader);
    return hostOf(leader) / hostsPerTor;
  }

  /** SRRs of {@code group} under {@code tor}: one per host under it (the paper's S'). */
  public int leadersUnderTor(int group, int tor) {
    checkGroup(group);
    checkTor(tor);
    return Math.min(hostsPerTor, nodes - tor * hostsPerTor);
  }

  /** TORs {@code group} spans: every TOR, as each host has one SRR of every group. */
  public int torsOfGroup(int group) {
    checkGroup(group);
    return torCount();
  }

  /**
   * Where {@code leader} sends its data on the data plane: the next SRR of its group under the same TOR in rank
   * order, the last one wrapping to the first (formulas (5) and (6) over SRR', the TOR's SRRs ascending:
   * {@code SRR'_i -> SRR'_{i+N}}, and {@code SRR'_i -> SRR'_{(i-1)%N+1}} for the last N). A lone leader is its own
   * successor.
   */
  public int ringSuccessor(int leader) {
    int tor = torOfLeader(leader);
    int lastIndex = leadersUnderTor(0, tor) * groups;
    int i = torIndex(leader, tor);
    int j = i <= lastIndex - groups ? i + groups : (i - 1) % groups + 1;
    return torLeader(tor, j);
  }

  /** The SRR whose data {@code leader} receives on the data plane: the inverse of {@link #ringSuccessor(int)}. */
  public int ringPredecessor(int leader) {
    int tor = torOfLeader(leader);
    int lastIndex = leadersUnderTor(0, tor) * groups;
    int i = torIndex(leader, tor);
    int j = i > groups ? i - groups : lastIndex - groups + i;
    return torLeader(tor, j);
  }

  /**
   * The MRR that NMRR {@code nmrr} sends its query to - formula (3): {@code NMRR_i -> MRR_j}, {@code j = (i-1)%N+1},
   * with NMRR and MRR numbered from 1 in rank order. This is the MRR of the NMRR's own group.
   */
  public int queryTarget(int nmrr) {
    checkNmrr(nmrr);
    int i = nmrr / ranksPerLeader - groups + 1;
    int j = (i - 1) % groups + 1;
    return mrrRank(j);
  }

  /**
   * The NMRRs MRR {@code mrr} notifies, ascending - formula (4): {@code MRR_i -> NMRR_j}, {@code j = k*N + i} for
   * {@code k = 0 .. S-2}; these are the NMRRs of its group. Empty with a single node.
   */
  public int[] notifyTargets(int mrr) {
    checkMrr(mrr);
    int i = mrr / ranksPerLeader + 1;
    int[] targets = new int[nodes - 1];
    for (int k = 0; k < nodes - 1; k++) {
      targets[k] = nmrrRank(k * groups + i);
    }
    return targets;
  }

  /** MRR number {@code j} (1-based) - formula (1). */
  private int mrrRank(int j) {
    return (j - 1) * ranksPerLeader;
  }

  /** NMRR number {@code j} (1-based) - formula (2): the SRRs from index N on. */
  private int nmrrRank(int j) {
    return (groups + j - 1) * ranksPerLeader;
  }

  /** The 1-based position of {@code leader} among the SRRs under {@code tor} in rank order (the paper's SRR'). */
  private int torIndex(int leader, int tor) {
    return leader / ranksPerLeader - tor * hostsPerTor * groups + 1;
  }

  /** SRR' number {@code j} (1-based) under {@code tor}. */
  private int torLeader(int tor, int j) {
    return (tor * hostsPerTor * groups + j - 1) * ranksPerLeader;
  }

  private void checkRank(int rank) {
    if (rank < 0 || rank >= rankCount()) {
      throw new IllegalArgumentException("rank " + rank + " is outside 0.." + (rankCount() - 1));
    }
  }

  private void checkGroup(int group) {
    if (group < 0 || group >= groups) {
      throw new IllegalArgumentException("INC group " + group + " is outside 0.." + (groups - 1));
    }
  }

  private void checkTor(int tor) {
    if (tor < 0 || tor >= torCount()) {
      throw new IllegalArgumentException("TOR " + tor + " is outside 0.." + (torCount() - 1));
    }
  }

  private void checkLeader(int rank) {
    if (!isLeader(rank)) throw new IllegalArgumentException("rank " + rank + " is no SRR (leader)");
  }

  private void checkMrr(int rank) {
    if (!isMrr(rank)) throw new IllegalArgumentException("rank " + rank + " is no MRR");
  }

  private void checkNmrr(int rank) {
    if (!isNmrr(rank)) throw new IllegalArgumentException("rank " + rank + " is no NMRR");
  }

  @Override
  public String toString() {
    return mode.configName() + " layout: " + nodes + " nodes x " + ppn + " ranks, " + socketsPerNode
        + " sockets per node, " + hostsPerTor + " hosts per TOR";
  }
}
