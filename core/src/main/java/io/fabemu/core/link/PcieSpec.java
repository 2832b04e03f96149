package io.fabemu.core.link;

/**
 * The bus between a compute node and its NIC: the DMA rate and the latency of a doorbell or a completion. The node
 * and the NIC both see it (the node's sends reach the NIC a latency later; the NIC's DMA channels run at the rate).
 *
 * @param bitsPerSecond DMA rate; 0 means free (no DMA channel delays anything)
 * @param latencyPs     one-way latency, &gt; 0 (it bounds the engine's lookahead)
 */
public record PcieSpec(long bitsPerSecond, long latencyPs) {}
