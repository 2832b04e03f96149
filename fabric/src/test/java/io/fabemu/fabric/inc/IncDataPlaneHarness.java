package io.fabemu.fabric.inc;

import io.fabemu.collectives.Algorithm;
import io.fabemu.collectives.Collective;
import io.fabemu.collectives.WorkloadSpec;
import io.fabemu.core.data.DataType;
import io.fabemu.core.data.ReduceOp;
import io.fabemu.core.inc.ControlPayload;
import io.fabemu.core.inc.IncAddresses;
import io.fabemu.core.inc.IncDataPlaneMessages;
import io.fabemu.core.inc.IncPacketType;
import io.fabemu.core.inc.IncRequest;
import io.fabemu.core.link.ForwardingMode;
import io.fabemu.core.link.PacketDropSpec;
import io.fabemu.core.protocol.DeviceProtocol.NicDeliver;
import io.fabemu.core.protocol.DeviceProtocol.NicSend;
import io.fabemu.core.protocol.Message;
import io.fabemu.core.sim.DeviceCore;
import io.fabemu.core.sim.DeviceReport;
import io.fabemu.core.sim.Event;
import io.fabemu.core.sim.Outbox;
import io.fabemu.core.sim.WindowedEngine;
import io.fabemu.core.time.Units;
import io.fabemu.core.topology.LeafSpineSpec;
import io.fabemu.core.topology.LinkSpec;
import io.fabemu.core.topology.Topology.Tier;
import io.fabemu.core.topology.Topology;
import io.fabemu.core.topology.TopologySpec;
import io.fabemu.fabric.DeviceSpec;
import io.fabemu.fabric.Fabric;
import io.fabemu.fabric.IncSpec;
import io.fabemu.fabric.ScenarioSpec;
import io.fabemu.nic.IncExtension;
import io.fabemu.nic.IncNicSpec;
import io.fabemu.nic.NicCore;
import io.fabemu.nic.NicIncUnit;
import io.fabemu.nic.NicSpec;
import io.fabemu.node.HostSpec;
import io.fabemu.switching.SwitchCore;
import io.fabemu.switching.SwitchSpec;
import io.fabemu.switching.inc.IncSwitchSpec;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Drives a real fabric (NICs, switches with INC units, links) as the rank side would, without it: the compute nodes
 * are replaced by {@link LeaderNode}s that send the control messages and tasks and record what their NICs deliver.
 * Host h runs ranks {@code h * ranksPerHost ..}; with several ranks per host (Socket mode) the leaders of socket s
 * (rank mod ranksPerHost = s) form their own rings, and the lowest of them is their MRR, but all leaders aggregate
 * into one INC group. Each MRR sends the notifies of its socket's leaders, then its first task; every other leader
 * starts when its notify arrives (so the switches on its path are set up first), and every leader sends request
 * r + 1 as soon as it has the result of r.
 */
final class IncDataPlaneHarness {
  static final long LINK_LATENCY_PS = 500_000L;
  static final long PCIE_LATENCY_PS = 250_000L;
  static final int HEADER_BYTES = 58;
  static final long TAG_BASE = 5_000L;

  /** Builds the contribution of {@code rank} to request number {@code request} (req_id = request mod 256). */
  interface TaskFactory {
    Message task(int rank, int successorRank, int request);
  }

  /** One message a leader's NIC delivered. */
  record Delivery(long timePs, Message message) {}

  private final ScenarioSpec scenario;
  private final Topology topology;
  private final List<Integer> leaders;
  private final int ranksPerHost;
  private final long groupId;
  private final int requests;
  private final TaskFactory tasks;
  private final int maxDataSize;
  private final Fabric fabric;
  private final LeaderNode[] nodes;
  private final WindowedEngine engine;
  private long injected;
  /** When the next phase's messages are handed to the NICs: after everything of the previous phase. */
  private long phaseStartPs;

  /**
   * @param leaders  leader ranks, in rank order
   * @param requests consecutive requests each leader contributes to
   */
  IncDataPlaneHarness(ScenarioSpec scenario, List<Integer> leaders, long groupId, int requests, int maxDataSize,
                      TaskFactory tasks) {
    this(scenario, leaders, 1, groupId, requests, maxDataSize, tasks);
  }

  /**
   * @param leaders      leader ranks, in rank order
   * @param ranksPerHost ranks each host runs (rank r is on host r / ranksPerHost)
   * @param requests     consecutive requests each leader contributes to
   */
  IncDataPlaneHarness(ScenarioSpec scenario, List<Integer> leaders, int ranksPerHost, long groupId, int requests,
                      int maxDataSize, TaskFactory tasks) {
    this.scenario = scenario;
    this.leaders = List.copyOf(leaders);
    this.ranksPerHost = ranksPerHost;
    this.groupId = groupId;
    this.requests = requests;
    this.tasks = tasks;
    this.maxDataSize = maxDataSize;
    this.fabric = Fabric.build(scenario);
    this.topology = fabric.topology();
    int vertices = topology.vertexCount();
    DeviceCore[] devices = fabric.devices().clone();
    this.nodes = new LeaderNode[topology.hostCount()];
    for (int h = 0; h < topology.hostCount(); h++) {
      nodes[h] = new LeaderNode(vertices + h, h);
      devices[vertices + h] = nodes[h];
    }
    this.engine = new WindowedEngine(devices, fabric.lookaheadPs());
  }

