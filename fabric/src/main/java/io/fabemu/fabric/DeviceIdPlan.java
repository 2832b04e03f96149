package io.fabemu.fabric;

import io.fabemu.core.topology.OpticalSpec;
import io.fabemu.core.topology.Topology;

/**
 * The device ids of a fabric, decided once: the topology's devices first ({@code 0 … topologyDevices - 1}, numbered
 * as {@link Topology} numbers them), then each extra device the scenario has, in this order: a run with faults'
 * management node, the I/O nodes' external Ethernet, an optical cluster's OCS controller. An extra device the
 * scenario lacks has id -1 and takes no id, so the ids stay dense. Everything that names an extra device's id
 * ({@link Fabric}, its installers, the member placement through {@link Fabric#deviceCount}) reads it here.
 *
 * @param topologyDevices  the topology's devices ({@link Topology#deviceCount}): NICs, switches or routers, compute
 *                         nodes
 * @param managementDevice the management node's id (a run with faults), or -1
 * @param ethernetDevice   the external Ethernet's id (a scenario with I/O nodes), or -1
 * @param ocsDevice        the OCS controller's id (an optical cluster whose circuits come up during the run), or -1
 * @param deviceCount      every device of the fabric: the topology's and the extra ones
 */
public record DeviceIdPlan(int topologyDevices, int managementDevice, int ethernetDevice, int ocsDevice,
                           int deviceCount) {

  /** Absent extra device. */
  public static final int NONE = -1;

  public DeviceIdPlan {
    if (topologyDevices <= 0) {
      throw new IllegalArgumentException("a fabric needs devices, got " + topologyDevices + " topology devices");
    }
    // The extra devices follow the topology's in their fixed order, each present one taking the next id.
    int next = topologyDevices;
    next = requireNextOrNone("management node", managementDevice, next);
    next = requireNextOrNone("external Ethernet", ethernetDevice, next);
    next = requireNextOrNone("OCS controller", ocsDevice, next);
    if (deviceCount != next) {
      throw new IllegalArgumentException("device count " + deviceCount + " is not the " + next
          + " devices the plan numbers");
    }
  }

  private static int requireNextOrNone(String device, int id, int next) {
    if (id == NONE) return next;
    if (id != next) {
      throw new IllegalArgumentException("the " + device + " must have id " + next + " (or " + NONE + "), got " + id);
    }
    return next + 1;
  }

  /** The ids of a fabric of {@code scenario} on {@code topology} (built from {@code scenario.topology()}). */
  public static DeviceIdPlan of(ScenarioSpec scenario, Topology topology) {
    int next = topology.deviceCount();
    int management = scenario.faults().isActive() ? next++ : NONE;
    int ethernet = scenario.ethernet() != null ? next++ : NONE;
    int ocs = ocsCluster(scenario) != null ? next++ : NONE;
    return new DeviceIdPlan(topology.deviceCount(), management, ethernet, ocs, next);
  }

  /**
   * The optical cluster whose OCS controller sets its circuits up during the run; null for any other scenario, and
   * for a cluster of one server, which has no circuit to set up.
   */
  static OpticalSpec ocsCluster(ScenarioSpec scenario) {
    OpticalSpec optical = scenario.topology().opticalCluster().orElse(null);
    return optical != null && optical.ocs().setsUpDuringRun() && optical.servers() > 1 ? optical : null;
  }
}
