package io.fabemu.core.topology;

/**
 * A link's rate and propagation latency.
 *
 * @param bandwidthBitsPerSecond serialization rate, bits per second (&gt; 0)
 * @param latencyPs              propagation latency in picoseconds (&gt; 0: it bounds the engine's lookahead)
 */
public record LinkSpec(long bandwidthBitsPerSecond, long latencyPs) {}
