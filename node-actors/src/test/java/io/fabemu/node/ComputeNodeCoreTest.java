package io.fabemu.node;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabemu.collectives.Algorithm;
import io.fabemu.collectives.Collective;
import io.fabemu.collectives.ExpectedAnswers;
import io.fabemu.collectives.WorkloadSpec;
import io.fabemu.core.data.DataType;
import io.fabemu.core.fault.FaultAction;
import io.fabemu.core.fault.FaultEvent;
import io.fabemu.core.protocol.DeviceProtocol.FaultCommand;
import io.fabemu.core.protocol.DeviceProtocol.LocalDelivery;
import io.fabemu.core.protocol.DeviceProtocol.NicDeliver;
import io.fabemu.core.protocol.DeviceProtocol.NicSend;
import io.fabemu.core.protocol.DeviceProtocol.StartWorkload;
import io.fabemu.core.protocol.Message;
import io.fabemu.core.protocol.Payload;
import io.fabemu.core.sim.DeviceReport.RankResult;
import io.fabemu.core.sim.Event;
import io.fabemu.core.sim.RecordingOutbox;
import io.fabemu.core.sim.RecordingOutbox.Sent;
import io.fabemu.core.time.Units;
import java.util.List;
import java.util.PriorityQueue;
import org.junit.jupiter.api.Test;

/**
 * {@link ComputeNodeCore} driven by hand: it starts its ranks, sends their messages through node memory (memory
 * latency, copy rate, cross-socket latency, the shared-memory channel) or to its NIC over PCIe, hands delivered
 * messages to the right rank, reports each result once, and slows down under a straggler fault.
 */
class ComputeNodeCoreTest {
  private static final long SEED = 3L;
  private static final long MEMORY_LATENCY_PS = 1_000_000L;
  /** 8 Gbps: one byte per nanosecond, so 64 B take 64 ns. */
  private static final long MEMORY_BITS_PER_SECOND = 8 * Units.GBPS;
  private static final long PCIE_LATENCY_PS = 250_000L;

  private final RecordingOutbox outbox = new RecordingOutbox();
  private long sequence;

  /** osu_latency's ping-pong of 64 B: one warm-up iteration and two measured ones, each followed by a barrier. */
  private static WorkloadSpec pingPong(int ppn) {
    return WorkloadSpec.builder(Collective.SENDRECV, List.of(Algorithm.PING_PONG), List.of(64L)).iterations(2).warmup(1)
        .ppn(ppn).dataType(DataType.INT32).build();
  }

  private static HostSpec.Builder host() {
    return HostSpec.builder().memoryLatencyPs(MEMORY_LATENCY_PS).memoryBitsPerSecond(MEMORY_BITS_PER_SECOND)
        .pcieLatencyPs(PCIE_LATENCY_PS);
  }

  /** Node {@code nodeIndex} (device {@code nodeIndex}, its NIC device {@code 10 + nodeIndex}) of the world. */
  private static ComputeNodeCore node(int nodeIndex, int worldSize, WorkloadSpec workload, HostSpec host) {
    return new ComputeNodeCore(nodeIndex, nodeIndex, 10 + nodeIndex, worldSize, workload, SEED,
        ExpectedAnswers.forWorkload(workload, worldSize, SEED), host, null);
  }

  /** Hands {@code payload} to {@code node} at {@code timePs}; returns what it sent. */
  private List<Sent> handle(ComputeNodeCore node, long timePs, Payload payload) {
    node.onEvent(new Event(timePs, Event.EXTERNAL_SOURCE, sequence++, node.deviceId(), payload), outbox.at(timePs));
    return outbox.take();
  }

  /**
   * Starts a node whose ranks only talk among themselves at time 0 and hands it its own events in the total order
   * until none is left; returns the time of the last one.
   */
  private long runAlone(ComputeNodeCore node) {
    PriorityQueue<Event> pending = new PriorityQueue<>();
    long sent = 0;
    for (Sent s : handle(node, 0L, StartWorkload.INSTANCE)) {
      pending.add(new Event(s.timePs(), node.deviceId(), sent++, s.targetDevice(), s.payload()));
    }
    long lastPs = 0;
    while (!pending.isEmpty()) {
      Event e = pending.poll();
      assertThat(e.targetDevice()).as("a node alone sends only to itself").isEqualTo(node.deviceId());
      lastPs = e.timePs();
      for (Sent s : handle(node, e.timePs(), e.payload())) {
        pending.add(new Event(s.timePs(), node.deviceId(), sent++, s.targetDevice(), s.payload()));
      }
    }
    return lastPs;
  }

