package io.fabemu.switching.optical;

import io.fabemu.core.optical.Circuit;
import io.fabemu.core.optical.ConnectionPolicy;
import io.fabemu.core.optical.OcsReport;
import io.fabemu.core.optical.OcsSpec;
import io.fabemu.core.protocol.DeviceProtocol.CableFrame;
import io.fabemu.core.protocol.DeviceProtocol.CircuitUp;
import io.fabemu.core.protocol.DeviceProtocol.Credit;
import io.fabemu.core.protocol.DeviceProtocol.EthernetControl;
import io.fabemu.core.protocol.DeviceProtocol.EthernetTimer;
import io.fabemu.core.protocol.DeviceProtocol.FailureNotice;
import io.fabemu.core.protocol.DeviceProtocol.FaultCommand;
import io.fabemu.core.protocol.DeviceProtocol.FaultDetected;
import io.fabemu.core.protocol.DeviceProtocol.Flit;
import io.fabemu.core.protocol.DeviceProtocol.IncRetransmitTimer;
import io.fabemu.core.protocol.DeviceProtocol.LocalDelivery;
import io.fabemu.core.protocol.DeviceProtocol.NicDeliver;
import io.fabemu.core.protocol.DeviceProtocol.NicSend;
import io.fabemu.core.protocol.DeviceProtocol.Packet;
import io.fabemu.core.protocol.DeviceProtocol.RouteUpdate;
import io.fabemu.core.protocol.DeviceProtocol.RouterCycle;
import io.fabemu.core.protocol.DeviceProtocol.StartWorkload;
import io.fabemu.core.protocol.DeviceProtocol.TransportTimer;
import io.fabemu.core.protocol.Payload;
import io.fabemu.core.protocol.PayloadHandler;
import io.fabemu.core.sim.DeviceCore;
import io.fabemu.core.sim.DeviceReport;
import io.fabemu.core.sim.Event;
import io.fabemu.core.sim.Outbox;
import io.fabemu.core.topology.Topology;
import java.util.List;

/**
 * The optical circuit switch's controller (seed 004's "optical switch unit controller", [0188]; docs/optical.md,
 * "The OCS controller"): a device of its own, after the topology's (and the management node's). The run starts it at
 * time 0 with the connection policy the management device derived; it then starts every circuit of the policy at
 * once, and each comes up {@code reconfiguration-delay} later: at that time it tells the NICs of the circuit's two
 * NPUs with a {@link CircuitUp} each, and their optical ports, which held what they were handed, send it.
 *
 * <p>It exists only when the delay is positive: with 0 the circuits are up from the start and the run has no
 * controller. It receives nothing but its start; every other payload is refused.
 */
public final class OcsControllerCore implements DeviceCore, PayloadHandler<Outbox> {
  private final int deviceId;
  private final ConnectionPolicy policy;
  private final Topology topology;
  private final long reconfigurationDelayPs;
  private int circuitsSetUp;
  private long lastCircuitUpPs;
  private boolean started;

  /**
   * @param deviceId the controller's device id
   * @param policy   the circuits to set up
   * @param topology the optical cluster ({@code host = server * N + npu}), for the NPUs' NIC devices
   * @param ocs      the setup time; must be positive
   */
  public OcsControllerCore(int deviceId, ConnectionPolicy policy, Topology topology, OcsSpec ocs) {
    if (!ocs.setsUpDuringRun()) {
      throw new IllegalArgumentException("an OCS controller needs a positive reconfiguration delay, got "
          + ocs.reconfigurationDelayPs() + " ps");
    }
    this.deviceId = deviceId;
    this.policy = policy;
    this.topology = topology;
    this.reconfigurationDelayPs = ocs.reconfigurationDelayPs();
  }

  @Override
  public int deviceId() {
    return deviceId;
  }

  @Override
  public void onEvent(Event event, Outbox outbox) {
    event.payload().handleWith(this, outbox);
  }

  /** The run starts: every circuit of the policy is started now, all in parallel. */
  @Override
  public void onStartWorkload(StartWorkload start, Outbox outbox) {
    if (started) throw new IllegalStateException("OCS controller " + deviceId + " started twice");
    started = true;
    long now = outbox.nowPs();
    long upPs = now + reconfigurationDelayPs;
    int npus = policy.npusPerServer();
    for (Circuit c : policy.circuits()) {
      int hostA = c.serverA() * npus + c.plane();
      int hostB = c.serverB() * npus + c.plane();
      outbox.send(topology.nicDevice(hostA), upPs, new CircuitUp(hostB, now));
      outbox.send(topology.nicDevice(hostB), upPs, new CircuitUp(hostA, now));
      circuitsSetUp++;
      lastCircuitUpPs = upPs;
    }
  }

  @Override
  public void onNicSend(NicSend send, Outbox outbox) {
    throw cannotHandle(send);
  }

  @Override
  public void onNicDeliver(NicDeliver deliver, Outbox outbox) {
    throw cannotHandle(deliver);
  }

  @Override
  public void onLocalDelivery(LocalDelivery delivery, Outbox outbox) {
    throw cannotHandle(delivery);
  }

  @Override
  public void onPacket(Packet packet, Outbox outbox) {
    throw cannotHandle(packet);
  }

  @Override
  public void onIncRetransmitTimer(IncRetransmitTimer timer, Outbox outbox) {
    throw cannotHandle(timer);
  }

  @Override
  public void onFlit(Flit flit, Outbox outbox) {
    throw cannotHandle(flit);
  }

  @Override
  public void onCredit(Credit credit, Outbox outbox) {
    throw cannotHandle(credit);
  }

  @Override
  public void onRouterCycle(RouterCycle cycle, Outbox outbox) {
    throw cannotHandle(cycle);
  }

  @Override
  public void onFaultCommand(FaultCommand command, Outbox outbox) {
    throw cannotHandle(command);
  }

  @Override
  public void onFaultDetected(FaultDetected detected, Outbox outbox) {
    throw cannotHandle(detected);
  }

  @Override
  public void onFailureNotice(FailureNotice notice, Outbox outbox) {
    throw cannotHandle(notice);
  }

  @Override
  public void onRouteUpdate(RouteUpdate update, Outbox outbox) {
    throw cannotHandle(update);
  }

  @Override
  public void onTransportTimer(TransportTimer timer, Outbox outbox) {
    throw cannotHandle(timer);
  }

  @Override
  public void onCableFrame(CableFrame frame, Outbox outbox) {
    throw cannotHandle(frame);
  }

  @Override
  public void onEthernetTimer(EthernetTimer timer, Outbox outbox) {
    throw cannotHandle(timer);
  }

  @Override
  public void onEthernetControl(EthernetControl control, Outbox outbox) {
    throw cannotHandle(control);
  }

  @Override
  public void onCircuitUp(CircuitUp up, Outbox outbox) {
    throw cannotHandle(up);
  }

  private IllegalArgumentException cannotHandle(Payload payload) {
    return new IllegalArgumentException("OCS controller " + deviceId + " cannot handle " + payload);
  }

  @Override
  public DeviceReport report() {
    return new DeviceReport(deviceId, List.of(), List.of(), null, List.of(), null, null,
        new OcsReport(circuitsSetUp, lastCircuitUpPs, 0L, 0L, 0L));
  }
}
