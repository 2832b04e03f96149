package io.fabemu.switching.router;

import io.fabemu.core.topology.Topology;
import java.util.List;

/**
 * What one occupied input virtual channel of a router is waiting for, as the stall watchdog and the deadlock search
 * see it: the output port and virtual channels its packet wants or holds, and why it does not move.
 *
 * @param router        the router's vertex
 * @param inputPort     the input port
 * @param inputVc       the virtual channel of that input port
 * @param kind          why its front flit does not move
 * @param outputPort    the output port its packet leaves by
 * @param firstOutputVc the first output virtual channel it waits for: the one it holds, or for {@link
 *                      Kind#FREE_OUTPUT_VC} the first of its class
 * @param outputVcCount how many consecutive output virtual channels from {@code firstOutputVc} it waits for (1
 *                      unless {@link Kind#FREE_OUTPUT_VC}, where it is the class's size)
 * @param holders       for {@link Kind#FREE_OUTPUT_VC}: the input virtual channels of this router whose packets hold
 *                      those output channels (in their order); empty otherwise
 */
public record ChannelWait(int router, int inputPort, int inputVc, Kind kind, int outputPort, int firstOutputVc,
                          int outputVcCount, List<PortVc> holders) {

  /** Why an input virtual channel's front flit does not move. */
  public enum Kind {
    /** The head is in route computation or virtual-channel allocation delay: it moves without outside help. */
    PIPELINE(false),
    /**
     * Every output virtual channel of the class it needs is held by another packet (or, under virtual cut-through,
     * lacks room for the whole packet): it waits for a tail to leave here, or for credits from downstream.
     */
    FREE_OUTPUT_VC(true),
    /** It holds its output virtual channel but the buffer ahead (downstream) is full: it waits for a credit. */
    CREDIT(true),
    /** It holds its output virtual channel and its buffer is empty: it waits for its packet's next flit upstream. */
    UPSTREAM_FLIT(true),
    /** Store-and-forward: its head waits for the packet's tail to arrive from upstream. */
    TAIL(true),
    /** It has an output virtual channel and a credit: it only lost switch allocation or waits a pipeline stage. */
    SWITCH(false);

    private final boolean blocked;

    Kind(boolean blocked) {
      this.blocked = blocked;
    }

    /** Whether only an event from another device (a credit or a flit) can move it. */
    public boolean blocked() {
      return blocked;
    }
  }

  /** An input virtual channel of a router. */
  public record PortVc(int port, int vc) {}

  public ChannelWait {
    holders = List.copyOf(holders);
  }

  /**
   * Whether the wait depends on a router downstream freeing its input buffer: a full buffer, or every wanted output
   * virtual channel held (these are the edges of a deadlock's cycle).
   */
  public boolean waitsDownstream() {
    return kind == Kind.CREDIT || kind == Kind.FREE_OUTPUT_VC;
  }

  /**
   * One phrase, e.g. {@code input 1 (from router4) vc 0 waits for a free vc 1 on port 2 (to router6), held by input
   * 3 vc 0}.
   */
  public String describe(Topology topology) {
    String input = "input " + inputPort + " (from " + topology.vertexName(topology.neighbour(router, inputPort))
        + ") vc " + inputVc;
    String port = "port " + outputPort + " (to " + topology.vertexName(topology.neighbour(router, outputPort)) + ")";
    String vcs = outputVcCount == 1 ? "vc " + firstOutputVc
        : "vcs " + firstOutputVc + "-" + (firstOutputVc + outputVcCount - 1);
    switch (kind) {
      case PIPELINE:
        return input + " is in the routing pipeline for " + port;
      case FREE_OUTPUT_VC:
        StringBuilder held = new StringBuilder();
        for (PortVc holder : holders) {
          held.append(held.length() == 0 ? "" : ", ").append("input ").append(holder.port()).append(" vc ")
              .append(holder.vc());
        }
        return input + " waits for a free " + vcs + " on " + port
            + (holders.isEmpty() ? " (none has room for the packet)" : ", held by " + held);
      case CREDIT:
        return input + " waits for a credit on " + port + " " + vcs;
      case UPSTREAM_FLIT:
        return input + " holds " + port + " " + vcs + " and waits for its packet's next flit";
      case TAIL:
        return input + " waits for its packet's tail before taking " + port + " " + vcs;
      default:
        return input + " waits for the switch to " + port + " " + vcs;
    }
  }
}
