package io.fabemu.nic;

import io.fabemu.core.inc.IncFrame;
import io.fabemu.core.inc.IncRequest;
import io.fabemu.core.link.PcieSpec;
import io.fabemu.core.protocol.CircuitPayload;
import io.fabemu.core.protocol.DeviceProtocol.EthernetCarriage;
import io.fabemu.core.protocol.DeviceProtocol.IncRetransmitTimer;
import io.fabemu.core.protocol.DeviceProtocol.NicSend;
import io.fabemu.core.protocol.DeviceProtocol.Packet;
import io.fabemu.core.protocol.DeviceProtocol.RoutedPacket;
import io.fabemu.core.protocol.EthernetPayload;
import io.fabemu.core.protocol.FaultPayload;
import io.fabemu.core.protocol.Payload;
import io.fabemu.core.protocol.PayloadHandlers;
import io.fabemu.core.protocol.WorkloadPayload;
import io.fabemu.core.sim.Outbox;

/**
 * The chassis's record of what its extensions claimed ({@link NicClaims}), each claim taken once: a second extension
 * claiming the same hook or family is an error of the set-up. Unclaimed, the transport is the chassis's own
 * ({@link PlainTransport}), INC is missing (an INC message or packet is an error), a payload family is refused
 * with the device's usual message, and a router port without traffic or frames refuses what would be theirs.
 */
final class NicHooks implements NicClaims {
  private final NicServices services;
  private final PayloadHandlers<Outbox> device;
  private NicClaims.Transport transport;
  private NicClaims.Inc inc;
  private HostBus hostBus;
  private WorkloadPayload.Handler<Outbox> workload;
  private FaultPayload.Handler<Outbox> faults;
  private EthernetPayload.Handler<Outbox> ethernet;
  private CircuitPayload.Handler<Outbox> circuits;
  private RouterNicPort.Traffic routerTraffic;
  private RouterNicPort.Frames routerFrames;

  /** Hooks of the chassis {@code services}; {@code device} refuses the unclaimed families. */
  NicHooks(NicServices services, PayloadHandlers<Outbox> device) {
    this.services = services;
    this.device = device;
  }

  @Override
  public void transport(NicClaims.Transport claimed) {
    if (transport != null) throw twice("the message transport");
    transport = claimed;
  }

  @Override
  public void hostBus(HostBus claimed) {
    if (hostBus != null) throw twice("the host bus");
    hostBus = claimed;
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

  @Override
  public void routerTraffic(RouterNicPort.Traffic traffic) {
    if (routerTraffic != null) throw twice("the router port's synthetic traffic");
    routerTraffic = traffic;
  }

  @Override
  public void routerFrames(RouterNicPort.Frames frames) {
    if (routerFrames != null) throw twice("the router port's Ethernet frames");
    routerFrames = frames;
  }

  private IllegalStateException twice(String what) {
    return new IllegalStateException("NIC " + services.host() + ": two extensions claim " + what);
  }

  /** Whether an extension took over the message transport. */
  boolean transportClaimed() {
    return transport != null;
  }

  /** The claimed transport, or the chassis's own. */
  NicClaims.Transport transport() {
    return transport != null ? transport : new PlainTransport(services, device);
  }

  /** The claimed host bus, or the chassis's own: PCIe of {@code pcie}. */
  HostBus hostBus(PcieSpec pcie) {
    return hostBus != null ? hostBus : new PcieBus(pcie);
  }

  /** The claimed INC path, or one that says the NIC has none. */
  NicClaims.Inc inc() {
    return inc != null ? inc : new NoInc(services.host());
  }

  /**
   * The router port's synthetic traffic, or none: then a packet without a segment or frame is an error. Traffic takes
   * the port's terminal alone (it empties the queue at the drain), so it is refused with a claimed message transport or
   * frames.
   */
  RouterNicPort.Traffic routerTraffic() {
    if (routerTraffic == null) return new NoTraffic(services.host());
    if (transportClaimed() || routerFrames != null) {
      throw new IllegalArgumentException("NIC " + services.host() + ": synthetic traffic takes the router port alone, "
          + "not with " + (transportClaimed() ? "the reliable transport" : "Ethernet frames"));
    }
    return routerTraffic;
  }

  /** Where the router port's Ethernet frames go, or nowhere: then a frame is an error. */
  RouterNicPort.Frames routerFrames() {
    return routerFrames != null ? routerFrames : new NoFrames(services.host());
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

  /** A port without synthetic traffic: no packet may come out without a segment. */
  private record NoTraffic(int host) implements RouterNicPort.Traffic {
    @Override
    public void beforeCycle(Outbox outbox) {
      // nothing to queue
    }

    @Override
    public void arrived(RoutedPacket packet, long tailArrivalPs, int hops) {
      throw new IllegalStateException("NIC " + host + " ejected packet " + packet.packetId() + " of host "
          + packet.sourceHost() + ", which carries no segment, in a run without synthetic traffic");
    }

    @Override
    public void flitEjected(long arrivalPs) {
      // counted only with traffic
    }
  }

  /** A port without Ethernet: a frame coming out is an error of the set-up. */
  private record NoFrames(int host) implements RouterNicPort.Frames {
    @Override
    public void arrived(EthernetCarriage carriage, long tailArrivalPs, Outbox outbox) {
      throw new IllegalStateException("NIC " + host + " got an Ethernet frame from node " + carriage.sourceNode()
          + " in a scenario without I/O nodes");
    }
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
