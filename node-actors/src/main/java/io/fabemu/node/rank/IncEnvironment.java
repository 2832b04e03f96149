package io.fabemu.node.rank;

import io.fabemu.collectives.IncLayout;
import io.fabemu.collectives.IncMode;

/**
 * The facts of a leaf-spine fabric that the in-network algorithms need: how many nodes, how many under each TOR,
 * and the sockets per node. Layouts are built once per mode and shared by the ranks of a JVM (they are immutable).
 */
public final class IncEnvironment {
  private final int nodes;
  private final int ppn;
  private final int socketsPerNode;
  private final int hostsPerTor;
  private final boolean incEnabled;
  private IncLayout nodeLayout;
  private IncLayout socketLayout;

  /**
   * @param incEnabled the switches and NICs have INC (when false, every in-network case falls back at once: a NIC
   *                   without an INC engine cannot even send a query)
   */
  public IncEnvironment(int nodes, int ppn, int socketsPerNode, int hostsPerTor, boolean incEnabled) {
    this.incEnabled = incEnabled;
    this.nodes = nodes;
    this.ppn = ppn;
    this.socketsPerNode = socketsPerNode;
    this.hostsPerTor = hostsPerTor;
  }

  public boolean incEnabled() {
    return incEnabled;
  }

  /** The layout of {@code mode}; throws IllegalArgumentException when the ranks do not meet the mode's rules. */
  public synchronized IncLayout layout(IncMode mode) {
    if (mode == IncMode.NODE) {
      if (nodeLayout == null) nodeLayout = IncLayout.of(mode, nodes, ppn, socketsPerNode, hostsPerTor);
      return nodeLayout;
    }
    if (socketLayout == null) socketLayout = IncLayout.of(mode, nodes, ppn, socketsPerNode, hostsPerTor);
    return socketLayout;
  }
}
