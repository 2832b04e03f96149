package io.fabemu.switching;

import io.fabemu.core.fault.FaultPlan;
import io.fabemu.core.fault.FaultReport;
import io.fabemu.core.inc.IncFrame;
import io.fabemu.core.link.EgressPort;
import io.fabemu.core.link.PacketDropSpec;
import io.fabemu.core.link.PacketForwarder;
import io.fabemu.core.link.RoutingViews;
import io.fabemu.core.protocol.DeviceProtocol.FaultCommand;
import io.fabemu.core.protocol.DeviceProtocol.FaultDetected;
import io.fabemu.core.protocol.DeviceProtocol.Packet;
import io.fabemu.core.protocol.DeviceProtocol.RouteUpdate;
import io.fabemu.core.protocol.FaultPayload;
import io.fabemu.core.protocol.LinkPayload;
import io.fabemu.core.routing.RoutingTable;
import io.fabemu.core.sim.DeviceCore;
import io.fabemu.core.sim.DeviceReport;
import io.fabemu.core.sim.Event;
import io.fabemu.core.sim.Outbox;
import io.fabemu.core.topology.Topology;
import io.fabemu.switching.inc.IncSwitchSpec;
import io.fabemu.switching.inc.SwitchIncUnit;
import java.util.List;

/**
 * A packet switch: ports with FIFO egress queues, a forwarding table (shortest paths, per-flow ECMP) and a
 * pipeline latency, in store-and-forward or cut-through mode.
 *
 * <p>A switch with an INC unit (the INC paper's TOR/SPINE with an FPGA; the INC patent's network device with an INC
 * unit) has an arbiter in front: a flagged (INC) packet that is a control packet, or a task packet addressed to this
 * switch, goes to the {@link SwitchIncUnit}; everything else is forwarded as before. The unit's outputs leave
 * through the same egress ports after the pipeline latency. Without a unit, INC control packets are forwarded like
 * any packet; a task packet addressed to such a switch is an error (the control plane must not build a tree over
 * it).
 */
public final class SwitchCore implements DeviceCore, LinkPayload.Handler<Outbox>, FaultPayload.Handler<Outbox> {
  private final int deviceId;
  private final Topology topology;
  private final PacketForwarder forwarder;
  /** The INC unit; null when the switch has none. */
  private final SwitchIncUnit incUnit;
  private final IncOutput incOutput = new IncOutput();
  /** The device the event being handled came from: the neighbour a packet entered by, which the INC unit needs. */
  private int ingressDevice;

  /**
   * @param incUnit          the switch's INC unit, or null when it has none
   * @param nicHeaderBytes   header bytes the NICs put before the INC frame; the unit's own packets carry the same
   * @param nicFragmentBytes the NICs' INC fragment size: the unit reserves aggregation slots by it
   * @param packetDrops      the scenario's injected loss (the entries for this switch's outgoing links apply)
   * @param scenarioSeed     seeds the loss decisions
   */
  public SwitchCore(int vertex, Topology topology, RoutingTable routing, SwitchSpec spec, IncSwitchSpec incUnit,
                    int nicHeaderBytes, int nicFragmentBytes, List<PacketDropSpec> packetDrops, long scenarioSeed) {
    this.deviceId = vertex;
    this.topology = topology;
    this.forwarder = new PacketForwarder(vertex, topology, routing, spec.pipelineLatencyPs(), spec.forwarding(),
        packetDrops, scenarioSeed);
    this.incUnit = incUnit == null ? null
        : new SwitchIncUnit(vertex, topology, incUnit, nicHeaderBytes, nicFragmentBytes);
  }

  /**
   * Makes this switch part of a run with faults: its ports take the plan's events and the management node's routes
   * ({@link PacketForwarder#enableFaults}); its INC unit, if any, drops the groups whose tree the dead links cut
   * ({@link SwitchIncUnit#onDeadLinks}) and discards task packets of groups it does not hold.
   */
  public void useFaults(FaultPlan plan, RoutingViews routingViews, int managementDevice, long scenarioSeed) {
    forwarder.enableFaults(plan, routingViews, managementDevice, scenarioSeed);
    if (incUnit != null) incUnit.tolerateFaults();
  }

