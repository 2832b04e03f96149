package io.fabemu.nic;

import io.fabemu.core.ethernet.AddressTable;
import io.fabemu.core.ethernet.EthernetFormatException;
import io.fabemu.core.ethernet.EthernetFrame;
import io.fabemu.core.ethernet.EthernetReport.IoNicCounters;
import io.fabemu.core.ethernet.EthernetSpec;
import io.fabemu.core.protocol.DeviceProtocol.EthernetCarriage;
import java.util.ArrayList;
import java.util.List;
import java.util.function.IntUnaryOperator;

/**
 * The Ethernet NIC on an I/O node's router (the patent's NIC 200: transmit part 201, address table 202, receive part
 * 203, setting part 204), owned by that node's {@link EthernetExtension}. The seed gives it a router port of its own;
 * here it shares the NIC's port to the router, so its frames queue with the node's own packets.
 *
 * <p>Outbound ({@link #fromNode}): a frame a node sent to this I/O node registers or updates its source MAC's
 * entry {source MAC, source node, detour external=>internal} (S11-S16) and goes out on the cable, one frame after
 * another ({@link #cableArrivalPs}). Inbound ({@link #fromCable}): a frame with a bad FCS is dropped (S31-S33); its
 * destination MAC found in the table goes to that node with the table's via node (S34-S36); not found, it goes to
 * every node (S37). A disabled NIC (the management node's setting) drops what reaches it, either way, and counts it.
 * {@link #refresh} sets every entry's via node from the management node's new view.
 */
final class EthernetNicUnit {
  private final int host;
  private final EthernetSpec spec;
  private final AddressTable table = new AddressTable();
  private boolean enabled;
  /** When the cable toward the external Ethernet has sent every frame so far. */
  private long cableFreeAtPs;
  private long framesIn;
  private long fcsDrops;
  private long tableHits;
  private long broadcasts;
  private long framesOut;
  private long disabledDrops;
  /** Whether its router works (the NIC sits on it: with the router down it neither receives nor sends). */
  private boolean routerUp = true;

  EthernetNicUnit(int host, EthernetSpec spec, boolean enabled) {
    this.host = host;
    this.spec = spec;
    this.enabled = enabled;
  }

  boolean enabled() {
    return enabled;
  }

  /** Its router went down or came back (a fault): until the management node disables it, it drops what it gets. */
  void setRouterUp(boolean up) {
    routerUp = up;
  }

  void setEnabled(boolean enabled) {
    this.enabled = enabled;
  }

  AddressTable table() {
    return table;
  }

  /**
   * A frame from the cable: the nodes it goes to, each as {@code {node, via}} (one for a table hit, every node of
   * {@code nodeCount} for a broadcast, with {@code viaToNode}'s via node); empty when it is dropped (a bad FCS, or
   * this NIC is disabled or its router is down).
   */
  List<int[]> fromCable(byte[] frame, int nodeCount, IntUnaryOperator viaToNode) {
    if (!enabled || !routerUp) {
      disabledDrops++;
      return List.of();
    }
    framesIn++;
    boolean good;
    try {
      good = EthernetFrame.fcsMatches(frame);
    } catch (EthernetFormatException e) {
      good = false;
    }
    if (!good) {
      fcsDrops++;
      return List.of();
    }
    AddressTable.Entry entry = table.lookup(EthernetFrame.destinationOf(frame));
    if (entry != null) {
      tableHits++;
      return List.of(new int[] {entry.node(), entry.via()});
    }
    broadcasts++;
    List<int[]> all = new ArrayList<>(nodeCount);
    for (int n = 0; n < nodeCount; n++) all.add(new int[] {n, viaToNode.applyAsInt(n)});
    return all;
  }

  /**
   * A frame a node sent through this I/O node: registers its sender and returns true when it goes out on the cable
   * ({@link #cableArrivalPs}); false when this NIC is disabled or its router is down (dropped, counted).
   *
   * @throws IllegalStateException when the node's NIC sent bytes that are not a frame (a bug, never the network's)
   */
  boolean fromNode(EthernetCarriage carriage) {
    if (!enabled || !routerUp) {
      disabledDrops++;
      return false;
    }
    EthernetFrame frame;
    try {
      frame = EthernetFrame.decode(carriage.frame());
    } catch (EthernetFormatException e) {
      throw new IllegalStateException("Ethernet NIC of host " + host + ": node " + carriage.sourceNode()
          + " sent no valid frame: " + e.getMessage(), e);
    }
    table.register(frame.source(), carriage.sourceNode(), carriage.detourVia());
    framesOut++;
    return true;
  }

  /**
   * Puts a frame of {@code frameBytes} on the cable at {@code nowPs}, after the frames before it; returns when its
   * last bit reaches the external Ethernet.
   */
  long cableArrivalPs(long nowPs, int frameBytes) {
    long start = Math.max(nowPs, cableFreeAtPs);
    cableFreeAtPs = start + spec.serializationPs(frameBytes);
    return cableFreeAtPs + spec.latencyPs();
  }

  /** Sets every entry's via node to {@code viaToNode} of its node. */
  void refresh(IntUnaryOperator viaToNode) {
    table.refresh(viaToNode);
  }

  IoNicCounters counters() {
    return new IoNicCounters(host, enabled, framesIn, fcsDrops, tableHits, broadcasts, framesOut, disabledDrops,
        table.entries());
  }
}
