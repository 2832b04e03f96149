package io.fabemu.nic;

import io.fabemu.core.inc.IncFrame;
import io.fabemu.core.inc.IncRequest;
import io.fabemu.core.protocol.CircuitPayload;
import io.fabemu.core.protocol.DeviceProtocol.IncRetransmitTimer;
import io.fabemu.core.protocol.DeviceProtocol.NicSend;
import io.fabemu.core.protocol.DeviceProtocol.Packet;
import io.fabemu.core.protocol.EthernetPayload;
import io.fabemu.core.protocol.FaultPayload;
import io.fabemu.core.protocol.Payload;
import io.fabemu.core.protocol.PayloadHandlers;
import io.fabemu.core.protocol.WorkloadPayload;
import io.fabemu.core.sim.Outbox;

/**
 * The chassis's record of what its extensions claimed ({@link NicClaims}), each claim taken once: a second extension
 * claiming the same hook or family is an error of the set-up. Unclaimed, the transport is the chassis's own
 * ({@link PlainTransport}), INC is missing (an INC message or packet is an error), and a payload family is refused
 * with the device's usual message.
 */
final class NicHooks implements NicClaims {
  private final NicServices services;
  private final PayloadHandlers<Outbox> device;
  private NicClaims.Transport transport;
  private NicClaims.Inc inc;
  private WorkloadPayload.Handler<Outbox> workload;
  private FaultPayload.Handler<Outbox> faults;
  private EthernetPayload.Handler<Outbox> ethernet;
  private CircuitPayload.Handler<Outbox> circuits;

  /** Hooks of {@code chassis}, which also refuses the unclaimed families. */
  <T extends NicServices & PayloadHandlers<Outbox>> NicHooks(T chassis) {
    this.services = chassis;
    this.device = chassis;
  }

  @Override
  public void transport(NicClaims.Transport claimed) {
    if (transport != null) throw twice("the message transport");
    transport = claimed;
  }

  @Override
  public void inc(NicClaims.Inc claimed) {
    if (inc != null) throw twice("the INC path");
    inc = claimed;
  }

  @Override
  public void workload(WorkloadPayload.Handler<Outbox> handler) {
    if (workload != null) throw twice("the workload family");
    workload = handler;
  }

  @Override
  public void faults(FaultPayload.Handler<Outbox> handler) {
    if (faults != null) throw twice("the fault family");
    faults = handler;
  }

  @Override
  public void ethernet(EthernetPayload.Handler<Outbox> handler) {
    if (ethernet != null) throw twice("the Ethernet family");
    ethernet = handler;
  }

  @Override
  public void circuits(CircuitPayload.Handler<Outbox> handler) {
    if (circuits != null) throw twice("the circuit family");
    circuits = handler;
  }

  private IllegalStateException twice(String what) {
    return new IllegalStateException("NIC " + services.host() + ": two extensions claim " + what);
  }

  /** Whether an extension took over the message transport. */
  boolean reliable() {
    return transport != null;
  }

  /** The claimed transport, or the chassis's own. */
  NicClaims.Transport transport() {
    return transport != null ? transport : new PlainTransport(services, device);
  }

  /** The claimed INC path, or one that says the NIC has none. */
  NicClaims.Inc inc() {
    return inc != null ? inc : new NoInc(services.host());
  }

  /** The Ethernet family's handler; null when none claimed it. */
  EthernetPayload.Handler<Outbox> ethernet() {
    return ethernet;
  }

  WorkloadPayload.Handler<Outbox> workload(WorkloadPayload payload) {
    return claimed(workload, payload);
  }

  FaultPayload.Handler<Outbox> faults(FaultPayload payload) {
    return claimed(faults, payload);
  }

  EthernetPayload.Handler<Outbox> ethernet(EthernetPayload payload) {
    return claimed(ethernet, payload);
  }

  CircuitPayload.Handler<Outbox> circuits(CircuitPayload payload) {
    return claimed(circuits, payload);
  }

  private <H> H claimed(H handler, Payload payload) {
    if (handler == null) throw device.cannotHandle(payload);
    return handler;
  }

  /** A NIC without INC: an INC message or packet is an error of the set-up. */
  private record NoInc(int host) implements NicClaims.Inc {
    @Override
    public void send(NicSend send, Outbox outbox) {
      throw missing(IncRequest.of(send.message()).type().name() + " message");
    }

    @Override
    public void receive(Packet packet, Outbox outbox) {
      throw missing(IncFrame.of(packet).type() + " packet");
    }

    @Override
    public void onTimer(IncRetransmitTimer timer, Outbox outbox) {
      throw missing("retransmission timer");
    }

    private IllegalStateException missing(String what) {
      return new IllegalStateException("NIC of host " + host + " got an INC " + what + ", but has no INC unit "
          + "(the scenario has no INC, or the host hangs off no TOR)");
    }
  }
}
