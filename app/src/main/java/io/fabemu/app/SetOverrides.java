package io.fabemu.app;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigException;
import com.typesafe.config.ConfigFactory;
import com.typesafe.config.ConfigObject;
import com.typesafe.config.ConfigParseOptions;
import com.typesafe.config.ConfigSyntax;
import com.typesafe.config.ConfigValue;
import com.typesafe.config.ConfigValueFactory;
import io.fabemu.cluster.scenario.LoadedScenario;
import io.fabemu.cluster.scenario.ScenarioException;
import io.fabemu.cluster.scenario.ScenarioLoader;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code --set KEY.PATH=VALUE} (repeatable), as a picocli mixin: scenario values given on the command line, laid
 * over the scenario file and checked by the loader exactly as the file's values are. {@code VALUE} is written as in
 * the file (HOCON: {@code 16}, {@code "1 MiB"} or {@code 1 MiB}, {@code [ring, rabenseifner]},
 * {@code { hosts = 8 }}); a later {@code --set} of the same key wins.
 *
 * <p>Contract: a malformed assignment (no {@code =}, an empty or malformed key, a value that is not HOCON) is a
 * {@link ParameterException} naming it (exit code 2) before anything is loaded. A value that is only optional
 * substitutions of unset environment variables ({@code --set seed=${?SEED}} without {@code SEED}) sets nothing: the
 * key keeps the scenario's value, as the same line in the file would. A value the loader refuses is
 * reported by {@link #reword} as {@code --set KEY=VALUE: reason}, the same reason the loader gives for the file,
 * since the value has no line in any file.
 */
public final class SetOverrides {

  /** A key path: dot-separated names as the scenario format has them. */
  private static final Pattern KEY_PATH = Pattern.compile("[A-Za-z][A-Za-z0-9_-]*(\\.[A-Za-z][A-Za-z0-9_-]*)*");

  @Option(names = "--set", paramLabel = "KEY.PATH=VALUE",
      description = "Set a scenario value, as the file would (repeatable), e.g. --set workload.iterations=2 "
          + "--set 'workload.sizes=[4 B, 1 MiB]'.")
  public List<String> assignments = new ArrayList<>();

  @Spec(Spec.Target.MIXEE)
  CommandSpec spec;

  /**
   * One parsed assignment: the key path, the value as typed, and the HOCON value, or null when the value is unset
   * optional substitutions (the key is then not overridden).
   */
  public record Assignment(String text, String keyPath, ConfigValue value) {}

  /** The assignments in the order given; a malformed one is a {@link ParameterException}. */
  public List<Assignment> parsed() {
    List<Assignment> out = new ArrayList<>();
    for (String text : assignments) {
      int eq = text.indexOf('=');
      if (eq < 0) throw bad("--set '" + text + "': expected KEY.PATH=VALUE, e.g. workload.iterations=2");
      String key = text.substring(0, eq).strip();
      String valueText = text.substring(eq + 1).strip();
      if (!isKeyPath(key)) {
        throw bad("--set '" + text + "': '" + key + "' is not a key path such as workload.iterations");
      }
      if (valueText.isEmpty()) throw bad("--set '" + text + "': no value after '='");
      out.add(new Assignment(text, key, parseValue(text, valueText).orElse(null)));
    }
    return out;
  }

  /**
   * The assignments as a {@code Config} to lay over the scenario (later ones win). The values carry the origin
   * {@code --set KEY=VALUE} and no line number, so the loader never points into the scenario file for them.
   */
  public Config config() {
    Config config = ConfigFactory.empty();
    for (Assignment a : parsed()) {
      if (a.value() == null) continue; // an unset ${?VAR}: the file's value stands
      config = config.withValue(a.keyPath(), ConfigValueFactory.fromAnyRef(a.value().unwrapped(),
          "--set " + a.text()));
    }
    return config;
  }

  /**
   * Loads {@code scenario} with these assignments laid over it; a loader error about one of them is reworded to name
   * it ({@link #reword}).
   */
  LoadedScenario load(Path scenario) {
    try {
      return ScenarioLoader.load(scenario, config());
    } catch (ScenarioException e) {
      throw reword(e);
    }
  }

  /**
   * {@link #load(Path)} with the {@code --fault} events of {@code faults} appended to the scenario's
   * {@code faults.events}; a loader error about one of them names it ({@link FaultOptions#reword}).
   */
  LoadedScenario load(Path scenario, FaultOptions faults) {
    List<ConfigObject> events = faults.events();
    try {
      return ScenarioLoader.load(scenario, config(), events);
    } catch (ScenarioException e) {
      ParameterException fault = faults.reword(e);
      throw fault != null ? fault : reword(e);
    }
  }

  /**
   * A loader error about a value given here, reworded to name the assignment ({@code --set KEY=VALUE: reason}); any
   * other error (a value from the file, which has a line) is returned unchanged.
   */
  public RuntimeException reword(ScenarioException e) {
    if (e.line() > 0 || e.keyPath() == null) return e;
    String errorKey = e.keyPath().replaceAll("\\[\\d+]", "");
    List<Assignment> all = parsed();
    for (int i = all.size() - 1; i >= 0; i--) {
      Assignment a = all.get(i);
      String key = a.keyPath();
      if (concerns(errorKey, key)) {
        return bad("--set " + a.text() + ": " + (errorKey.equals(key) ? "" : e.keyPath() + ": ") + e.reason());
      }
    }
    return e;
  }

  private Optional<ConfigValue> parseValue(String text, String valueText) {
    try {
      return optionalHoconValue(valueText);
    } catch (IllegalArgumentException e) {
      throw bad("--set '" + text + "': " + e.getMessage());
    }
  }

  /**
   * {@code valueText} as one HOCON value, as a scenario file would hold it after {@code key =}; shared with
   * {@code sweep --vary}. A text that is not HOCON, or that holds more than one value (e.g. {@code "2\nx = 1"}, which
   * would set a second key behind the user's back), whose substitutions expand beyond the scenario's bound, or that
   * is only optional substitutions of unset environment variables (a sweep point needs a value), is an
   * {@link IllegalArgumentException} whose message is the reason on one line.
   */
  public static ConfigValue hoconValue(String valueText) {
    return optionalHoconValue(valueText).orElseThrow(() -> new IllegalArgumentException("it gives no value: its "
        + "optional substitutions (${?NAME}) name no environment variable that is set"));
  }

  /**
   * {@link #hoconValue}, or empty when the value is only optional substitutions ({@code ${?NAME}}) of environment
   * variables that are not set: in a file, such a line sets nothing.
   */
  static Optional<ConfigValue> optionalHoconValue(String valueText) {
    try {
      // Before the parser, which recurses once per level of nesting: 3,000 '[' overflowed the stack.
      ScenarioLoader.checkText("v = " + valueText, "--set");
    } catch (ScenarioException ex) {
      throw new IllegalArgumentException(ex.reason());
    }
    try {
      Config parsed = ConfigFactory.parseString("v = " + valueText,
          ConfigParseOptions.defaults().setSyntax(ConfigSyntax.CONF).setOriginDescription("--set"));
      if (parsed.root().size() != 1) throw new IllegalArgumentException("the value must be one HOCON value");
      // Before resolving: v = {a = xxxx, b = ${v.a}${v.a}, c = ${v.b}${v.b}, ...} doubles at each level.
      ScenarioLoader.checkSubstitutions(parsed, "--set");
      // Resolved here, as the file's own values are (environment variables, ${?SEED}): an unresolved value failed
      // later with a library error and exit 1.
      Config resolved = parsed.resolve();
      return resolved.hasPathOrNull("v") ? Optional.of(resolved.root().get("v")) : Optional.empty();
    } catch (ScenarioException ex) {
      throw new IllegalArgumentException(ex.reason());
    } catch (ConfigException ex) {
      String why = ex.getMessage() == null ? "not a HOCON value" : ex.getMessage().replaceFirst("^--set: \\d+: ", "");
      throw new IllegalArgumentException(ErrorLines.oneLine(why), ex);
    }
  }

  /** True when {@code key} is a key path: dot-separated names as the scenario format has them. */
  public static boolean isKeyPath(String key) {
    return KEY_PATH.matcher(key).matches();
  }

  /**
   * True when a loader error about {@code errorKey} (list indices removed) concerns {@code key}: the same key, a key
   * inside it, or a key it is inside of.
   */
  public static boolean concerns(String errorKey, String key) {
    return errorKey.equals(key) || errorKey.startsWith(key + ".") || key.startsWith(errorKey + ".");
  }

  private ParameterException bad(String message) {
    return new ParameterException(spec.commandLine(), message);
  }
}
