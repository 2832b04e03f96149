package io.fabemu.core.placement;

import io.fabemu.core.topology.NodeGrid;
import io.fabemu.core.topology.Topology;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Which cluster member hosts each device of a fabric: deterministic (a pure function of the topology, the device
 * count and the member count, so every member computes the same plan) and topology-aware, so that most events
 * stay inside one member.
 *
 * <p>Device ids follow {@link io.fabemu.fabric.Fabric}: a host's NIC has the host's vertex id h, a switch its
 * vertex id, and host h's compute node is {@link Topology#computeNodeDevice}.
 *
 * <ul>
 *   <li><b>Switched topologies</b> (leaf-spine, fat-tree): a <i>placement group</i> is a TOR (a switch with hosts
 *   cabled to it) with its hosts' NICs and compute nodes; a group is never split. Switches without hosts (spines;
 *   a fat-tree's aggregations and cores) are spread round-robin first (spine i to member i mod N); then the TOR
 *   groups, in TOR id order, each go to the member with the largest remaining capacity, i.e. the fewest devices so
 *   far, ties to the lowest member id.
 *   That keeps the largest and smallest member within one group size of each other.</li>
 *   <li><b>Grids</b> (the topology has a {@link NodeGrid}: mesh, torus, group-ring, prism, optical cluster of
 *   full-mesh servers): a group is a node, a host's NIC and compute node with its router in a router network;
 *   each member gets a block of the grid, the split that keeps members balanced and cuts the fewest and slowest
 *   links ({@link GridPlacement}): a torus in slabs along its slowest dimension, a group-ring by whole groups, an
 *   optical cluster by whole servers.</li>
 *   <li><b>Other direct topologies</b> (line, ring, full mesh: no switches): a group is one host's NIC and compute
 *   node; hosts are split into N contiguous blocks whose sizes differ by at most one (the first blocks get the
 *   extra host), so neighbours in a line or ring share a member.</li>
 * </ul>
 *
 * <p>A scenario may fix the plan instead ({@code cluster.placement}, a {@link PlacementOverride}: the groups each
 * member hosts, named by their devices), see {@link #compute(Topology, int, int, PlacementOverride)}; the groups are
 * the same ({@link PlacementGroups}), so an override never splits one either.
 *
 * <p>Instances are immutable.
 */
public final class PlacementPlan {

  private final int memberCount;
  private final int[] memberOfDevice;
  private final int[][] devicesOfMember;
  private final int groupCount;
  private final int largestGroup;

  private PlacementPlan(int memberCount, int[] memberOfDevice, int groupCount, int largestGroup) {
    this.memberCount = memberCount;
    this.memberOfDevice = memberOfDevice;
    this.groupCount = groupCount;
    this.largestGroup = largestGroup;
    int[] counts = new int[memberCount];
    for (int member : memberOfDevice) {
      counts[member]++;
    }
    this.devicesOfMember = new int[memberCount][];
    for (int m = 0; m < memberCount; m++) {
      devicesOfMember[m] = new int[counts[m]];
    }
    int[] filled = new int[memberCount];
    for (int id = 0; id < memberOfDevice.length; id++) {
      int m = memberOfDevice[id];
      devicesOfMember[m][filled[m]++] = id;
    }
  }

  /**
   * Places the devices of a fabric built on {@code topology} on {@code memberCount} members.
   *
   * @param topology    the fabric graph
   * @param deviceCount the number of device ids: {@link Topology#deviceCount()}, plus the run's devices outside the
   *                    topology (a fault plan's management node), which go to member 0
   * @param memberCount members to spread the devices over: at least 1, at most the number of placement groups
   *                    (TORs in a switched topology, hosts in a direct one or a grid)
   * @throws IllegalArgumentException when the device count does not match the topology or the member count is
   *                                  out of range
   */
  public static PlacementPlan compute(Topology topology, int deviceCount, int memberCount) {
    int vertices = topology.vertexCount();
    int hosts = topology.hostCount();
    if (deviceCount < topology.deviceCount()) {
      throw new IllegalArgumentException("placement: a fabric on " + topology.description() + " has at least "
          + topology.deviceCount() + " devices (" + vertices + " vertices + " + hosts + " compute nodes), not "
          + deviceCount);
    }
    if (topology.nodeGrid().isPresent()) {
      return onGrid(topology, topology.nodeGrid().get(), deviceCount, memberCount);
    }
    boolean direct = vertices == hosts;
    // Group per TOR: the switch each host's first port is cabled to.
    int[] torOfHost = new int[hosts];
    List<Integer> tors = new ArrayList<>();
    boolean[] isTor = new boolean[vertices];
    if (!direct) {
      for (int h = 0; h < hosts; h++) {
        List<Topology.Link> ports = topology.ports(h);
        if (ports.isEmpty() || topology.isHost(ports.get(0).to())) {
          throw new IllegalArgumentException("placement: host " + h + " of " + topology.description()
              + " is not cabled to a switch on its first port");
        }
        torOfHost[h] = ports.get(0).to();
        isTor[torOfHost[h]] = true;
      }
      for (int v = hosts; v < vertices; v++) {
        if (isTor[v]) {
          tors.add(v);
        }
      }
    }
    int groups = direct ? hosts : tors.size();
    if (memberCount < 1 || memberCount > groups) {
      String unit = direct ? "host (NIC + compute node)" : "TOR with its hosts";
      throw new IllegalArgumentException("placement: cannot spread " + topology.description() + " over "
          + memberCount + " member(s): it needs at least 1 and at most " + groups + ", one per " + unit
          + ", the unit that is never split");
    }
    int[] memberOf = new int[deviceCount];
    if (direct) {
      int base = hosts / memberCount;
      int extra = hosts % memberCount;
      int h = 0;
      for (int m = 0; m < memberCount; m++) {
        int size = base + (m < extra ? 1 : 0);
        for (int i = 0; i < size; i++, h++) {
          memberOf[h] = m;
          memberOf[topology.computeNodeDevice(h)] = m;
        }
      }
      return new PlacementPlan(memberCount, memberOf, groups, 2);
    }
    long[] load = new long[memberCount];
    int spine = 0;
    for (int v = hosts; v < vertices; v++) {
      if (!isTor[v]) {
        int m = spine++ % memberCount;
        memberOf[v] = m;
        load[m]++;
      }
    }
    // Hosts per TOR, in host order.
    List<List<Integer>> hostsOfTor = new ArrayList<>();
    int[] torIndex = new int[vertices];
    Arrays.fill(torIndex, -1);
    for (int t = 0; t < tors.size(); t++) {
      torIndex[tors.get(t)] = t;
      hostsOfTor.add(new ArrayList<>());
    }
    for (int h = 0; h < hosts; h++) {
      hostsOfTor.get(torIndex[torOfHost[h]]).add(h);
    }
    int largest = 1;
    for (int t = 0; t < tors.size(); t++) {
      List<Integer> torHosts = hostsOfTor.get(t);
      int size = 1 + 2 * torHosts.size();
      largest = Math.max(largest, size);
      int target = 0;
      for (int m = 1; m < memberCount; m++) {
        if (load[m] < load[target]) {
          target = m;
        }
      }
      memberOf[tors.get(t)] = target;
      for (int h : torHosts) {
        memberOf[h] = target;
        memberOf[topology.computeNodeDevice(h)] = target;
      }
      load[target] += size;
    }
    return new PlacementPlan(memberCount, memberOf, groups, largest);
  }

  /**
   * Places the devices of a fabric built on {@code topology} on {@code memberCount} members as {@code override} (a
   * scenario's {@code cluster.placement}) says, and the groups it does not name by the automatic rule: in group order,
   * each to the member with the fewest devices so far, ties to the lowest id. A pure function of the topology, the
   * override and the counts. With one member, or no override, this is {@link #compute(Topology, int, int)}: one
   * member hosts everything whatever the override lists.
   *
   * @param override the groups each member hosts, or null for the automatic plan
   * @throws IllegalArgumentException as {@link #compute(Topology, int, int)}, or when the override lists another
   *                                  number of members than {@code memberCount} (above 1)
   * @throws PlacementOverride.Problem when an entry of the override names nothing or a group another member has, or
   *                                   a member lists nothing
   */
  public static PlacementPlan compute(Topology topology, int deviceCount, int memberCount,
                                      PlacementOverride override) {
    if (override == null || memberCount == 1) return compute(topology, deviceCount, memberCount);
    if (deviceCount < topology.deviceCount()) return compute(topology, deviceCount, memberCount); // refuses it
    if (override.memberCount() != memberCount) {
      throw new IllegalArgumentException(PlacementOverride.KEY + " lists " + override.memberCount()
          + " members, but the run is on " + memberCount);
    }
    PlacementGroups groups = PlacementGroups.of(topology);
    int[] memberOfGroup = override.resolve(topology, groups);
    long[] load = new long[memberCount];
    int largest = 1;
    for (int g = 0; g < groups.count(); g++) {
      largest = Math.max(largest, groups.devices(g));
      if (memberOfGroup[g] >= 0) load[memberOfGroup[g]] += groups.devices(g);
    }
    for (int g = 0; g < groups.count(); g++) {
      if (memberOfGroup[g] >= 0) continue;
      int target = 0;
      for (int m = 1; m < memberCount; m++) {
        if (load[m] < load[target]) target = m;
      }
      memberOfGroup[g] = target;
      load[target] += groups.devices(g);
    }
    // Devices outside the topology (a fault plan's management node, the external Ethernet) stay on member 0.
    int[] memberOf = new int[deviceCount];
    for (int v = 0; v < topology.vertexCount(); v++) memberOf[v] = memberOfGroup[groups.groupOf(v)];
    for (int h = 0; h < topology.hostCount(); h++) {
      memberOf[topology.computeNodeDevice(h)] = memberOfGroup[groups.groupOf(h)];
    }
    return new PlacementPlan(memberCount, memberOf, groups.hostGroups(), largest);
  }

  /** {@link #compute} of a topology whose hosts lie on {@code grid}: blocks of the grid ({@link GridPlacement}). */
  private static PlacementPlan onGrid(Topology topology, NodeGrid grid, int deviceCount, int memberCount) {
    int hosts = topology.hostCount();
    boolean routers = topology.vertexCount() > hosts;
    if (memberCount < 1 || memberCount > hosts) {
      String unit = routers ? "node (router, NIC and compute node)" : "host (NIC + compute node)";
      throw new IllegalArgumentException("placement: cannot spread " + topology.description() + " over "
          + memberCount + " member(s): it needs at least 1 and at most " + hosts + ", one per " + unit
          + ", the unit that is never split");
    }
    int[] nodeOfVertex = GridPlacement.nodeOfVertex(topology);
    int[] memberOfNode = GridPlacement.memberOfNode(topology, grid, nodeOfVertex, memberCount);
    int[] memberOf = new int[deviceCount];
    for (int v = 0; v < topology.vertexCount(); v++) {
      memberOf[v] = memberOfNode[nodeOfVertex[v]];
    }
    for (int h = 0; h < hosts; h++) {
      memberOf[topology.computeNodeDevice(h)] = memberOfNode[h];
    }
    return new PlacementPlan(memberCount, memberOf, hosts, topology.deviceCount() / hosts);
  }

  /**
   * The cross-member lookahead of this plan on {@code topology}: the least time between an event a device handles
   * and an event it causes on a device of another member. Only links whose ends are on different members carry
   * such events (a host's NIC and compute node are one placement group, so the PCIe hop never crosses), and an
   * event sent over a link arrives at least the link's latency plus the sender's minimum processing delay after
   * it was sent: for a switch its pipeline latency, which every switch output pays before it leaves (forwarded
   * packets as well as the INC unit's own), and nothing for a NIC, which is conservative (it may relay packets in
   * direct topologies with its forwarding latency). So the value is the minimum, over the links between members,
   * of latency + (switch sender ? pipeline latency : 0).
   *
   * <p>It is never below {@code localLookaheadPs} (every link latency is at least the local lookahead), and equals
   * it when no link crosses members (one member), so a one-member run keeps the plain windows. Should a host's NIC
   * and compute node ever be on different members, the PCIe hop crosses and the local lookahead (at most the PCIe
   * latency) is returned.
   *
   * @param topology                the fabric graph the plan was computed for
   * @param switchPipelineLatencyPs the switches' pipeline latency (the same for every switch of a fabric)
   * @param localLookaheadPs        the fabric's lookahead: the smallest link or PCIe latency, positive
   * @throws IllegalArgumentException when the topology does not match the plan's device count or a delay is
   *                                  negative
   */
  public long crossLookaheadPs(Topology topology, long switchPipelineLatencyPs, long localLookaheadPs) {
    if (topology.deviceCount() > memberOfDevice.length) {
      throw new IllegalArgumentException("cross lookahead: " + topology.description() + " has "
          + topology.deviceCount() + " devices, the plan places " + memberOfDevice.length);
    }
    if (localLookaheadPs <= 0 || switchPipelineLatencyPs < 0) {
      throw new IllegalArgumentException("cross lookahead: the local lookahead must be positive and the pipeline "
          + "latency not negative, got " + localLookaheadPs + " ps and " + switchPipelineLatencyPs + " ps");
    }
    long min = Long.MAX_VALUE;
    for (Topology.Link link : topology.links()) {
      if (memberOfDevice[link.from()] != memberOfDevice[link.to()]) {
        long senderDelayPs = topology.isHost(link.from()) ? 0L : switchPipelineLatencyPs;
        min = Math.min(min, link.spec().latencyPs() + senderDelayPs);
      }
    }
    for (int h = 0; h < topology.hostCount(); h++) {
      if (memberOfDevice[h] != memberOfDevice[topology.computeNodeDevice(h)]) {
        min = Math.min(min, localLookaheadPs);
      }
    }
    return min == Long.MAX_VALUE ? localLookaheadPs : Math.max(min, localLookaheadPs);
  }

  /** A plan given device by device (tests): groups are not known, so each device counts as one. */
  static PlacementPlan of(int[] memberOfDevice, int memberCount) {
    for (int m : memberOfDevice) {
      if (m < 0 || m >= memberCount) {
        throw new IllegalArgumentException("member " + m + " is not in 0.." + (memberCount - 1));
      }
    }
    return new PlacementPlan(memberCount, memberOfDevice.clone(), memberOfDevice.length, 1);
  }

  /** Everything on one member: the plan of a single-member run. */
  public static PlacementPlan singleMember(int deviceCount) {
    return new PlacementPlan(1, new int[deviceCount], 1, deviceCount);
  }

  public int memberCount() {
    return memberCount;
  }

  public int deviceCount() {
    return memberOfDevice.length;
  }

  /** Number of placement groups (the most members this topology can be spread over). */
  public int groupCount() {
    return groupCount;
  }

  /** Devices in the largest placement group. */
  public int largestGroupSize() {
    return largestGroup;
  }

  /** The member hosting {@code deviceId}. */
  public int memberOf(int deviceId) {
    return memberOfDevice[deviceId];
  }

  /** The member of every device id, indexed by device id (a copy). */
  public int[] memberOfDevices() {
    return memberOfDevice.clone();
  }

  /** The devices {@code member} hosts, ascending (a copy). */
  public int[] devicesOf(int member) {
    return devicesOfMember[member].clone();
  }

  @Override
  public String toString() {
    StringBuilder s = new StringBuilder("placement of " + memberOfDevice.length + " devices on " + memberCount
        + " member(s):");
    for (int m = 0; m < memberCount; m++) {
      s.append(m == 0 ? " " : ", ").append(devicesOfMember[m].length);
    }
    return s.toString();
  }
}
