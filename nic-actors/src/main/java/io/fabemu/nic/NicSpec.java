package io.fabemu.nic;

/**
 * Timing and framing of a NIC.
 *
 * @param segmentBytes         largest payload per packet; messages are cut into segments of this size
 * @param headerBytes          wire bytes added to every packet (Ethernet + IP + transport headers)
 * @param perMessageOverheadPs NIC processing per message sent (work-request handling)
 * @param forwardingLatencyPs  pipeline latency when the NIC forwards transit packets (direct topologies)
 */
public record NicSpec(int segmentBytes, int headerBytes, long perMessageOverheadPs, long forwardingLatencyPs) {}
