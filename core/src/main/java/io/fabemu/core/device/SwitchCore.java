package io.fabemu.core.device;

import io.fabemu.core.device.DeviceProtocol.Packet;
import io.fabemu.core.engine.DeviceCore;
import io.fabemu.core.engine.DeviceReport;
import io.fabemu.core.engine.Event;
import io.fabemu.core.engine.Outbox;
import io.fabemu.core.routing.RoutingTable;
import io.fabemu.core.spec.SwitchSpec;
import io.fabemu.core.topology.Topology;
import java.util.List;

/**
 * A packet switch: ports with FIFO egress queues, a forwarding table (shortest paths, per-flow ECMP) and a
 * pipeline latency, in store-and-forward or cut-through mode.
 */
public final class SwitchCore implements DeviceCore {
  private final int deviceId;
  private final PacketForwarder forwarder;

  public SwitchCore(int vertex, Topology topology, RoutingTable routing, SwitchSpec spec) {
    this.deviceId = vertex;
    this.forwarder = new PacketForwarder(vertex, topology, routing, spec.pipelineLatencyPs(), spec.forwarding());
  }

  @Override
  public int deviceId() {
    return deviceId;
  }

  @Override
  public void onEvent(Event event, Outbox outbox) {
    if (event.payload() instanceof Packet packet) {
      forwarder.forward(packet, outbox);
    } else {
      throw new IllegalArgumentException("switch " + deviceId + " cannot handle " + event.payload());
    }
  }

  @Override
  public DeviceReport report() {
    return new DeviceReport(deviceId, forwarder.counters(), List.of());
  }
}
