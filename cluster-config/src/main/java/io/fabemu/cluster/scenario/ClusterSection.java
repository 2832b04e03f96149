package io.fabemu.cluster.scenario;

import com.typesafe.config.ConfigList;
import com.typesafe.config.ConfigValue;
import com.typesafe.config.ConfigValueType;
import io.fabemu.core.placement.PlacementOverride;
import java.util.ArrayList;
import java.util.List;

/**
 * The {@code cluster} section: {@code cluster.placement}, the placement groups each member of a run on several
 * members hosts, checked against the topology into a {@link PlacementOverride}.
 *
 * <p>Contract: {@code placement} is a list with one list per member of device names and {@code *} globs, e.g.
 * {@code [["tor0", "tor1", "spine0"], ["tor2", "tor3", "spine1"]]}; the empty list (the default) leaves the automatic
 * plan. Refused, naming the entry's key path and line: an entry that is not a text, is blank or names no device, a
 * placement group named on two members, a member that lists nothing. The member count is checked against the run's
 * ({@code --members N}) when the run places its devices, where it is known. Unless the user wrote the section, the
 * echo leaves it out, so scenarios written before it existed echo as they did.
 */
final class ClusterSection implements ScenarioSection {
  private static final String PATH = "cluster";
  private static final String PLACEMENT = PlacementOverride.KEY;
  private static final String EXAMPLE = "[[\"tor0\", \"tor1\", \"spine0\"], [\"tor2\", \"tor3\", \"spine1\"]]";

  @Override
  public void read(ScenarioReader in, ScenarioDraft draft) {
    if (!in.writtenByUser(PATH)) {
      draft.echo(draft.echo().withoutPath(PATH));
      return;
    }
    ConfigList lists = in.list(PLACEMENT, EXAMPLE);
    if (lists.isEmpty()) return;
    List<List<String>> members = new ArrayList<>();
    for (int m = 0; m < lists.size(); m++) {
      String memberPath = PLACEMENT + "[" + m + "]";
      ConfigValue memberValue = lists.get(m);
      if (!(memberValue instanceof ConfigList entries)) {
        throw in.error(memberPath, memberValue, "expected a member's list of device names such as [\"tor0\", "
            + "\"spine*\"], got " + ScenarioReader.describe(memberValue));
      }
      List<String> names = new ArrayList<>();
      for (int e = 0; e < entries.size(); e++) {
        ConfigValue entry = entries.get(e);
        String entryPath = memberPath + "[" + e + "]";
        if (entry.valueType() != ConfigValueType.STRING) {
          throw in.error(entryPath, entry, "expected a device name or glob such as \"tor0\" or \"host1*\", got "
              + ScenarioReader.describe(entry));
        }
        String name = ((String) entry.unwrapped()).strip();
        if (name.isEmpty()) throw in.error(entryPath, entry, "a blank device name");
        names.add(name);
      }
      members.add(names);
    }
    // Where the key was written: named again when the run's member count does not match.
    ScenarioException where = in.error(PLACEMENT, lists, "");
    PlacementOverride override = new PlacementOverride(members, where.file(), where.line());
    try {
      override.check(draft.topology().topology());
    } catch (PlacementOverride.Problem p) {
      ConfigValue at = lists.get(p.member());
      if (p.entry() >= 0) at = ((ConfigList) at).get(p.entry());
      throw in.error(p.keyPath(), at, p.reason());
    } catch (IllegalArgumentException e) {
      // A topology the placement cannot group (never one the topology section accepts).
      throw in.error(PLACEMENT, lists, e.getMessage());
    }
    draft.placement(override);
  }
}
