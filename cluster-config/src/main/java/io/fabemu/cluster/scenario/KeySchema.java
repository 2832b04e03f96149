package io.fabemu.cluster.scenario;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigList;
import com.typesafe.config.ConfigObject;
import com.typesafe.config.ConfigUtil;
import com.typesafe.config.ConfigValue;
import com.typesafe.config.ConfigValueFactory;
import com.typesafe.config.ConfigValueType;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The keys a scenario may hold: those of the defaults plus the few without a default ({@code name},
 * {@code workload.sizes}, {@code workload.min-size}, {@code workload.max-size}, {@code traffic.offered-loads},
 * {@code traffic.hot-spot.nodes}, {@code traffic.hot-spot.fraction}).
 *
 * <p>Contract: {@link #check} refuses the first unknown key in file order, and the first object where a value
 * belongs or value where an object belongs, before any section reads a value. An unknown key's message suggests the
 * closest sibling, else the same key elsewhere in the schema, else lists the known keys there. A key longer than
 * {@link #MAX_KEY_CHARS} or a text value longer than {@link #MAX_TEXT_CHARS} is refused before anything compares or
 * quotes it, so no message is megabytes long.
 */
final class KeySchema {
  private static final Config SCHEMA = ScenarioLoader.defaults()
      .withValue("name", ConfigValueFactory.fromAnyRef(""))
      .withValue("workload.sizes", ConfigValueFactory.fromIterable(List.of()))
      .withValue("workload.min-size", ConfigValueFactory.fromAnyRef(""))
      .withValue("workload.max-size", ConfigValueFactory.fromAnyRef(""))
      .withValue("traffic.offered-loads", ConfigValueFactory.fromIterable(List.of()))
      .withValue("traffic.hot-spot.nodes", ConfigValueFactory.fromIterable(List.of()))
      .withValue("traffic.hot-spot.fraction", ConfigValueFactory.fromAnyRef(0.0));

  /** Longest key (one element of a key path): the schema's longest is 29 characters; 200 leaves room for typos. */
  static final int MAX_KEY_CHARS = 200;
  /**
   * Longest text value: names, file names and quantities are short; 4096 is the longest file path most systems
   * take, and keeps every message quoting a value to one readable line.
   */
  static final int MAX_TEXT_CHARS = 4096;
  /** Characters of an overlong key or value that a message quotes. */
  private static final int QUOTED_CHARS = 40;

  private KeySchema() {}

  /** Checks every key of the scenario {@code in} reads against the schema. */
  static void check(ScenarioReader in) {
    checkKeys(in, in.merged().root(), SCHEMA.root(), List.of());
  }

  private static void checkKeys(ScenarioReader in, ConfigObject actual, ConfigObject schema, List<String> prefix) {
    // File order: the user's lines (merged objects blend the origins of file and defaults).
    List<String> keys = new ArrayList<>(actual.keySet());
    keys.sort(Comparator.<String>comparingInt(k -> {
      int line = in.lineInUserTree(ConfigUtil.joinPath(append(prefix, k)));
      return line > 0 ? line : Integer.MAX_VALUE;
    }).thenComparing(k -> k));
    for (String key : keys) {
      List<String> pathElements = append(prefix, key);
      ConfigValue value = actual.get(key);
      if (key.length() > MAX_KEY_CHARS) {
        String shown = ConfigUtil.joinPath(append(prefix, key.substring(0, QUOTED_CHARS))) + "...";
        throw in.keyError(ConfigUtil.joinPath(pathElements), shown, "a key of " + key.length() + " characters, above "
            + "the limit of " + MAX_KEY_CHARS);
      }
      String path = ConfigUtil.joinPath(pathElements);
      ConfigValue expected = schema.get(key);
      if (expected == null) {
        throw in.error(path, value, "unknown key" + unknownKeyHint(key, schema, prefix));
      }
      boolean wantsObject = expected.valueType() == ConfigValueType.OBJECT;
      boolean isObject = value.valueType() == ConfigValueType.OBJECT;
      if (wantsObject && !isObject) {
        throw in.error(path, value, "expected an object { ... }, got " + ScenarioReader.describe(value));
      }
      if (!wantsObject && isObject) {
        throw in.error(path, value, "expected a value, got an object");
      }
      if (wantsObject) {
        checkKeys(in, (ConfigObject) value, (ConfigObject) expected, pathElements);
      } else {
        checkText(in, path, value);
      }
    }
  }

  /** Refuses a text longer than {@link #MAX_TEXT_CHARS} in {@code value}, an item of a list or a key of an item. */
  private static void checkText(ScenarioReader in, String path, ConfigValue value) {
    if (value.valueType() == ConfigValueType.STRING) {
      String text = (String) value.unwrapped();
      if (text.length() > MAX_TEXT_CHARS) {
        throw in.error(path, value, "'" + text.substring(0, QUOTED_CHARS) + "...' is a text of " + text.length()
            + " characters, above the limit of " + MAX_TEXT_CHARS);
      }
    } else if (value instanceof ConfigList list) {
      for (int i = 0; i < list.size(); i++) checkText(in, path + "[" + i + "]", list.get(i));
    } else if (value instanceof ConfigObject object) {
      for (String key : object.keySet()) {
        String inner = path + "." + ConfigUtil.joinPath(key.length() > MAX_KEY_CHARS ? key.substring(0, QUOTED_CHARS)
            + "..." : key);
        if (key.length() > MAX_KEY_CHARS) {
          throw in.error(inner, object.get(key), "a key of " + key.length() + " characters, above the limit of "
              + MAX_KEY_CHARS);
        }
        checkText(in, inner, object.get(key));
      }
    }
  }

  private static String unknownKeyHint(String key, ConfigObject schema, List<String> prefix) {
    List<String> siblings = orderedKeys(schema);
    Optional<String> sibling = Suggestions.closest(key, siblings);
    if (sibling.isPresent()) {
      return " (did you mean '" + sibling.get() + "'?)";
    }
    // The right key in the wrong place, e.g. workload.segment-size for devices.nic.segment-size.
    List<String> elsewhere = new ArrayList<>();
    collectPaths(SCHEMA.root(), List.of(), elsewhere);
    elsewhere.sort(null);
    Optional<String> lastElement = Suggestions.closest(key, elsewhere.stream()
        .map(p -> p.substring(p.lastIndexOf('.') + 1)).distinct().toList());
    if (lastElement.isPresent()) {
      String match = elsewhere.stream()
          .filter(p -> p.endsWith("." + lastElement.get()) || p.equals(lastElement.get()))
          .filter(p -> !p.equals(ConfigUtil.joinPath(append(prefix, lastElement.get()))))
          .findFirst().orElse(null);
      if (match != null) return " (did you mean '" + match + "'?)";
    }
    return " (known keys" + (prefix.isEmpty() ? "" : " here") + ": " + String.join(", ", siblings) + ")";
  }

  private static void collectPaths(ConfigObject object, List<String> prefix, List<String> out) {
    for (Map.Entry<String, ConfigValue> e : object.entrySet()) {
      List<String> p = append(prefix, e.getKey());
      out.add(ConfigUtil.joinPath(p));
      if (e.getValue() instanceof ConfigObject child) collectPaths(child, p, out);
    }
  }

  private static List<String> append(List<String> prefix, String key) {
    List<String> p = new ArrayList<>(prefix);
    p.add(key);
    return p;
  }

  /** Keys of a schema object in the order the defaults file lists them (keys without a default last). */
  private static List<String> orderedKeys(ConfigObject schema) {
    return schema.keySet().stream()
        .sorted(Comparator.<String>comparingInt(k -> sortLine(schema.get(k))).thenComparing(k -> k))
        .toList();
  }

  private static int sortLine(ConfigValue v) {
    int line = v.origin().lineNumber();
    return line > 0 ? line : Integer.MAX_VALUE;
  }
}
