package io.fabemu.cluster.scenario;

import com.typesafe.config.ConfigList;
import com.typesafe.config.ConfigObject;
import com.typesafe.config.ConfigValue;
import com.typesafe.config.ConfigValueType;
import io.fabemu.core.link.PacketDropSpec;
import java.util.ArrayList;
import java.util.List;

/**
 * The {@code faults} section: injected loss, {@code faults.packet-drops}, a list of {@code {from, to, probability}}
 * on cables of the topology, whose ends are named as the topology names its vertices.
 */
final class FaultsSection implements ScenarioSection {
  private static final List<String> DROP_KEYS = List.of("from", "to", "probability");

  @Override
  public void read(ScenarioReader in, ScenarioDraft draft) {
    CheckedTopology topology = draft.topology();
    String path = "faults.packet-drops";
    ConfigValue v = in.value(path);
    if (!(v instanceof ConfigList list)) {
      throw in.error(path, v, "expected a list such as [{ from = \"tor0\", to = \"spine0\", probability = 0.05 }], "
          + "got " + ScenarioReader.describe(v));
    }
    List<PacketDropSpec> drops = new ArrayList<>();
    for (int i = 0; i < list.size(); i++) {
      drops.add(readDrop(in, topology, path + "[" + i + "]", list.get(i)));
    }
    draft.packetDrops(drops);
  }

  private static PacketDropSpec readDrop(ScenarioReader in, CheckedTopology topology, String itemPath,
                                         ConfigValue item) {
    if (!(item instanceof ConfigObject object)) {
      throw in.error(itemPath, item, "expected { from = NAME, to = NAME, probability = P }, got "
          + ScenarioReader.describe(item));
    }
    for (String key : object.keySet()) {
      if (!DROP_KEYS.contains(key)) {
        throw in.error(itemPath + "." + key, object.get(key), "unknown key (use from, to, probability)");
      }
    }
    int from = end(in, topology, itemPath, item, object, "from");
    int to = end(in, topology, itemPath, item, object, "to");
    if (!topology.linked(from, to)) {
      throw in.error(itemPath, item, "there is no link from " + object.get("from").unwrapped() + " to "
          + object.get("to").unwrapped());
    }
    ConfigValue p = object.get("probability");
    if (p == null || !(p.unwrapped() instanceof Number n) || !(n.doubleValue() >= 0 && n.doubleValue() < 1)) {
      throw in.error(itemPath + ".probability", p == null ? item : p, "expected a probability in [0, 1), got "
          + (p == null ? "nothing" : ScenarioReader.describe(p)));
    }
    return new PacketDropSpec(from, to, n.doubleValue());
  }

  /** The vertex of the drop's end {@code key} ({@code from} or {@code to}). */
  private static int end(ScenarioReader in, CheckedTopology topology, String itemPath, ConfigValue item,
                         ConfigObject object, String key) {
    ConfigValue end = object.get(key);
    if (end == null || end.valueType() != ConfigValueType.STRING) {
      throw in.error(itemPath + "." + key, end == null ? item : end, "expected a device name such as "
          + "\"tor0\", \"spine1\" or \"host3\"");
    }
    int vertex = topology.vertex(((String) end.unwrapped()).strip());
    if (vertex < 0) {
      throw in.error(itemPath + "." + key, end, "'" + end.unwrapped() + "' is not a device of this topology ("
          + topology.switchNames() + ", " + topology.hostNames() + ")");
    }
    return vertex;
  }
}
