package io.fabemu.node;

import io.fabemu.core.link.PcieSpec;

/**
 * Timing of a compute node's software and memory. Rates of 0 mean "free" (no time charged).
 *
 * @param sendOverheadPs         CPU time a rank spends posting one message (MPI software path)
 * @param recvOverheadPs         CPU time a rank spends completing one received message
 * @param reduceBytesPerSecond   rate at which a rank reduces received data into its buffer
 * @param memoryBytesPerSecond   intra-node copy rate between processes of the node
 * @param memoryLatencyPs        latency of an intra-node copy
 * @param pcieBitsPerSecond      host-NIC DMA rate
 * @param pcieLatencyPs          host-NIC latency (doorbell or completion), &gt; 0
 * @param socketsPerNode         CPU sockets per node; a node's ranks are spread over them in equal blocks
 * @param crossSocketLatencyPs   extra latency of an intra-node copy between processes on different sockets
 * @param shmMessageOccupancyPs  time one intra-node message holds its sending socket's shared-memory channel
 *                               (cache-line and queue contention of the shared-memory transport): messages sent on
 *                               one socket at the same time queue behind each other for this long each; 0 = none
 */
public record HostSpec(long sendOverheadPs, long recvOverheadPs, long reduceBytesPerSecond,
                       long memoryBytesPerSecond, long memoryLatencyPs, long pcieBitsPerSecond,
                       long pcieLatencyPs, int socketsPerNode, long crossSocketLatencyPs,
                       long shmMessageOccupancyPs) {

  public HostSpec {
    if (socketsPerNode < 1) {
      throw new IllegalArgumentException("a node needs at least 1 socket, got " + socketsPerNode);
    }
  }

  /** A one-socket node without shared-memory contention. */
  public HostSpec(long sendOverheadPs, long recvOverheadPs, long reduceBytesPerSecond, long memoryBytesPerSecond,
                  long memoryLatencyPs, long pcieBitsPerSecond, long pcieLatencyPs) {
    this(sendOverheadPs, recvOverheadPs, reduceBytesPerSecond, memoryBytesPerSecond, memoryLatencyPs,
        pcieBitsPerSecond, pcieLatencyPs, 1, 0L, 0L);
  }

  /** The host-NIC bus, which the NIC's DMA channels share with this node. */
  public PcieSpec pcie() {
    return new PcieSpec(pcieBitsPerSecond, pcieLatencyPs);
  }
}
