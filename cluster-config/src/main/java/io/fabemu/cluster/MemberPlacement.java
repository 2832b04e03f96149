package io.fabemu.cluster;

import io.fabemu.cluster.scenario.ScenarioException;
import io.fabemu.core.placement.PlacementOverride;
import io.fabemu.core.placement.PlacementPlan;
import io.fabemu.core.topology.Topology;
import io.fabemu.fabric.ScenarioSpec;
import java.util.Optional;

/**
 * The placement of a scenario's devices on the members of a run: the scenario's {@code cluster.placement} when it has
 * one, the automatic {@link PlacementPlan} otherwise. The one place a run, {@code validate} and the commands' checks
 * get their plan, so all three place alike.
 *
 * <p>Contract: a pure function of the scenario, the topology and the counts. A run on one member hosts every device
 * whatever the override lists ({@link #oneMemberWarning} says so). On more, the override must list exactly as many
 * members as the run has; otherwise the refusal is one line naming where the key was written:
 * {@code x.conf:12: cluster.placement: lists 2 members, but the run is on 3 (--members 3)}.
 */
public final class MemberPlacement {

  private MemberPlacement() {}

  /**
   * The plan of a run of {@code spec} on {@code members} members over {@code topology}.
   *
   * @param deviceCount the fabric's device count ({@code Fabric.deviceCount})
   * @throws ScenarioException        when the scenario's {@code cluster.placement} lists another number of members
   *                                  (above 1), or one of its entries does not fit the topology
   * @throws IllegalArgumentException when the topology cannot be spread over {@code members} (the automatic plan)
   */
  public static PlacementPlan plan(ScenarioSpec spec, Topology topology, int deviceCount, int members) {
    PlacementOverride override = spec.placement();
    if (override == null || members == 1) return PlacementPlan.compute(topology, deviceCount, members);
    if (override.memberCount() != members) {
      throw new ScenarioException(override.file(), override.line(), PlacementOverride.KEY, "lists "
          + override.memberCount() + " member" + (override.memberCount() == 1 ? "" : "s") + ", but the run is on "
          + members + " (--members " + members + "); list one per member, or run on " + override.memberCount());
    }
    try {
      return PlacementPlan.compute(topology, deviceCount, members, override);
    } catch (PlacementOverride.Problem p) {
      throw new ScenarioException(override.file(), override.line(), p.keyPath(), p.reason());
    }
  }

  /**
   * The warning of a run on one member of a scenario whose {@code cluster.placement} lists several: every device is
   * on the one member, the placement counts only with {@code --members}; empty otherwise.
   */
  public static Optional<String> oneMemberWarning(ScenarioSpec spec, int members) {
    PlacementOverride override = spec.placement();
    if (override == null || members != 1 || override.memberCount() == 1) return Optional.empty();
    return Optional.of("fabemu: warning: " + PlacementOverride.KEY + " lists " + override.memberCount()
        + " members; this run is on one, which hosts every device (the placement applies to --members "
        + override.memberCount() + ")");
  }

  /**
   * Where a run's plan on {@code members} members comes from, one line: {@code placement: from cluster.placement
   * (x.conf:12)}, or {@code placement: automatic}.
   */
  public static String sourceLine(ScenarioSpec spec, int members) {
    PlacementOverride override = spec.placement();
    if (override == null || members == 1) return "placement: automatic";
    return "placement: from " + PlacementOverride.KEY + " (" + override.file()
        + (override.line() > 0 ? ":" + override.line() : "") + ")";
  }
}
