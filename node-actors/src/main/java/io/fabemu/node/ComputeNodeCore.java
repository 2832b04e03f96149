package io.fabemu.node;

import io.fabemu.collectives.ExpectedAnswers;
import io.fabemu.collectives.RankLayout;
import io.fabemu.collectives.WorkloadSpec;
import io.fabemu.core.fault.FaultAction;
import io.fabemu.core.fault.FaultEvent;
import io.fabemu.core.inc.IncPacketType;
import io.fabemu.core.inc.IncRequest;
import io.fabemu.core.protocol.DeviceProtocol.FaultCommand;
import io.fabemu.core.protocol.DeviceProtocol.FaultDetected;
import io.fabemu.core.protocol.DeviceProtocol.LocalDelivery;
import io.fabemu.core.protocol.DeviceProtocol.NicDeliver;
import io.fabemu.core.protocol.DeviceProtocol.NicSend;
import io.fabemu.core.protocol.DeviceProtocol.RouteUpdate;
import io.fabemu.core.protocol.DeviceProtocol.StartWorkload;
import io.fabemu.core.protocol.FaultPayload;
import io.fabemu.core.protocol.HostPayload;
import io.fabemu.core.protocol.Message;
import io.fabemu.core.protocol.WorkloadPayload;
import io.fabemu.core.sim.DeviceCore;
import io.fabemu.core.sim.DeviceReport.RankResult;
import io.fabemu.core.sim.DeviceReport;
import io.fabemu.core.sim.Event;
import io.fabemu.core.sim.Outbox;
import io.fabemu.core.time.Units;
import io.fabemu.node.rank.IncEnvironment;
import io.fabemu.node.rank.RankHost;
import io.fabemu.node.rank.RankWorkload;
import java.util.ArrayList;
import java.util.List;

/**
 * A compute node running {@code ppn} MPI processes (ranks placed in blocks: node n holds ranks n*ppn ..
 * n*ppn+ppn-1, and socket s of the node the s-th block of ppn/sockets of them). Messages between its own
 * processes are copies through node memory: each first holds the sending socket's shared-memory channel for the
 * per-message occupancy (messages sent on one socket at once queue), then arrives after the memory latency (plus
 * the cross-socket latency between sockets) and its size over the memory bandwidth. The others go to the node's
 * NIC over PCIe.
 */