  private static Message messageOf(Sent sent) {
    return sent.payload() instanceof LocalDelivery local ? local.message() : ((NicSend) sent.payload()).message();
  }

  @Test
  void shouldStartItsRanksAndCopyAMessageBetweenThemThroughNodeMemory() {
    ComputeNodeCore node = node(0, 2, pingPong(2), host().build());
    List<Sent> sent = handle(node, 0L, StartWorkload.INSTANCE);
    // Rank 0 pings rank 1 at once: the memory latency plus 64 B at 8 Gbps later, to the node itself.
    assertThat(sent).singleElement().satisfies(s -> {
      assertThat(s.targetDevice()).isEqualTo(0);
      assertThat(s.timePs()).isEqualTo(MEMORY_LATENCY_PS + 64_000L);
      Message ping = ((LocalDelivery) s.payload()).message();
      assertThat(ping.sourceRank()).isZero();
      assertThat(ping.destinationRank()).isEqualTo(1);
      assertThat(ping.sizeBytes()).isEqualTo(64L);
    });
  }

  @Test
  void shouldRunItsRanksToTheEndAndReportEachResultOnce() {
    ComputeNodeCore node = node(0, 2, pingPong(2), host().build());
    runAlone(node);

    assertThat(node.finished()).isTrue();
    assertThat(node.progress()).as("3 operations per rank").isEqualTo(6);
    List<RankResult> results = node.takeFinishedResults();
    assertThat(results).extracting(RankResult::rank).containsExactly(0, 1);
    RankResult pinger = results.get(0);
    // The full round trip: two copies of 64 B through node memory, every iteration alike.
    assertThat(pinger.iterations()).isEqualTo(2);
    assertThat(pinger.minLatencyPs()).isEqualTo(2 * (MEMORY_LATENCY_PS + 64_000L));
    assertThat(pinger.maxLatencyPs()).isEqualTo(2 * (MEMORY_LATENCY_PS + 64_000L));
    assertThat(results).extracting(RankResult::wrongElements).containsOnly(0L);
    assertThat(node.takeFinishedResults()).as("each result is handed out once").isEmpty();
    assertThat(node.report().ranks()).isEqualTo(results);
  }

  @Test
  void shouldAddTheCrossSocketLatencyAndTheSharedMemoryChannelsOccupancy() {
    HostSpec twoSockets = host().socketsPerNode(2).crossSocketLatencyPs(300_000L).shmMessageOccupancyPs(50_000L)
        .build();
    List<Sent> sent = handle(node(0, 2, pingPong(2), twoSockets), 0L, StartWorkload.INSTANCE);
    // Rank 0 on socket 0, rank 1 on socket 1: the channel's 50 ns, the memory latency, 300 ns across, 64 ns of copy.
    assertThat(sent).extracting(Sent::timePs).containsExactly(50_000L + MEMORY_LATENCY_PS + 300_000L + 64_000L);
  }

  @Test
  void shouldQueueMessagesSentOnOneSocketAtOnceOnItsSharedMemoryChannel() {
    WorkloadSpec broadcast = WorkloadSpec.builder(Collective.BROADCAST, List.of(Algorithm.LINEAR), List.of(8L)).ppn(3)
        .dataType(DataType.INT64).build();
    HostSpec oneSocket = host().shmMessageOccupancyPs(50_000L).build();
    List<Sent> sent = handle(node(0, 3, broadcast, oneSocket), 0L, StartWorkload.INSTANCE);
    // The root sends to ranks 1 and 2 at time 0, then its first barrier message (0 B) to rank 1: each waits for
    // the ones before it to have held the channel for 50 ns.
    assertThat(sent).extracting(s -> messageOf(s).destinationRank()).containsExactly(1, 2, 1);
    assertThat(sent).extracting(s -> messageOf(s).sizeBytes()).containsExactly(8L, 8L, 0L);
    assertThat(sent).extracting(Sent::timePs).containsExactly(50_000L + MEMORY_LATENCY_PS + 8_000L,
        100_000L + MEMORY_LATENCY_PS + 8_000L, 150_000L + MEMORY_LATENCY_PS);
  }

