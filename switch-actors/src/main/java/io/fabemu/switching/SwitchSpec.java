package io.fabemu.switching;

import io.fabemu.core.link.ForwardingMode;

/**
 * Timing of a packet switch.
 *
 * @param pipelineLatencyPs time from the moment a packet may be forwarded until it can start on the egress port
 * @param forwarding        store-and-forward (wait for the whole packet) or cut-through (start after the head)
 */
public record SwitchSpec(long pipelineLatencyPs, ForwardingMode forwarding) {}