public final class ComputeNodeCore implements DeviceCore, RankHost, WorkloadPayload.Handler<Outbox>,
    HostPayload.Handler<Outbox>, FaultPayload.Handler<Outbox> {
  private final int deviceId;
  private final int nicDevice;
  private final int ppn;
  private final int firstRank;
  private final HostSpec host;
  private final RankWorkload[] ranks;
  /** Per local rank, how many of its results {@link #takeFinishedResults} has already handed out. */
  private final int[] resultsTaken;
  /** Ranks per socket (the last socket takes the remainder when ppn is not a multiple of the sockets). */
  private final int ranksPerSocket;
  /** Per socket, when its shared-memory channel is next free. */
  private final long[] shmChannelFreeAtPs;
  /** The outbox of the event being handled; ranks send through it. */
  private Outbox outbox;
  /** A straggler fault's factor on the processes' overheads, reductions and copies (1: none). */
  private double slowdown = 1;

  /**
   * @param answers        the exact answers shared by every rank of the JVM; null for a synthetic workload (sizes
   *                       only), which checks nothing
   * @param incEnvironment what in-network cases need of the fabric; null when it has no top-of-rack switches (INC
   *                       cases then fall back to the host algorithm)
   */
  public ComputeNodeCore(int deviceId, int nodeIndex, int nicDevice, int worldSize, WorkloadSpec workload, long seed,
                         ExpectedAnswers answers, HostSpec host, IncEnvironment incEnvironment) {
    this(deviceId, nodeIndex, nicDevice, worldSize, workload, seed, answers, host, incEnvironment, RankLayout.NONE);
  }

  /**
   * @param layout where the world's ranks sit: the mesh or torus grid (dimension-wise algorithms), the ring
   *               embedding (embedded-ring algorithms)
   */
  public ComputeNodeCore(int deviceId, int nodeIndex, int nicDevice, int worldSize, WorkloadSpec workload, long seed,
                         ExpectedAnswers answers, HostSpec host, IncEnvironment incEnvironment, RankLayout layout) {
    this.deviceId = deviceId;
    this.nicDevice = nicDevice;
    this.ppn = workload.ppn();
    this.firstRank = nodeIndex * ppn;
    this.host = host;
    this.ranks = new RankWorkload[ppn];
    this.resultsTaken = new int[ppn];
    this.ranksPerSocket = Math.max(1, ppn / host.socketsPerNode());
    this.shmChannelFreeAtPs = new long[host.socketsPerNode()];
    for (int i = 0; i < ppn; i++) {
      ranks[i] = new RankWorkload(firstRank + i, worldSize, workload, seed, answers, this, incEnvironment, layout);
    }
  }

  @Override
  public int deviceId() {
    return deviceId;
  }

  @Override
  public void onEvent(Event event, Outbox outbox) {
    this.outbox = outbox;
    event.payload().handleWith(this, outbox);
    this.outbox = null;
  }

  @Override
  public String deviceName() {
    return "compute node " + deviceId;
  }

  @Override
  public void onNicDeliver(NicDeliver deliver, Outbox outbox) {
    rank(deliver.message().destinationRank()).onMessage(outbox.nowPs(), deliver.message());
  }

  @Override
  public void onLocalDelivery(LocalDelivery delivery, Outbox outbox) {
    rank(delivery.message().destinationRank()).onMessage(outbox.nowPs(), delivery.message());
  }

  @Override
  public void onStartWorkload(StartWorkload start, Outbox outbox) {
    for (RankWorkload rank : ranks) rank.start(outbox.nowPs());
  }

  @Override
  public void onNicSend(NicSend send, Outbox outbox) {
    throw cannotHandle(send);
  }

  private RankWorkload rank(int worldRank) {
    return ranks[worldRank - firstRank];
  }

  @Override
  public void send(Message message, long atPs) {
    int destinationNode = message.destinationRank() / ppn;
    // An INC task always goes through the NIC, even to a rank of this node: the switches compute its result.
    IncRequest inc = IncRequest.of(message);
    boolean incTask = inc != null && inc.type() == IncPacketType.TASK_UP;
    if (destinationNode * ppn == firstRank && !incTask) {
      int fromSocket = socketOf(message.sourceRank());
      long departPs = atPs;
      if (host.shmMessageOccupancyPs() > 0) {
        departPs = Math.max(atPs, shmChannelFreeAtPs[fromSocket]) + host.shmMessageOccupancyPs();
        shmChannelFreeAtPs[fromSocket] = departPs;
      }
      long crossPs = fromSocket == socketOf(message.destinationRank()) ? 0 : host.crossSocketLatencyPs();
      long arrival = departPs + host.memoryLatencyPs() + crossPs
          + Units.transferPs(message.sizeBytes(), host.memoryBitsPerSecond());
      outbox.send(deviceId, arrival, new LocalDelivery(message));
    } else {
      outbox.send(nicDevice, atPs + host.pcieLatencyPs(), new NicSend(destinationNode, message));
    }
  }

  private int socketOf(int worldRank) {
    return Math.min((worldRank - firstRank) / ranksPerSocket, shmChannelFreeAtPs.length - 1);
  }

  @Override
  public long sendOverheadPs() {
    return slowed(host.sendOverheadPs());
  }

  @Override
  public long recvOverheadPs() {
    return slowed(host.recvOverheadPs());
  }

  @Override
  public long reducePs(long bytes) {
    return slowed(Units.transferPs(bytes, host.reduceBitsPerSecond()));
  }

  @Override
  public int engines() {
    return host.engines();
  }

  @Override
  public long localCopyPs(long bytes) {
    return slowed(Units.transferPs(bytes, host.memoryBitsPerSecond()));
  }

  /** {@code ps} stretched by a straggler fault's slowdown (rounded up, so a slowdown never speeds anything up). */
  private long slowed(long ps) {
    return slowdown == 1 ? ps : (long) Math.ceil(ps * slowdown);
  }

  @Override
  public long progress() {
    long done = 0;
    for (RankWorkload rank : ranks) done += rank.completedOperations();
    return done;
  }

  /** True when every rank of the node has finished its workload. */
  public boolean finished() {
    for (RankWorkload rank : ranks) {
      if (!rank.finished()) return false;
    }
    return true;
  }

  @Override
  public List<RankResult> takeFinishedResults() {
    List<RankResult> taken = null;
    for (int i = 0; i < ranks.length; i++) {
      RankWorkload rank = ranks[i];
      int count = rank.resultCount();
      if (resultsTaken[i] == count) {
        continue;
      }
      if (taken == null) {
        taken = new ArrayList<>();
      }
      for (int r = resultsTaken[i]; r < count; r++) {
        taken.add(rank.result(r));
      }
      resultsTaken[i] = count;
    }
    return taken == null ? List.of() : taken;
  }

  @Override
  public DeviceReport report() {
    List<RankResult> results = new ArrayList<>();
    for (RankWorkload rank : ranks) results.addAll(rank.results());
    return new DeviceReport(deviceId, List.of(), results);
  }

  @Override
  public void onFaultCommand(FaultCommand command, Outbox outbox) {
    // Only a straggler reaches a compute node: its processes slow down from now on (slowdown 1 restores them).
    if (FaultEvent.of(command).action() != FaultAction.STRAGGLER) throw cannotHandle(command);
    slowdown = FaultEvent.of(command).slowdown();
  }

  @Override
  public void onFaultDetected(FaultDetected detected, Outbox outbox) {
    throw cannotHandle(detected);
  }

  @Override
  public void onRouteUpdate(RouteUpdate update, Outbox outbox) {
    throw cannotHandle(update);
  }
}
