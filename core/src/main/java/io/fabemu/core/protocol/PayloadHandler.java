package io.fabemu.core.protocol;

import io.fabemu.core.protocol.DeviceProtocol.CableFrame;
import io.fabemu.core.protocol.DeviceProtocol.CircuitDown;
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

/**
 * A device's handling of every kind of {@link Payload}, one method per record. Java 17 has no pattern-matching
 * switch (a preview there), so this is how the compiler checks every case: a new record in {@code Payload} adds a
 * method here, and no device compiles until it decides what to do with it. A device that cannot receive a kind
 * says so in that method (it throws). {@link Payload#handleWith} calls the method for the payload's kind: one
 * virtual call, no {@code instanceof} chain.
 *
 * @param <C> what the device needs besides the payload while it handles one event (its outbox, usually)
 */
public interface PayloadHandler<C> {

  void onStartWorkload(StartWorkload start, C context);

  void onNicSend(NicSend send, C context);

  void onNicDeliver(NicDeliver deliver, C context);

  void onLocalDelivery(LocalDelivery delivery, C context);

  void onPacket(Packet packet, C context);

  void onIncRetransmitTimer(IncRetransmitTimer timer, C context);

  void onFlit(Flit flit, C context);

  void onCredit(Credit credit, C context);

  void onRouterCycle(RouterCycle cycle, C context);

  void onFaultCommand(FaultCommand command, C context);

  void onFaultDetected(FaultDetected detected, C context);

  void onFailureNotice(FailureNotice notice, C context);

  void onRouteUpdate(RouteUpdate update, C context);

  void onTransportTimer(TransportTimer timer, C context);

  void onCableFrame(CableFrame frame, C context);

  void onEthernetTimer(EthernetTimer timer, C context);

  void onEthernetControl(EthernetControl control, C context);

  void onCircuitUp(CircuitUp up, C context);

  void onCircuitDown(CircuitDown down, C context);
}