  /**
   * Makes this switch (an optical cluster's server switch) follow the connection-policy changes of the run
   * (docs/optical.md, "The OCS controller"): from {@code atPs.get(i)} on it routes by {@code tables.get(i)}, which
   * send another server's traffic to the NPU whose circuit reaches it in that policy. Call it before the run starts.
   */
  public void useRouteChanges(List<Long> atPs, List<RoutingTable> tables) {
    forwarder.useRouteChanges(atPs, tables);
  }

  @Override
  public int deviceId() {
    return deviceId;
  }

  /** The INC unit, or null when the switch has none. */
  public SwitchIncUnit incUnit() {
    return incUnit;
  }

  @Override
  public void onEvent(Event event, Outbox outbox) {
    ingressDevice = event.sourceDevice();
    // A connection-policy change's routes apply to everything from its time on.
    forwarder.routesAt(event.timePs());
    event.payload().handleWith(this, outbox);
  }

  @Override
  public String deviceName() {
    return "switch " + deviceId;
  }

  @Override
  public void onPacket(Packet packet, Outbox outbox) {
    if (!forwarder.arrives(ingressDevice, outbox.nowPs())) {
      return; // lost to a fault on the way in (counted)
    }
    if (packet.extension() == null) {
      forwarder.forward(packet, outbox);
      return;
    }
    boolean addressedHere = packet.destinationHost() == deviceId;
    if (incUnit != null && (addressedHere || IncFrame.of(packet).type().isControl())) {
      if (packet.corrupted()) {
        return; // the unit checks the checksum before it reduces; counted where the bits flipped
      }
      incOutput.outbox = outbox;
      incUnit.onPacket(packet, ingressDevice, incOutput);
      incOutput.outbox = null;
    } else if (topology.isHost(packet.destinationHost())) {
      forwarder.forward(packet, outbox);
    } else {
      forwardToSwitch(packet, addressedHere, outbox);
    }
  }

  /** An INC task packet addressed to a switch, here without an INC unit: pass it on to a neighbour, or fail. */
  private void forwardToSwitch(Packet packet, boolean addressedHere, Outbox outbox) {
    EgressPort port = addressedHere ? null : forwarder.portTo(packet.destinationHost());
    if (port == null) {
      throw new IllegalStateException("switch " + topology.vertex(deviceId).name() + " (vertex " + deviceId
          + ") got an INC " + IncFrame.of(packet).type() + " packet addressed to "
          + (addressedHere ? "it, but has no INC unit" : "switch " + packet.destinationHost()
              + ", which is no neighbour")
          + " (the INC control plane must not build a tree over such a switch)");
    }
    forwarder.forward(packet, port, outbox);
  }

  @Override
  public DeviceReport report() {
    FaultReport faults = forwarder.faultTally() == null ? null
        : new FaultReport(forwarder.faultTally().copy(), List.of(), null, List.of());
    return DeviceReport.builder(deviceId).links(forwarder.counters()).part(faults).build();
  }

  /** The INC unit's packets: to a neighbour or by the routing table, after the pipeline latency. */
  private final class IncOutput implements SwitchIncUnit.Sink {
    Outbox outbox;

    @Override
    public void send(Packet packet, int nextVertex, long readyPs) {
      EgressPort port = nextVertex < 0 ? forwarder.egressToward(packet.sourceHost(), packet.destinationHost())
          : forwarder.portTo(nextVertex);
      if (port == null) {
        throw new IllegalStateException("switch " + deviceId + " has no link to vertex " + nextVertex);
      }
      PacketForwarder.transmit(port, readyPs + forwarder.pipelineLatencyPs(), packet, outbox);
    }
  }

  @Override
  public void onFaultCommand(FaultCommand command, Outbox outbox) {
    forwarder.onFaultCommand(command, outbox);
  }

  @Override
  public void onFaultDetected(FaultDetected detected, Outbox outbox) {
    forwarder.onFaultDetected(detected, outbox);
  }

  @Override
  public void onRouteUpdate(RouteUpdate update, Outbox outbox) {
    forwarder.onRouteUpdate(update);
    if (incUnit != null) incUnit.onDeadLinks(update.deadLinks());
  }
}