  /** A leaf-spine scenario with INC units on every switch and the given loss. */
  static ScenarioSpec scenario(int hosts, int hostsPerTor, int spines, int fragmentBytes, long retransmitTimeoutPs,
                               int maxRetransmits, List<PacketDropSpec> drops, long seed) {
    TopologySpec topology = new LeafSpineSpec(hosts, hostsPerTor, spines,
        new LinkSpec(100 * Units.GBPS, LINK_LATENCY_PS), new LinkSpec(200 * Units.GBPS, LINK_LATENCY_PS));
    Set<ReduceOp> ops = EnumSet.of(ReduceOp.SUM, ReduceOp.MAX, ReduceOp.MIN);
    Set<DataType> types = EnumSet.of(DataType.INT32, DataType.FLOAT32);
    IncSwitchSpec tor = new IncSwitchSpec(150_000L, 400 * Units.GBPS, 256, 8, 256, 8192, ops, types);
    IncSwitchSpec spine = new IncSwitchSpec(200_000L, 400 * Units.GBPS, 512, 8, 256, 8192, ops, types);
    IncSpec inc = new IncSpec(tor, spine, Set.of(),
        new IncNicSpec(fragmentBytes, 30_000L, retransmitTimeoutPs, maxRetransmits));
    DeviceSpec devices = new DeviceSpec(
        HostSpec.builder().sendOverheadPs(300_000L).recvOverheadPs(300_000L)
            .reduceBitsPerSecond(80 * Units.GBPS).memoryBitsPerSecond(160 * Units.GBPS).memoryLatencyPs(150_000L)
            .pcieBitsPerSecond(128 * Units.GBPS).pcieLatencyPs(PCIE_LATENCY_PS).build(),
        new NicSpec(1024, HEADER_BYTES, 100_000L, 100_000L),
        new SwitchSpec(600_000L, ForwardingMode.CUT_THROUGH), inc);
    // The workload is never started: the leaders below stand in for the ranks. Synthetic: no answers to build.
    WorkloadSpec workload = WorkloadSpec.builder(Collective.ALLREDUCE, List.of(Algorithm.RING), List.of(4L))
        .dataType(DataType.INT32).syntheticPayload(true).build();
    return ScenarioSpec.builder("inc-data-plane", "test", seed, topology, devices, workload).packetDrops(drops).build();
  }

  Fabric fabric() {
    return fabric;
  }

  int torOf(int host) {
    return topology.ports(host).get(0).to();
  }

  int hostOf(int rank) {
    return rank / ranksPerHost;
  }

  private int torOfRank(int rank) {
    return torOf(hostOf(rank));
  }

  /** The socket (ring group) of a leader. */
  private int socketOf(int rank) {
    return rank % ranksPerHost;
  }

  /** The SPINE the MRR chooses: the first one. */
  int chosenSpine() {
    int tors = 0;
    for (Topology.Vertex v : topology.vertices()) if (v.tier() == Tier.TOR) tors++;
    return topology.hostCount() + tors;
  }

  /** Leaders under TOR {@code tor}, of every socket: all of them aggregate there. */
  private int leadersUnder(int tor) {
    int n = 0;
    for (int l : leaders) if (torOfRank(l) == tor) n++;
    return n;
  }

  private int torCount() {
    return (int) leaders.stream().map(this::torOfRank).distinct().count();
  }

  /** The leaders of {@code leader}'s ring: its socket's leaders under its TOR, by rank. */
  private List<Integer> ring(int leader) {
    return leaders.stream()
        .filter(l -> torOfRank(l) == torOfRank(leader) && socketOf(l) == socketOf(leader)).toList();
  }

  /** The ring successor of {@code leader} (the INC paper's closed ring). */
  int successor(int leader) {
    List<Integer> ring = ring(leader);
    return ring.get((ring.indexOf(leader) + 1) % ring.size());
  }

  /** Its ring predecessor. */
  int predecessor(int leader) {
    List<Integer> ring = ring(leader);
    return ring.get((ring.indexOf(leader) + ring.size() - 1) % ring.size());
  }

  /** The MRR of {@code leader}'s socket: the lowest leader of that socket. */
  private int mrrOf(int leader) {
    return leaders.stream().filter(l -> socketOf(l) == socketOf(leader)).findFirst().orElseThrow();
  }

  private void inject(int nic, int destination, Message message) {
    engine.inject(new Event(phaseStartPs, Event.EXTERNAL_SOURCE, injected++, nic,
        new NicSend(destination, message)));
  }

