package io.fabemu.nic;

import io.fabemu.core.ethernet.EthernetFormatException;
import io.fabemu.core.ethernet.EthernetFrame;
import io.fabemu.core.ethernet.EthernetReport;
import io.fabemu.core.ethernet.EthernetSpec;
import io.fabemu.core.ethernet.FramePayloads;
import io.fabemu.core.ethernet.MacAddress;
import io.fabemu.core.protocol.DeviceProtocol.CableFrame;
import io.fabemu.core.protocol.DeviceProtocol.EthernetCarriage;
import io.fabemu.core.protocol.DeviceProtocol.EthernetControl;
import io.fabemu.core.protocol.DeviceProtocol.EthernetTimer;
import io.fabemu.core.protocol.DeviceProtocol.RouteUpdate;
import io.fabemu.core.protocol.EthernetPayload;
import io.fabemu.core.routing.DetourTable;
import io.fabemu.core.sim.Outbox;
import java.util.List;

/**
 * A router-network NIC in a scenario with I/O nodes: it sends {@code spec.outboundFrames()} frames to the external
 * hosts (its {@link EthernetTimer}s, which the run injects at {@code spec.startPs()}) through the nearest enabled I/O
 * node, keeps the frames for its MAC and discards the others; when it is an I/O node it also runs that node's
 * Ethernet NIC ({@link EthernetNicUnit}), cabled to the external Ethernet. Frames cross the router network as one
 * packet each (a datagram: no acknowledgement, lost if a failure hits it). It takes the Ethernet payload family and
 * the frames that come out of the router port.
 */
public final class EthernetExtension implements NicExtension, EthernetPayload.Handler<Outbox>, RouterNicPort.Frames {
  private final int host;
  private final NicServices services;
  private final RouterNicPort port;
  private final EthernetSpec spec;
  /** The external Ethernet's device id. */
  private final int ethernetDevice;
  private final long scenarioSeed;
  /** This node's Ethernet NIC when it is an I/O node; null on the other nodes. */
  private final EthernetNicUnit unit;
  /** The I/O nodes whose Ethernet NIC is enabled, as the management node last said, ascending. */
  private List<Integer> enabledIoNodes;
  /** Frames this NIC put into the router network (or handed its own Ethernet NIC), and those that came out here. */
  private long routedSent;
  private long routedArrived;
  /** Frames for this node kept (payload checked), kept but wrong, and discarded (another node's MAC). */
  private long kept;
  private long wrong;
  private long discarded;

  /**
   * @param ethernetDevice the external Ethernet's device id
   * @param scenarioSeed   seeds the frames' payloads
   * @throws IllegalArgumentException when the NIC is not on a router network
   */
  public EthernetExtension(NicServices services, EthernetSpec spec, int ethernetDevice, long scenarioSeed) {
    this.host = services.host();
    this.services = services;
    this.port = services.routerPort("Ethernet through I/O nodes");
    this.spec = spec;
    this.ethernetDevice = ethernetDevice;
    this.scenarioSeed = scenarioSeed;
    this.enabledIoNodes = spec.initiallyEnabled();
    this.unit = spec.ioNodes().contains(host) ? new EthernetNicUnit(host, spec, enabledIoNodes.contains(host)) : null;
  }

  @Override
  public void claim(NicClaims claims) {
    claims.ethernet(this);
    claims.routerFrames(this);
  }

  @Override
  public String deviceName() {
    return "NIC " + host;
  }

  /** This node's next frame to the external hosts: through the nearest enabled I/O node. */
  @Override
  public void onEthernetTimer(EthernetTimer timer, Outbox outbox) {
    int round = timer.round();
    long source = MacAddress.ofNode(host);
    long destination = MacAddress.ofExternalHost(Math.floorMod(host + round, spec.externalHosts()));
    byte[] frame = new EthernetFrame(destination, source, EthernetFrame.ETHER_TYPE,
        FramePayloads.of(source, round, spec.frameBytes(), scenarioSeed)).encode();
    int io = nearestEnabledIoNode();
    if (io < 0) {
      routedSent++; // no Ethernet NIC is enabled: the frame is lost
    } else {
      // The send command carries the detour from the I/O node back here (external=>internal), for its table.
      int back = io == host ? DetourTable.DIRECT : port.via(io, host);
      send(io, new EthernetCarriage(frame, host, back, true), outbox);
    }
    if (round + 1 < spec.outboundFrames()) {
      outbox.send(host, outbox.nowPs() + spec.intervalPs(), new EthernetTimer(round + 1));
    }
  }

