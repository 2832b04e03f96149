package io.fabemu.nic;

import io.fabemu.core.protocol.CircuitPayload;
import io.fabemu.core.protocol.DeviceProtocol.IncRetransmitTimer;
import io.fabemu.core.protocol.DeviceProtocol.NicSend;
import io.fabemu.core.protocol.DeviceProtocol.Packet;
import io.fabemu.core.protocol.DeviceProtocol.RoutedPacket;
import io.fabemu.core.protocol.DeviceProtocol.TransportTimer;
import io.fabemu.core.protocol.EthernetPayload;
import io.fabemu.core.protocol.FaultPayload;
import io.fabemu.core.protocol.WorkloadPayload;
import io.fabemu.core.sim.Outbox;

/**
 * What a {@link NicExtension} may take over from the chassis, once, as the NIC is built ({@link NicExtension#claim}):
 * the message transport, the INC path, whole payload families, and on a router network what the port's terminal
 * ejects besides segments (synthetic traffic, Ethernet frames). Each can be claimed by one extension only; what
 * nobody claims keeps the chassis's plain behaviour (plain transport, no INC, the family refused). The chassis
 * resolves the claims into fields at construction: a packet's handling never searches for its handler.
 */
public interface NicClaims {

  /** Ordinary messages go through {@code transport} (the reliable transport of a run with faults). */
  void transport(Transport transport);

  /** Messages with an INC request, packets with an INC frame and INC retransmission timers go to {@code inc}. */
  void inc(Inc inc);

  void workload(WorkloadPayload.Handler<Outbox> handler);

  void faults(FaultPayload.Handler<Outbox> handler);

  void ethernet(EthernetPayload.Handler<Outbox> handler);

  void circuits(CircuitPayload.Handler<Outbox> handler);

  /**
   * On a router network: the synthetic traffic the port injects, which gets its cycles and segment-less packets. It
   * takes the port alone: not with a claimed message transport or frames.
   */
  void routerTraffic(RouterNicPort.Traffic traffic);

  /** On a router network: the Ethernet frames that come out of the port's terminal go to {@code frames}. */
  void routerFrames(RouterNicPort.Frames frames);

  /** The DMA moves data between host memory and the NIC over {@code bus} instead of the chassis's {@link PcieBus}. */
  void hostBus(HostBus bus);

  /** How ordinary messages travel: sent, received, acknowledged. The chassis's own sends each message once. */
  interface Transport {

    /** Sends a message the compute node posted. */
    void send(NicSend send, Outbox outbox);

    void onTimer(TransportTimer timer, Outbox outbox);

    /** Whether a packet from {@code ingressDevice} arrives now, or was lost on the way in (counted). */
    boolean arrives(int ingressDevice, long nowPs);

    /** True when {@code packet} belongs to a message delivered already: it was handled here, and is discarded. */
    boolean discardsCopy(Packet packet, Outbox outbox);

    /** A whole message was delivered, its last segment {@code last} written at {@code writtenPs}. */
    void delivered(Packet last, long writtenPs, Outbox outbox);

    void acknowledged(Packet ack, long tailTimePs);

    /** On a router network: {@code packet} (this NIC's) left the terminal. */
    void packetLeft(RoutedPacket packet, Outbox outbox);

    /** On a router network: {@code packet} was lost to fault event {@code eventId} at this NIC. */
    void packetLost(RoutedPacket packet, int eventId);
  }

  /** The NIC's INC path (the INC patent's NIC transceiver). */
  interface Inc {

    void send(NicSend send, Outbox outbox);

    void receive(Packet packet, Outbox outbox);

    void onTimer(IncRetransmitTimer timer, Outbox outbox);
  }
}
