package io.fabemu.node;

import io.fabemu.core.link.PcieSpec;

/**
 * Timing of a compute node's software and memory. Rates are in bits per second, like every rate in fabemu; a rate
 * of 0 means "free" (no time charged). Build one with {@link #builder()}: the components are many and of like types.
 *
 * @param sendOverheadPs         CPU time a rank spends posting one message (MPI software path)
 * @param recvOverheadPs         CPU time a rank spends completing one received message
 * @param reduceBitsPerSecond    rate at which a rank reduces received data into its buffer
 * @param memoryBitsPerSecond    intra-node copy rate between processes of the node
 * @param memoryLatencyPs        latency of an intra-node copy
 * @param pcieBitsPerSecond      host-NIC DMA rate
 * @param pcieLatencyPs          host-NIC latency (doorbell or completion), &gt; 0
 * @param socketsPerNode         CPU sockets per node; a node's ranks are spread over them in equal blocks
 * @param crossSocketLatencyPs   extra latency of an intra-node copy between processes on different sockets
 * @param shmMessageOccupancyPs  time one intra-node message holds its sending socket's shared-memory channel
 *                               (cache-line and queue contention of the shared-memory transport): messages sent on
 *                               one socket at the same time queue behind each other for this long each; 0 = none
 * @param engines                engines a rank's transfers run on, each with its own timeline for overheads and
 *                               reductions: 1 for a CPU rank (one thread); a GPU's SM groups, one per NCCL channel
 *                               (transfers on lane k run on engine k mod engines); 1 to {@value #MAX_ENGINES}
 */
public record HostSpec(long sendOverheadPs, long recvOverheadPs, long reduceBitsPerSecond,
                       long memoryBitsPerSecond, long memoryLatencyPs, long pcieBitsPerSecond,
                       long pcieLatencyPs, int socketsPerNode, long crossSocketLatencyPs,
                       long shmMessageOccupancyPs, int engines) {

  /** Most engines of a rank: a tag's lane field has 16 values. */
  public static final int MAX_ENGINES = 16;

  public HostSpec {
    if (socketsPerNode < 1) {
      throw new IllegalArgumentException("a node needs at least 1 socket, got " + socketsPerNode);
    }
    if (engines < 1 || engines > MAX_ENGINES) {
      throw new IllegalArgumentException("a rank has 1 to " + MAX_ENGINES + " engines, got " + engines);
    }
  }

  /** The host-NIC bus, which the NIC's DMA channels share with this node. */
  public PcieSpec pcie() {
    return new PcieSpec(pcieBitsPerSecond, pcieLatencyPs);
  }

  /** A builder starting from a one-socket node where everything is free and latencies are 0. */
  public static Builder builder() {
    return new Builder();
  }

  /** A builder holding this spec's values, to change some of them. */
  public Builder toBuilder() {
    return new Builder().sendOverheadPs(sendOverheadPs).recvOverheadPs(recvOverheadPs)
        .reduceBitsPerSecond(reduceBitsPerSecond).memoryBitsPerSecond(memoryBitsPerSecond)
        .memoryLatencyPs(memoryLatencyPs).pcieBitsPerSecond(pcieBitsPerSecond).pcieLatencyPs(pcieLatencyPs)
        .socketsPerNode(socketsPerNode).crossSocketLatencyPs(crossSocketLatencyPs)
        .shmMessageOccupancyPs(shmMessageOccupancyPs).engines(engines);
  }

  /** Names each component of a {@link HostSpec}; {@link #build()} checks them as the record does. */
  public static final class Builder {
    private long sendOverheadPs;
    private long recvOverheadPs;
    private long reduceBitsPerSecond;
    private long memoryBitsPerSecond;
    private long memoryLatencyPs;
    private long pcieBitsPerSecond;
    private long pcieLatencyPs;
    private int socketsPerNode = 1;
    private long crossSocketLatencyPs;
    private long shmMessageOccupancyPs;
    private int engines = 1;

    private Builder() {}

    public Builder sendOverheadPs(long value) {
      this.sendOverheadPs = value;
      return this;
    }

    public Builder recvOverheadPs(long value) {
      this.recvOverheadPs = value;
      return this;
    }

    public Builder reduceBitsPerSecond(long value) {
      this.reduceBitsPerSecond = value;
      return this;
    }

    public Builder memoryBitsPerSecond(long value) {
      this.memoryBitsPerSecond = value;
      return this;
    }

    public Builder memoryLatencyPs(long value) {
      this.memoryLatencyPs = value;
      return this;
    }

    public Builder pcieBitsPerSecond(long value) {
      this.pcieBitsPerSecond = value;
      return this;
    }

    public Builder pcieLatencyPs(long value) {
      this.pcieLatencyPs = value;
      return this;
    }

    public Builder socketsPerNode(int value) {
      this.socketsPerNode = value;
      return this;
    }

    public Builder crossSocketLatencyPs(long value) {
      this.crossSocketLatencyPs = value;
      return this;
    }

    public Builder shmMessageOccupancyPs(long value) {
      this.shmMessageOccupancyPs = value;
      return this;
    }

    /** Sets {@link HostSpec#engines()} (default 1: one timeline, a CPU rank). */
    public Builder engines(int value) {
      this.engines = value;
      return this;
    }

    public HostSpec build() {
      return new HostSpec(sendOverheadPs, recvOverheadPs, reduceBitsPerSecond, memoryBitsPerSecond, memoryLatencyPs,
          pcieBitsPerSecond, pcieLatencyPs, socketsPerNode, crossSocketLatencyPs, shmMessageOccupancyPs, engines);
    }
  }
}