  @Test
  void shouldSendToAnotherNodeThroughItsNicAndHandADeliveredMessageToItsRank() {
    HostSpec overheads = host().sendOverheadPs(100_000L).recvOverheadPs(200_000L).build();
    ComputeNodeCore node0 = node(0, 2, pingPong(1), overheads);
    ComputeNodeCore node1 = node(1, 2, pingPong(1), overheads);

    // Rank 0 posts the ping (100 ns) at 5 ns; the NIC has it a PCIe latency later.
    List<Sent> ping = handle(node0, 5_000L, StartWorkload.INSTANCE);
    assertThat(ping).singleElement().satisfies(s -> {
      assertThat(s.targetDevice()).isEqualTo(10);
      assertThat(s.timePs()).isEqualTo(5_000L + 100_000L + PCIE_LATENCY_PS);
      assertThat(((NicSend) s.payload()).destinationHost()).isEqualTo(1);
      assertThat(messageOf(s).destinationRank()).isEqualTo(1);
    });
    assertThat(handle(node1, 0L, StartWorkload.INSTANCE)).as("rank 1 waits for the ping").isEmpty();

    // Delivered at 2 us, rank 1 completes it (200 ns) and posts the pong (100 ns) to node 0 through NIC 11; its
    // iteration done, it posts its barrier message (0 B) 100 ns later.
    List<Sent> pong = handle(node1, 2_000_000L, new NicDeliver(messageOf(ping.get(0))));
    assertThat(pong).extracting(Sent::targetDevice).containsExactly(11, 11);
    assertThat(pong).extracting(Sent::timePs).containsExactly(2_000_000L + 200_000L + 100_000L + PCIE_LATENCY_PS,
        2_000_000L + 200_000L + 2 * 100_000L + PCIE_LATENCY_PS);
    assertThat(pong).extracting(s -> ((NicSend) s.payload()).destinationHost()).containsOnly(0);
    assertThat(pong).extracting(s -> messageOf(s).sourceRank()).containsOnly(1);
    assertThat(pong).extracting(s -> messageOf(s).destinationRank()).containsOnly(0);
    assertThat(pong).extracting(s -> messageOf(s).sizeBytes()).containsExactly(64L, 0L);
  }

  @Test
  void shouldStretchItsCostsUnderAStragglerAndRestoreThemAfterwards() {
    HostSpec costs = host().sendOverheadPs(100_000L).recvOverheadPs(200_000L).reduceBitsPerSecond(8 * Units.GBPS)
        .build();
    ComputeNodeCore node = node(0, 2, pingPong(2), costs);
    assertThat(node.sendOverheadPs()).isEqualTo(100_000L);

    handle(node, 1_000L, new FaultCommand(FaultEvent.straggler(1_000L, "host 0", 0, 2.5)));
    assertThat(node.sendOverheadPs()).isEqualTo(250_000L);
    assertThat(node.recvOverheadPs()).isEqualTo(500_000L);
    assertThat(node.reducePs(64)).isEqualTo(160_000L);
    assertThat(node.localCopyPs(3)).as("3 ns x 2.5").isEqualTo(7_500L);

    handle(node, 2_000L, new FaultCommand(FaultEvent.straggler(2_000L, "host 0", 0, 1.0)));
    assertThat(node.sendOverheadPs()).isEqualTo(100_000L);
    assertThat(node.reducePs(64)).isEqualTo(64_000L);
  }

  @Test
  void shouldRefuseWhatOnlyANicOrASwitchTakes() {
    ComputeNodeCore node = node(0, 2, pingPong(2), host().build());
    NicSend send = new NicSend(1, Message.synthetic(0, 1, 1L, 8L));
    assertThatThrownBy(() -> handle(node, 0L, send)).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("compute node 0 cannot handle " + send);
    FaultCommand down = new FaultCommand(FaultEvent.link(0L, FaultAction.DOWN, "link 0-2", 0, 2));
    assertThatThrownBy(() -> handle(node, 0L, down)).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("compute node 0 cannot handle " + down);
  }
}
