package io.fabemu.switching.optical;

import io.fabemu.core.optical.Circuit;
import io.fabemu.core.optical.ConnectionPolicy;
import io.fabemu.core.optical.OcsReport;
import io.fabemu.core.optical.OcsSpec;
import io.fabemu.core.protocol.DeviceProtocol.CircuitDown;
import io.fabemu.core.protocol.DeviceProtocol.CircuitUp;
import io.fabemu.core.protocol.DeviceProtocol.StartWorkload;
import io.fabemu.core.protocol.WorkloadPayload;
import io.fabemu.core.sim.DeviceCore;
import io.fabemu.core.sim.DeviceReport;
import io.fabemu.core.sim.Event;
import io.fabemu.core.sim.Outbox;
import io.fabemu.core.topology.Topology;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The optical circuit switch's controller (the optical patent's "optical switch unit controller", [0188]; docs/optical.md,
 * "The OCS controller"): a device of its own, after the topology's (and the management node's). The run starts it at
 * time 0 with the connection policy the management device derived; it then starts every circuit of the policy at
 * once, and each comes up {@code reconfiguration-delay} later: at that time it tells the NICs of the circuit's two
 * NPUs with a {@link CircuitUp} each, and their optical ports, which held what they were handed, send it.
 *
 * <p>Policy changes ({@code topology.ocs.reconfigure}): at a change's time the controller tears down every circuit
 * of the policy in force that the new policy lacks (a {@link CircuitDown} to both NPUs' NICs), leaves the circuits of
 * both policies as they are, and starts the new policy's other circuits, each up a reconfiguration delay later (a
 * {@link CircuitUp} to both ends; an NPU whose optical port still drains a torn-down circuit takes it up once the
 * drain is over). The whole schedule is known at the start, so the controller sends every word at time 0, each due
 * at its time: nothing it does depends on the traffic, and every cluster member sees the same words at the same
 * times.
 *
 * <p>It exists only when the delay is positive: with 0 the circuits are up from the start and the run has no
 * controller. It receives nothing but its start; every other payload is refused.
 */
public final class OcsControllerCore implements DeviceCore, WorkloadPayload.Handler<Outbox> {
  private final int deviceId;
  /** The run's policies: the initial one, then each change's. */
  private final List<ConnectionPolicy> policies;
  private final Topology topology;
  private final OcsSpec ocs;
  private int circuitsSetUp;
  private long lastCircuitUpPs;
  private final List<OcsReport.ChangeCost> changes = new ArrayList<>();
  private boolean started;

  /**
   * A controller without policy changes.
   *
   * @param deviceId the controller's device id
   * @param policy   the circuits to set up
   * @param topology the optical cluster ({@code host = server * N + npu}), for the NPUs' NIC devices
   * @param ocs      the setup time; must be positive
   */
  public OcsControllerCore(int deviceId, ConnectionPolicy policy, Topology topology, OcsSpec ocs) {
    this(deviceId, List.of(policy), topology, ocs);
  }

  /**
   * @param deviceId the controller's device id
   * @param policies the circuits to set up at the start, then the policy of each of {@code ocs.changes()}, in order
   * @param topology the optical cluster ({@code host = server * N + npu}) with the circuits of every policy, for the
   *                 NPUs' NIC devices
   * @param ocs      the setup time, positive, and the changes' times
   * @throws IllegalArgumentException when the delay is 0, or there is not one policy more than changes
   */
  public OcsControllerCore(int deviceId, List<ConnectionPolicy> policies, Topology topology, OcsSpec ocs) {
    if (!ocs.setsUpDuringRun()) {
      throw new IllegalArgumentException("an OCS controller needs a positive reconfiguration delay, got "
          + ocs.reconfigurationDelayPs() + " ps");
    }
    if (policies.size() != ocs.changes().size() + 1) {
      throw new IllegalArgumentException("an OCS controller needs the initial policy and one per change ("
          + (ocs.changes().size() + 1) + " in all), got " + policies.size());
    }
    this.deviceId = deviceId;
    this.policies = List.copyOf(policies);
    this.topology = topology;
    this.ocs = ocs;
  }

  @Override
  public int deviceId() {
    return deviceId;
  }

  @Override
  public void onEvent(Event event, Outbox outbox) {
    event.payload().handleWith(this, outbox);
  }

  @Override
  public String deviceName() {
    return "OCS controller " + deviceId;
  }

  /**
   * The run starts: every circuit of the initial policy is started now, all in parallel; each policy change's
   * teardowns and set-ups are sent now too, due at their times.
   */
  @Override
  public void onStartWorkload(StartWorkload start, Outbox outbox) {
    if (started) throw new IllegalStateException("OCS controller " + deviceId + " started twice");
    started = true;
    long now = outbox.nowPs();
    long delayPs = ocs.reconfigurationDelayPs();
    for (Circuit c : policies.get(0).circuits()) {
      circuitUp(c, now, now + delayPs, outbox);
      circuitsSetUp++;
      lastCircuitUpPs = now + delayPs;
    }
    for (int k = 1; k < policies.size(); k++) {
      long atPs = ocs.changes().get(k - 1).atPs();
      Set<Circuit> before = new HashSet<>(policies.get(k - 1).circuits());
      Set<Circuit> after = new HashSet<>(policies.get(k).circuits());
      int tornDown = 0;
      for (Circuit c : policies.get(k - 1).circuits()) {
        if (after.contains(c)) continue;
        circuitDown(c, atPs, outbox);
        tornDown++;
      }
      int setUp = 0;
      for (Circuit c : policies.get(k).circuits()) {
        if (before.contains(c)) continue;
        circuitUp(c, atPs, atPs + delayPs, outbox);
        setUp++;
      }
      // The up time as the controller sees it; an NPU still draining a torn-down circuit reports a later one.
      changes.add(new OcsReport.ChangeCost(atPs, tornDown, setUp, setUp == 0 ? 0L : atPs + delayPs, 0L, 0L, 0L));
    }
  }

  /** Tells both ends of {@code c} that it is up at {@code upPs} (requested at {@code requestedAtPs}). */
  private void circuitUp(Circuit c, long requestedAtPs, long upPs, Outbox outbox) {
    int hostA = hostOf(c.serverA(), c.plane());
    int hostB = hostOf(c.serverB(), c.plane());
    outbox.send(topology.nicDevice(hostA), upPs, new CircuitUp(hostB, requestedAtPs));
    outbox.send(topology.nicDevice(hostB), upPs, new CircuitUp(hostA, requestedAtPs));
  }

  /** Tells both ends of {@code c} that it is torn down at {@code atPs}. */
  private void circuitDown(Circuit c, long atPs, Outbox outbox) {
    int hostA = hostOf(c.serverA(), c.plane());
    int hostB = hostOf(c.serverB(), c.plane());
    outbox.send(topology.nicDevice(hostA), atPs, new CircuitDown(hostB, atPs));
    outbox.send(topology.nicDevice(hostB), atPs, new CircuitDown(hostA, atPs));
  }

  private int hostOf(int server, int npu) {
    return server * policies.get(0).npusPerServer() + npu;
  }

  @Override
  public DeviceReport report() {
    return DeviceReport.builder(deviceId)
        .part(new OcsReport(circuitsSetUp, lastCircuitUpPs, 0L, 0L, 0L, changes)).build();
  }
}
