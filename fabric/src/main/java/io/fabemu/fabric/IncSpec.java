package io.fabemu.fabric;

import io.fabemu.core.topology.Topology.Tier;
import io.fabemu.nic.IncNicSpec;
import io.fabemu.switching.inc.IncSwitchSpec;
import java.util.Set;

/**
 * In-network computing in a fabric: the INC units of the TOR and SPINE tiers (null: that tier has none), the
 * switches that lack one although their tier has it, and the NICs' INC units.
 *
 * @param tor                 INC unit of every TOR (null: TORs have none)
 * @param spine               INC unit of every SPINE (null: SPINEs have none)
 * @param switchesWithoutInc  vertex ids of switches with no INC unit
 * @param nic                 the NICs' INC unit
 */
public record IncSpec(IncSwitchSpec tor, IncSwitchSpec spine, Set<Integer> switchesWithoutInc, IncNicSpec nic) {
  public IncSpec {
    switchesWithoutInc = Set.copyOf(switchesWithoutInc);
  }

  /** The INC unit of switch {@code vertex} in {@code tier}, or null when it has none (or its tier has none). */
  public IncSwitchSpec unitOf(int vertex, Tier tier) {
    if (switchesWithoutInc.contains(vertex)) return null;
    return switch (tier) {
      case TOR -> tor;
      case SPINE -> spine;
      // A fat-tree's aggregations hold no unit: the switch INC has two tiers (and a fat-tree refuses INC).
      case HOST, AGGREGATION, NONE -> null;
    };
  }
}
