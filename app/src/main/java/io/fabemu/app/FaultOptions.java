package io.fabemu.app;

import com.typesafe.config.ConfigObject;
import com.typesafe.config.ConfigValueFactory;
import io.fabemu.cluster.scenario.ScenarioException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code --fault EVENT} (repeatable), as a picocli mixin: fault events given on the command line, each appended to
 * the scenario's {@code faults.events} and checked by the loader exactly as an event written in the file. An event
 * is whitespace-separated {@code KEY=VALUE} tokens, the event's keys with values as the file writes them (units may
 * be glued on: {@code 40us}, {@code 50Gbps}), and at most one bare word, the action:
 * {@code --fault "at=40us switch=spine0 down"} is {@code { at = 40us, switch = spine0, action = down }}. An event
 * placed in a case gives {@code at}'s keys with their path: {@code --fault "at.case=1 at.offset=10us switch=spine0
 * down"} is {@code { at = { case = 1, offset = 10us }, ... }}.
 *
 * <p>Contract: a malformed event (empty, a token that is neither {@code KEY=VALUE} nor the one action, an empty key or
 * value, a key given twice) is a {@link ParameterException} naming it (exit code 2) before anything is loaded. The
 * events reach the loader as {@code --fault #N} (N from 1, in the order given), which names them in its errors
 * ({@code --fault #1: at: ...}); {@link #reword} turns such an error into a {@link ParameterException}.
 */
final class FaultOptions {

  /** What a key looks like: a name as the scenario format writes keys. */
  private static final Pattern KEY = Pattern.compile("[A-Za-z][A-Za-z0-9_-]*");
  /** A key of {@code at} when it places the event in a case ({@code at.case}, {@code at.offset}, ...). */
  private static final Pattern AT_KEY = Pattern.compile("at\\.([A-Za-z][A-Za-z0-9_-]*)");
  private static final String PREFIX = "--fault #";
  private static final String EXAMPLE = "e.g. 'at=40us switch=spine0 down'";

  @Option(names = "--fault", paramLabel = "EVENT",
      description = "Add a fault event to faults.events (repeatable): KEY=VALUE pairs and the action, e.g. "
          + "--fault 'at=40us switch=spine0 down' --fault 'at=60us link=tor0-spine1 degrade bandwidth=10Gbps'.")
  List<String> faults = new ArrayList<>();

  @Spec(Spec.Target.MIXEE)
  CommandSpec spec;

  /** The events in the order given, as items of {@code faults.events}; a malformed one is a ParameterException. */
  List<ConfigObject> events() {
    List<ConfigObject> out = new ArrayList<>();
    for (int i = 0; i < faults.size(); i++) {
      String name = PREFIX + (i + 1);
      try {
        out.add(ConfigValueFactory.fromMap(keys(faults.get(i)), name));
      } catch (IllegalArgumentException e) {
        throw bad(name + " '" + faults.get(i) + "': " + e.getMessage());
      }
    }
    return out;
  }

  /**
   * The keys of one event's text, in the order written, values as strings (the loader reads them as the file's); a
   * bare word is the {@code action}.
   *
   * @throws IllegalArgumentException when the text is not such an event; the message is the reason
   */
  static Map<String, Object> keys(String text) {
    String stripped = text.strip();
    if (stripped.isEmpty()) throw new IllegalArgumentException("no event given (" + EXAMPLE + ")");
    Map<String, Object> keys = new LinkedHashMap<>();
    for (String token : stripped.split("\\s+")) {
      int eq = token.indexOf('=');
      String key = eq < 0 ? "action" : token.substring(0, eq);
      String value = eq < 0 ? token : token.substring(eq + 1);
      if (eq < 0 && keys.containsKey("action")) {
        throw new IllegalArgumentException("'" + token + "': the action is '" + keys.get("action") + "' already, "
            + "and every other token is KEY=VALUE (" + EXAMPLE + ")");
      }
      Matcher atKey = AT_KEY.matcher(key);
      if (!KEY.matcher(key).matches() && !atKey.matches()) {
        throw new IllegalArgumentException("'" + token + "' is not KEY=VALUE with a key such as at or switch");
      }
      if (value.isEmpty()) throw new IllegalArgumentException("'" + token + "' has no value after '='");
      if (atKey.matches()) {
        // at.case=1 at.offset=10us: the object at = { case = 1, offset = 10us }, whose keys the loader checks.
        Object at = keys.computeIfAbsent("at", k -> new LinkedHashMap<String, Object>());
        if (!(at instanceof Map<?, ?>)) throw new IllegalArgumentException("at is given twice");
        @SuppressWarnings("unchecked")
        Map<String, Object> atKeys = (Map<String, Object>) at;
        if (atKeys.containsKey(atKey.group(1))) throw new IllegalArgumentException(key + " is given twice");
        atKeys.put(atKey.group(1), value);
        continue;
      }
      if (keys.containsKey(key)) throw new IllegalArgumentException(key + " is given twice");
      keys.put(key, value);
    }
    return keys;
  }

  /** A loader error about one of these events as a {@link ParameterException}; null for any other error. */
  ParameterException reword(ScenarioException e) {
    if (e.line() > 0 || !e.file().startsWith(PREFIX)) return null;
    return bad(e.getMessage());
  }

  private ParameterException bad(String message) {
    return new ParameterException(spec.commandLine(), message);
  }
}