  /** The notify of {@code destination}'s MRR to it. */
  private Message notifyTo(int destination) {
    int mrr = mrrOf(destination);
    int torCount = torCount();
    long spineIp = torCount > 1 ? IncAddresses.ofVertex(chosenSpine()) : 0L;
    ControlPayload payload = IncDataPlaneMessages.notify(groupId, maxDataSize, leaders.size(),
        leadersUnder(torOfRank(destination)), destination, spineIp, mrr, leadersUnder(torOfRank(mrr)), torCount);
    return IncDataPlaneMessages.control(IncPacketType.TREE_DOWN, mrr, destination, payload);
  }

  /** Runs the notifies and every request to the end. */
  void runAllreduces() {
    for (int mrr : leaders) {
      if (mrrOf(mrr) != mrr) continue;
      for (int l : leaders) {
        if (l != mrr && mrrOf(l) == mrr) inject(hostOf(mrr), hostOf(l), notifyTo(l));
      }
      inject(hostOf(mrr), hostOf(successor(mrr)), tasks.task(mrr, successor(mrr), 0));
      nodes[hostOf(mrr)].started.add(mrr);
    }
    run();
  }

  private void run() {
    engine.run();
    phaseStartPs = engine.lastWindowStartPs() + 10 * fabric.lookaheadPs();
  }

  /** Every NMRR leader sends a query to its MRR; runs them to the end. */
  void runQueries() {
    for (int l : leaders) {
      int mrr = mrrOf(l);
      if (l != mrr) {
        inject(hostOf(l), hostOf(mrr), IncDataPlaneMessages.control(IncPacketType.TREE_UP, l, mrr,
            IncDataPlaneMessages.query(groupId, leaders.size(), mrr, l)));
      }
    }
    run();
  }

  /** Every MRR's release to its NMRRs; runs them to the end. */
  void runReleases() {
    long spineIp = torCount() > 1 ? IncAddresses.ofVertex(chosenSpine()) : 0L;
    for (int l : leaders) {
      int mrr = mrrOf(l);
      if (l != mrr) {
        inject(hostOf(mrr), hostOf(l), IncDataPlaneMessages.control(IncPacketType.RELEASE, mrr, l,
            IncDataPlaneMessages.release(groupId, l, spineIp)));
      }
    }
    run();
  }

  /** What the NIC delivered to leader {@code rank}, in order. */
  List<Delivery> deliveries(int rank) {
    return nodes[hostOf(rank)].delivered.stream().filter(d -> d.message().destinationRank() == rank).toList();
  }

  /** The results leader {@code rank} got, in order. */
  List<Delivery> results(int rank) {
    return deliveries(rank).stream().filter(d -> IncRequest.of(d.message()).type() == IncPacketType.TASK_DOWN).toList();
  }

  NicCore nic(int host) {
    return (NicCore) fabric.devices()[host];
  }

  /** The INC unit of host {@code host}'s NIC. */
  NicIncUnit nicInc(int host) {
    return nic(host).extension(IncExtension.class).orElseThrow().unit();
  }

  SwitchCore switchAt(int vertex) {
    return (SwitchCore) fabric.devices()[vertex];
  }

  List<DeviceReport.LinkCounters> links() {
    List<DeviceReport.LinkCounters> links = new ArrayList<>();
    for (DeviceReport r : engine.reports()) links.addAll(r.links());
    return links;
  }

  long lastWindowStartPs() {
    return engine.lastWindowStartPs();
  }

  /** A compute node reduced to its leaders: records deliveries and sends a leader's next request on each result. */
  private final class LeaderNode implements DeviceCore {
    private final int deviceId;
    private final int host;
    final List<Delivery> delivered = new ArrayList<>();
    /** Leaders of this host that have sent their first task. */
    final Set<Integer> started = new HashSet<>();
    /** Results in, by leader rank. */
    final Map<Integer, Integer> resultsIn = new HashMap<>();

    LeaderNode(int deviceId, int host) {
      this.deviceId = deviceId;
      this.host = host;
    }

    @Override
    public int deviceId() {
      return deviceId;
    }

    @Override
    public void onEvent(Event event, Outbox outbox) {
      if (!(event.payload() instanceof NicDeliver deliver) || deliver.message().extension() == null) {
        throw new IllegalStateException("leader " + host + " got " + event.payload());
      }
      Message message = deliver.message();
      int leader = message.destinationRank();
      delivered.add(new Delivery(event.timePs(), message));
      switch (IncRequest.of(message).type()) {
        case TREE_DOWN -> {
          if (started.add(leader)) sendTask(leader, 0, outbox);
        }
        case TASK_DOWN -> {
          int in = resultsIn.merge(leader, 1, Integer::sum);
          if (in < requests) sendTask(leader, in, outbox);
        }
        default -> { }
      }
    }

    private void sendTask(int leader, int request, Outbox outbox) {
      int next = successor(leader);
      outbox.send(host, outbox.nowPs() + PCIE_LATENCY_PS,
          new NicSend(hostOf(next), tasks.task(leader, next, request)));
    }

    @Override
    public DeviceReport report() {
      return new DeviceReport(deviceId, List.of(), List.of());
    }
  }
}
