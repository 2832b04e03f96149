package io.fabemu.cluster.scenario;

import com.typesafe.config.ConfigValue;
import com.typesafe.config.ConfigValueFactory;
import com.typesafe.config.ConfigValueType;

/** The top-level keys: {@code name} (default: the file's name without its extension, also echoed) and {@code seed}. */
final class NameAndSeedSection implements ScenarioSection {

  @Override
  public void read(ScenarioReader in, ScenarioDraft draft) {
    String name = readName(in);
    draft.name(name);
    draft.echo(draft.echo().withValue("name", ConfigValueFactory.fromAnyRef(name)));
    draft.seed(in.longValue("seed"));
  }

  private static String readName(ScenarioReader in) {
    if (!in.has("name")) return ScenarioLoader.defaultName(in.source());
    ConfigValue v = in.value("name");
    if (v.valueType() == ConfigValueType.LIST || v.valueType() == ConfigValueType.NULL) {
      throw in.error("name", v, "expected a name, got " + ScenarioReader.describe(v));
    }
    String name = ScenarioReader.text(v);
    if (name.isEmpty()) throw in.error("name", v, "must not be empty");
    return name;
  }
}
