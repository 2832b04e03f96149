package io.fabemu.nic;

import io.fabemu.core.protocol.CircuitPayload;
import io.fabemu.core.protocol.DeviceProtocol.CircuitDown;
import io.fabemu.core.protocol.DeviceProtocol.CircuitUp;
import io.fabemu.core.routing.RoutingTable;
import io.fabemu.core.sim.Outbox;
import java.util.List;

/**
 * An NPU's NIC on an optical cluster with an OCS controller (docs/optical.md, "The OCS controller"): the ports toward
 * its circuit peers hold what they are handed until the controller's {@link CircuitUp} for that peer, and from each
 * connection-policy change's time on the NIC routes by that change's table; the controller's {@link CircuitDown} and
 * {@link CircuitUp} words tear down and set up its circuits. It takes the circuit payload family; the waits are
 * reported in the port's OCS part.
 */
public final class CircuitWaitExtension implements NicExtension, CircuitPayload.Handler<Outbox> {
  private final NicServices services;

  /**
   * @param circuitPeers the NIC devices at the other end of this NIC's circuits (none: nothing waits)
   * @param changesAtPs  when each connection-policy change applies (empty: no change)
   * @param tables       the routes of each change, in order
   * @throws IllegalArgumentException when the NIC is on a router network, has no link to one of the peers, or the
   *                                  changes do not match
   */
  public CircuitWaitExtension(NicServices services, List<Integer> circuitPeers, List<Long> changesAtPs,
                              List<RoutingTable> tables) {
    services.linkPort("an optical circuit");
    this.services = services;
    if (!circuitPeers.isEmpty()) services.forwarder().awaitCircuitsTo(circuitPeers);
    if (!changesAtPs.isEmpty() || !tables.isEmpty()) services.forwarder().useRouteChanges(changesAtPs, tables);
  }

  @Override
  public void claim(NicClaims claims) {
    claims.circuits(this);
  }

  @Override
  public String deviceName() {
    return "NIC " + services.host();
  }

  @Override
  public void onCircuitUp(CircuitUp up, Outbox outbox) {
    services.forwarder().onCircuitUp(up, outbox);
  }

  @Override
  public void onCircuitDown(CircuitDown down, Outbox outbox) {
    services.forwarder().onCircuitDown(down, outbox);
  }
}
