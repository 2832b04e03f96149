package io.fabemu.core.router;

import io.fabemu.core.topology.LinkSpec;

/**
 * A router network's routers and channels, stated the way cycle-accurate network simulators state them: per-hop
 * costs in router clock cycles. Shared by the routers (switch-actors) and by the NICs that inject into and eject
 * from them (nic-actors), which is why it lives in core.
 *
 * <p>Timing of one hop, in cycles: a head flit that arrived in an input buffer spends {@code routingCycles} in
 * route computation, {@code vcAllocationCycles} in virtual-channel allocation, {@code switchAllocationCycles} in
 * switch allocation and {@code traversalCycles} crossing the crossbar, then {@code linkLatencyCycles} on the
 * channel to the next input buffer. Body and tail flits skip route computation and VC allocation. A channel moves
 * one flit per cycle, so its bandwidth is {@code flitBytes * 8} bits per cycle. A credit reaches the upstream
 * device {@code creditDelayCycles} after its flit left the buffer.
 *
 * @param cyclePs                one router clock cycle, in picoseconds
 * @param flitBytes              bytes per flit (the channel width)
 * @param virtualChannels        virtual channels per input port
 * @param bufferDepthFlits       flits each virtual channel's input buffer holds
 * @param routingCycles          route computation, cycles (0 or more)
 * @param vcAllocationCycles     virtual-channel allocation, cycles (0 or more)
 * @param switchAllocationCycles switch allocation, cycles (0 or more)
 * @param traversalCycles        crossbar traversal, cycles (0 or more)
 * @param linkLatencyCycles      channel latency, cycles (at least 1: it is the engine's lookahead)
 * @param creditDelayCycles      credit return latency, cycles (at least 1, for the same reason)
 * @param switching              how flits move: wormhole, virtual cut-through or store-and-forward
 */
public record RouterSpec(long cyclePs, int flitBytes, int virtualChannels, int bufferDepthFlits, int routingCycles,
                         int vcAllocationCycles, int switchAllocationCycles, int traversalCycles,
                         int linkLatencyCycles, int creditDelayCycles, Switching switching) {

  public RouterSpec {
    requireAtLeast("cycle (ps)", cyclePs, 1);
    requireAtLeast("flit-bytes", flitBytes, 1);
    requireAtLeast("virtual-channels", virtualChannels, 1);
    requireAtLeast("buffer-depth", bufferDepthFlits, 1);
    requireAtLeast("routing-cycles", routingCycles, 0);
    requireAtLeast("vc-allocation-cycles", vcAllocationCycles, 0);
    requireAtLeast("switch-allocation-cycles", switchAllocationCycles, 0);
    requireAtLeast("traversal-cycles", traversalCycles, 0);
    requireAtLeast("link-latency-cycles", linkLatencyCycles, 1);
    requireAtLeast("credit-delay-cycles", creditDelayCycles, 1);
    if (switching == null) throw new IllegalArgumentException("router needs a switching mode, got none");
  }

  private static void requireAtLeast(String name, long value, long min) {
    if (value < min) {
      throw new IllegalArgumentException("router " + name + " must be at least " + min + ", got " + value);
    }
  }

  /** Cycles a head flit spends in a router before it leaves on a channel: route, VC and switch allocation, crossbar. */
  public int routerCycles() {
    return routingCycles + vcAllocationCycles + switchAllocationCycles + traversalCycles;
  }

  public long linkLatencyPs() {
    return linkLatencyCycles * cyclePs;
  }

  public long creditDelayPs() {
    return creditDelayCycles * cyclePs;
  }

  /** A channel as a topology link: one flit per cycle, {@link #linkLatencyPs()}. */
  public LinkSpec channel() {
    // bits per second = flitBytes * 8 bits per cycle, cycles per second = 1e12 / cyclePs.
    long bitsPerSecond = Math.multiplyExact((long) flitBytes * 8L, 1_000_000_000_000L) / cyclePs;
    return new LinkSpec(bitsPerSecond, linkLatencyPs());
  }

  /** Flits of a packet of {@code bytes} bytes: at least 1. */
  public int flitsOf(long bytes) {
    return (int) Math.max(1L, (bytes + flitBytes - 1) / flitBytes);
  }
}
