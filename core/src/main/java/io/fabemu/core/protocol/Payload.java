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
 * What an event carries: one of the records of {@link DeviceProtocol}. The set is closed, and devices take payloads
 * through a {@link PayloadHandler}, which has one method per record: a new record fails to compile until every
 * device handles it. A record belongs here when it rides in an event, between devices or from a device to itself;
 * every one is registered with the wire serializer (core's {@code reference.conf}).
 */
public sealed interface Payload
    permits StartWorkload, NicSend, NicDeliver, LocalDelivery, Packet, IncRetransmitTimer, Flit, Credit, RouterCycle,
        FaultCommand, FaultDetected, FailureNotice, RouteUpdate, TransportTimer, CableFrame, EthernetTimer,
        EthernetControl, CircuitUp, CircuitDown {

  /**
   * Bytes of element data this payload carries (values and MAXLOC/MINLOC locations), 0 when it carries none. The
   * engine sizes cross-member batches by it; everything else in a payload is a few dozen bytes.
   */
  default long dataBytes() {
    return 0L;
  }

  /**
   * Bytes of element data the receiving device copies or reduces when it handles this payload: a delivered
   * message's, which the rank applies to its buffers, and an INC task fragment's, which a switch aggregates or a
   * NIC merges; 0 for payloads whose data is only passed on by reference (an ordinary packet's slice is a view,
   * reassembled without a copy unless it crossed members). The engine runs windows with much of this work on
   * several threads; it is an estimate of work, never part of a result.
   */
  default long dataWorkBytes() {
    return 0L;
  }

  /** Calls {@code handler}'s method for this payload's kind. */
  <C> void handleWith(PayloadHandler<C> handler, C context);
}
