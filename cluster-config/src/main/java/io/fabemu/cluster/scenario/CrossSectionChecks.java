package io.fabemu.cluster.scenario;

import com.typesafe.config.ConfigValue;
import io.fabemu.collectives.Algorithm;
import io.fabemu.collectives.IncMode;
import io.fabemu.collectives.Schedules;
import io.fabemu.collectives.WorkloadSpec;
import io.fabemu.core.router.RouterSpec;
import io.fabemu.core.topology.TopologySpec;
import io.fabemu.core.traffic.NetworkShape;
import io.fabemu.nic.NicSpec;

/**
 * The rules between sections, once topology, devices, workload and traffic are read: a NIC segment holds at least
 * one element, the in-network algorithms have switches for INC, no hierarchical flag and a rank placement their kind
 * of topology takes, the dimension-wise ring has a mesh or torus, the tree no hierarchical flag, and a NIC segment
 * fits a router buffer where the switching needs it to (unless the scenario runs synthetic traffic, whose packets
 * {@link TrafficSection} checks).
 */
final class CrossSectionChecks implements ScenarioSection {

  @Override
  public void read(ScenarioReader in, ScenarioDraft draft) {
    checkSegmentSize(in, draft.nic(), draft.workload());
    checkInc(in, draft);
    checkDimensionRing(in, draft);
    checkTree(in, draft.workload());
    checkPacketFitsRouterBuffer(in, draft);
  }

  /**
   * Under virtual cut-through and store-and-forward a packet advances only into a buffer that takes all of it: a
   * NIC segment (with its header) longer than a virtual channel's buffer could never leave its NIC. A scenario
   * that runs synthetic traffic sends no segments (its ranks run nothing); {@link TrafficSection} checks its packets
   * instead.
   */
  private static void checkPacketFitsRouterBuffer(ScenarioReader in, ScenarioDraft draft) {
    RouterSpec router = draft.router();
    if (!draft.topology().routerNetwork() || router == null || !router.switching().needsWholePacketSpace()) return;
    if (draft.traffic() != null) return;
    NicSpec nic = draft.nic();
    int flits = router.flitsOf((long) nic.segmentBytes() + nic.headerBytes());
    if (flits > router.bufferDepthFlits()) {
      throw in.error("devices.router.buffer-depth", "a NIC segment of " + nic.segmentBytes() + " B with its "
          + nic.headerBytes() + " B header is " + flits + " flits of " + router.flitBytes() + " B, more than a buffer "
          + "of " + router.bufferDepthFlits() + " flits, which " + router.switching().configName() + " needs it to "
          + "fit in (raise buffer-depth or flit-bytes, or lower devices.nic.segment-size)");
    }
  }

  /** The tree chains each node's ranks itself, so it has no hierarchical form. */
  private static void checkTree(ScenarioReader in, WorkloadSpec workload) {
    if (workload.algorithms().contains(Algorithm.TREE) && workload.hierarchical()) {
      throw in.error("workload.hierarchical", Algorithm.TREE.configName() + " chains the ranks of each node itself; "
          + "set hierarchical = false");
    }
  }

  /** The dimension-wise ring runs along the dimensions of a mesh or torus, on every rank. */
  private static void checkDimensionRing(ScenarioReader in, ScenarioDraft draft) {
    WorkloadSpec workload = draft.workload();
    if (!workload.algorithms().contains(Algorithm.DIMENSION_RING)) return;
    TopologySpec spec = draft.topology().spec();
    boolean grid = spec.networkShape().map(s -> s.kind() != NetworkShape.Kind.GROUP_RING).orElse(false);
    if (!grid) {
      throw in.error("workload.algorithms", Algorithm.DIMENSION_RING.configName() + " needs a mesh or torus (its "
          + "rings run along the dimensions), not " + spec.configName());
    }
    if (workload.hierarchical()) {
      throw in.error("workload.hierarchical", Algorithm.DIMENSION_RING.configName() + " runs on every rank; set "
          + "hierarchical = false");
    }
  }

  private static void checkSegmentSize(ScenarioReader in, NicSpec nic, WorkloadSpec w) {
    int elementBytes = Schedules.elementBytes(w.collective(), w.dataType(), w.op());
    if (nic.segmentBytes() < elementBytes) {
      ConfigValue v = in.value("devices.nic.segment-size");
      throw in.error("devices.nic.segment-size", v, "'" + ScenarioReader.text(v) + "' is smaller than the "
          + WorkloadSection.element(w.collective(), w.dataType(), w.op()));
    }
  }

  private static void checkInc(ScenarioReader in, ScenarioDraft draft) {
    WorkloadSpec workload = draft.workload();
    CheckedTopology topology = draft.topology();
    String path = "workload.algorithms";
    for (Algorithm a : workload.algorithms()) {
      if (!a.inNetwork()) continue;
      if (topology.incRules().isEmpty()) {
        throw in.error(path, a.configName() + " " + topology.incRefusal());
      }
      if (workload.hierarchical()) {
        throw in.error("workload.hierarchical", a.configName() + " is hierarchical already (leaders reduce their "
            + "processes); set hierarchical = false");
      }
      IncMode mode = a == Algorithm.INC_NODE ? IncMode.NODE : IncMode.SOCKET;
      topology.incRules().get().check(in, path, a, mode, workload.ppn(), draft.host().socketsPerNode());
    }
  }
}
