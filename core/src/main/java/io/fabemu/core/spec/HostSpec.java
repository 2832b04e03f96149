package io.fabemu.core.spec;

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
 */
public record HostSpec(long sendOverheadPs, long recvOverheadPs, long reduceBytesPerSecond,
                       long memoryBytesPerSecond, long memoryLatencyPs, long pcieBitsPerSecond,
                       long pcieLatencyPs) {}