  /** The enabled I/O node with the fewest hops from here (the lowest-numbered of equals); -1 when none is. */
  private int nearestEnabledIoNode() {
    int best = -1;
    int bestHops = Integer.MAX_VALUE;
    for (int io : enabledIoNodes) {
      int hops = io == host ? 0 : services.routing().distance(host, io);
      if (hops < bestHops) {
        best = io;
        bestHops = hops;
      }
    }
    return best;
  }

  /** A frame from the external Ethernet on this I/O node's cable: through its Ethernet NIC to the node(s). */
  @Override
  public void onCableFrame(CableFrame frame, Outbox outbox) {
    if (unit == null || frame.ioHost() != host) throw cannotHandle(frame);
    List<int[]> targets = unit.fromCable(frame.frame(), services.topology().hostCount(),
        node -> node == host ? DetourTable.DIRECT : port.via(host, node));
    for (int[] target : targets) {
      send(target[0], target[1], new EthernetCarriage(frame.frame(), host, -1, false), outbox);
    }
  }

  /** The management node enabled and disabled Ethernet NICs: pick I/O nodes among the enabled ones from now on. */
  @Override
  public void onEthernetControl(EthernetControl control, Outbox outbox) {
    enabledIoNodes = control.enabledIoHosts();
    if (unit != null) unit.setEnabled(enabledIoNodes.contains(host));
  }

  /** Sends a frame to node {@code destination} by this NIC's current route to it. */
  private void send(int destination, EthernetCarriage carriage, Outbox outbox) {
    send(destination, destination == host ? DetourTable.DIRECT : port.via(host, destination), carriage, outbox);
  }

  /**
   * Sends a frame to node {@code destination} through {@code via}: into the router network as one packet, or
   * straight to this node's own Ethernet NIC or host when it is this node.
   */
  private void send(int destination, int via, EthernetCarriage carriage, Outbox outbox) {
    routedSent++;
    if (destination == host) {
      // Inside the node, but through its router's Ethernet NIC: lost while the router is down.
      if (port.terminal().isLinkDown()) return;
      arrived(carriage, outbox.nowPs(), outbox);
      return;
    }
    port.sendFrame(destination, via, carriage, outbox); // lost when no route reaches it
  }

  /**
   * A frame came out of the router network here (or was handed over inside this node): an outbound one goes to this
   * I/O node's Ethernet NIC and out on its cable; an inbound one is kept when it is for this node's MAC (its payload
   * checked), else discarded.
   */
  @Override
  public void arrived(EthernetCarriage carriage, long nowPs, Outbox outbox) {
    routedArrived++;
    if (carriage.outbound()) {
      if (unit == null) {
        throw new IllegalStateException("NIC " + host + " got a frame for the external Ethernet from node "
            + carriage.sourceNode() + ", but is not an I/O node");
      }
      // The table's detour back to the sender comes from this I/O node's own view, which the management node keeps
      // current (the sender's may be older: it gets no update when only the way back to it changed).
      int back = carriage.sourceNode() == host ? DetourTable.DIRECT : port.via(host, carriage.sourceNode());
      if (unit.fromNode(new EthernetCarriage(carriage.frame(), carriage.sourceNode(), back, true))) {
        long arrivalPs = unit.cableArrivalPs(nowPs, carriage.frame().length);
        outbox.send(ethernetDevice, arrivalPs, new CableFrame(host, carriage.frame()));
      }
      return;
    }
    EthernetFrame frame;
    try {
      frame = EthernetFrame.decode(carriage.frame());
    } catch (EthernetFormatException e) {
      wrong++; // the I/O NIC checked the FCS: never so
      return;
    }
    if (frame.destination() != MacAddress.ofNode(host)) {
      discarded++;
    } else if (FramePayloads.verify(frame.source(), frame.payload(), scenarioSeed)) {
      kept++;
    } else {
      wrong++;
    }
  }

  /** The patent's management node updating the I/O NIC's table: every entry's detour from the new view. */
  @Override
  public void routesChanged(RouteUpdate update, Outbox outbox) {
    if (unit != null) unit.refresh(node -> port.via(host, node));
  }

  /** An I/O node's Ethernet NIC sits on its router: cut off with it. */
  @Override
  public void onRouterLink(boolean up) {
    if (unit != null) unit.setRouterUp(up);
  }

  @Override
  public void report(NicReportParts parts) {
    parts.ethernet(new EthernetReport(unit == null ? List.of() : List.of(unit.counters()), List.of(), kept, discarded,
        wrong, routedSent, routedArrived, 0, 0, List.of()));
  }
}
