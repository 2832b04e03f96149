package io.fabemu.cluster.scenario;

import com.typesafe.config.ConfigList;
import io.fabemu.core.data.DataType;
import io.fabemu.core.data.ReduceOp;
import io.fabemu.fabric.IncSpec;
import io.fabemu.nic.IncNicSpec;
import io.fabemu.switching.inc.IncSwitchSpec;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * {@code devices.inc}: the INC units of the TORs and spines, the NICs' INC engines and the switches left without a
 * unit. When {@code enabled} is false the other INC keys are unused and the draft's INC part stays null; when true,
 * the topology's kind must have switches for INC units.
 */
final class IncSection implements ScenarioSection {
  /**
   * Most bytes of an INC packet's payload, a switch's largest aggregated message and a NIC's fragment: 16-bit fields of
   * the INC header ({@code sup_max_data_size}, the INC paper).
   */
  static final int MAX_INC_BYTES = 0xFFFF;
  /** Most aggregation slots of a switch's INC unit. */
  static final int MAX_AGGREGATION_SLOTS = 1 << 24;
  /** Most INC groups a switch holds at once: its free count is reported in 16 bits ({@code ava_grp_num}). */
  static final int MAX_INC_GROUPS = 0xFFFF;
  /** Most resends of one INC task by a NIC. */
  static final int MAX_NIC_RETRANSMITS = 1_000_000;

  @Override
  public void read(ScenarioReader in, ScenarioDraft draft) {
    if (!in.boolValue("devices.inc.enabled")) return;
    CheckedTopology topology = draft.topology();
    if (topology.incRules().isEmpty()) {
      throw in.error("devices.inc.enabled", "INC " + topology.incRefusal());
    }
    IncSwitchSpec tor = readIncUnit(in, "devices.inc.tor");
    IncSwitchSpec spine = readIncUnit(in, "devices.inc.spine");
    IncNicSpec nic = new IncNicSpec(
        (int) in.sizeBytes("devices.inc.nic.fragment-size", 1, MAX_INC_BYTES),
        in.durationPs("devices.inc.nic.engine-latency", false),
        in.durationPs("devices.inc.nic.retransmit-timeout", true),
        in.intValue("devices.inc.nic.max-retransmits", 0, MAX_NIC_RETRANSMITS),
        in.intValue("devices.inc.nic.stream-window", 0, IncNicSpec.MAX_STREAM_WINDOW));
    for (String tier : List.of("tor", "spine")) {
      IncSwitchSpec unit = tier.equals("tor") ? tor : spine;
      if (nic.fragmentBytes() > unit.maxPayloadBytes()) {
        throw in.error("devices.inc.nic.fragment-size", "'"
            + ScenarioReader.text(in.value("devices.inc.nic.fragment-size")) + "' is larger than the " + tier
            + "s' max-payload (" + Quantities.formatBytes(unit.maxPayloadBytes()) + "): a fragment must fit one INC "
            + "packet");
      }
    }
    Set<Integer> without = new TreeSet<>();
    String withoutPath = "devices.inc.switches-without-inc";
    List<String> names = in.stringList(withoutPath);
    ConfigList items = in.list(withoutPath, "[tor0, spine1]");
    for (int i = 0; i < names.size(); i++) {
      int vertex = topology.vertex(names.get(i));
      if (vertex < 0 || topology.isHost(vertex)) {
        // The item's own line: a long list may span many.
        throw in.error(withoutPath + "[" + i + "]", items.get(i), "'" + names.get(i) + "' is not a switch of this "
            + "topology (" + topology.switchNames() + ")");
      }
      without.add(vertex);
    }
    draft.inc(new IncSpec(tor, spine, without, nic));
  }

  private static IncSwitchSpec readIncUnit(ScenarioReader in, String path) {
    int maxPayload = (int) in.sizeBytes(path + ".max-payload", 1, MAX_INC_BYTES);
    int maxDataSize = (int) in.sizeBytes(path + ".max-data-size", 1, MAX_INC_BYTES);
    // Each item read as written, so that a message about one has its line.
    List<ReduceOp> ops = new ArrayList<>();
    ConfigList opItems = in.list(path + ".operations", "[sum, max]");
    for (int i = 0; i < opItems.size(); i++) {
      ops.add(in.enumOf(path + ".operations[" + i + "]", opItems.get(i), ReduceOp::fromConfigName,
          Arrays.stream(ReduceOp.values()).map(ReduceOp::configName).toList()));
    }
    List<DataType> types = new ArrayList<>();
    ConfigList typeItems = in.list(path + ".datatypes", "[int32, float32]");
    for (int i = 0; i < typeItems.size(); i++) {
      types.add(in.enumOf(path + ".datatypes[" + i + "]", typeItems.get(i), DataType::fromConfigName,
          DataType.inNamingOrder().stream().map(DataType::configName).toList()));
    }
    return new IncSwitchSpec(in.durationPs(path + ".unit-latency", false),
        in.byteRateBitsPerSecond(path + ".unit-rate"),
        in.intValue(path + ".aggregation-slots", 0, MAX_AGGREGATION_SLOTS),
        in.intValue(path + ".max-groups", 0, MAX_INC_GROUPS), maxPayload, maxDataSize, Set.copyOf(ops),
        Set.copyOf(types));
  }
}
