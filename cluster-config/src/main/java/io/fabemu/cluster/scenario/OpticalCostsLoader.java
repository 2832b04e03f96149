package io.fabemu.cluster.scenario;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import com.typesafe.config.ConfigObject;
import com.typesafe.config.ConfigParseOptions;
import com.typesafe.config.ConfigValue;
import com.typesafe.config.ConfigValueType;
import io.fabemu.core.optical.TransmissionCosts;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Set;

/**
 * Reads the configuration file of the transmission methods' cost model (the optical patent, [0173]: the bandwidths and the
 * peer-to-peer delays, fixed for a cluster, "written into a configuration file in advance"): one HOCON object
 * {@code optical-costs} with {@code intra-server-bandwidth}, {@code inter-server-bandwidth}, {@code p2p-read-delay},
 * {@code p2p-write-delay} and {@code peer-to-peer}, each defaulted by {@value #DEFAULTS_RESOURCE}
 * (docs/optical.md). It is a file of its own, not a scenario, as the seed describes it; the scenario machinery reads
 * it ({@link ScenarioReader}: units, ranges, did-you-mean), so its errors have the scenarios' one-line form.
 *
 * <p>Contract: returns the costs, or throws the {@link ScenarioException} of the first problem: the file missing or
 * unreadable, a HOCON syntax error, an unknown key (in file order, with the closest known key), a value of the wrong
 * kind or out of range ({@code FILE:LINE: optical-costs.KEY: reason}).
 */
public final class OpticalCostsLoader {

  /** The bundled defaults of every key. */
  public static final String DEFAULTS_RESOURCE = "fabemu-optical-costs-defaults.conf";

  /** The one top-level object of the file. */
  public static final String ROOT = "optical-costs";

  private static final Config DEFAULTS = ConfigFactory.parseResources(OpticalCostsLoader.class.getClassLoader(),
      DEFAULTS_RESOURCE, ConfigParseOptions.defaults().setAllowMissing(false)).resolve();

  private OpticalCostsLoader() {}

  /**
   * Loads the costs in {@code file}; its path as given names it in messages.
   *
   * @throws ScenarioException when the file cannot be read or is not a valid cost configuration
   */
  public static TransmissionCosts load(Path file) {
    String source = file.toString();
    // The scenario's rules: a regular file of bounded size, UTF-8, bounded nesting, safe includes.
    return check(ScenarioSource.parseFile(file, source, "file").config(), source);
  }

  /**
   * Reads costs given as text; {@code sourceName} names them in messages.
   *
   * @throws ScenarioException when the text is not a valid cost configuration
   */
  public static TransmissionCosts parse(String text, String sourceName) {
    return check(ScenarioSource.parseString(text, sourceName).config(), sourceName);
  }

  private static TransmissionCosts check(Config user, String source) {
    Config merged = ScenarioLoader.resolve(user, DEFAULTS, source, Set.of());
    ScenarioReader in = new ScenarioReader(source, user, merged);
    checkKeys(in, merged.root(), DEFAULTS.root(), "");
    String p = ROOT + ".";
    long intra = in.rateBitsPerSecond(p + "intra-server-bandwidth", true);
    long inter = in.rateBitsPerSecond(p + "inter-server-bandwidth", true);
    long readPs = in.durationPs(p + "p2p-read-delay", false);
    long writePs = in.durationPs(p + "p2p-write-delay", false);
    boolean peerToPeer = in.boolValue(p + "peer-to-peer");
    return new TransmissionCosts(intra, inter, readPs, writePs, peerToPeer);
  }

  /** The schema is the defaults' tree: the first unknown key in file order, or an object where a value belongs. */
  private static void checkKeys(ScenarioReader in, ConfigObject actual, ConfigObject schema, String prefix) {
    List<String> keys = new ArrayList<>(actual.keySet());
    keys.sort(Comparator.<String>comparingInt(k -> {
      int line = in.lineInUserTree(prefix + k);
      return line > 0 ? line : Integer.MAX_VALUE;
    }).thenComparing(k -> k));
    for (String key : keys) {
      String path = prefix + key;
      ConfigValue value = actual.get(key);
      ConfigValue expected = schema.get(key);
      if (expected == null) {
        List<String> known = new ArrayList<>(schema.keySet());
        known.sort(null);
        String hint = Suggestions.closest(key, known).map(k -> " (did you mean '" + k + "'?)")
            .orElse(" (known keys" + (prefix.isEmpty() ? "" : " here") + ": " + String.join(", ", known) + ")");
        throw in.error(path, value, "unknown key" + hint);
      }
      boolean wantsObject = expected.valueType() == ConfigValueType.OBJECT;
      boolean isObject = value.valueType() == ConfigValueType.OBJECT;
      if (wantsObject != isObject) {
        throw in.error(path, value, wantsObject ? "expected an object { ... }, got " + ScenarioReader.describe(value)
            : "expected a value, got an object");
      }
      if (wantsObject) checkKeys(in, (ConfigObject) value, (ConfigObject) expected, path + ".");
    }
  }
}
