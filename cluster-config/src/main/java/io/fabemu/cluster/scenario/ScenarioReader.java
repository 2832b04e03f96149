package io.fabemu.cluster.scenario;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigException;
import com.typesafe.config.ConfigList;
import com.typesafe.config.ConfigObject;
import com.typesafe.config.ConfigOrigin;
import com.typesafe.config.ConfigRenderOptions;
import com.typesafe.config.ConfigUtil;
import com.typesafe.config.ConfigValue;
import com.typesafe.config.ConfigValueType;
import io.fabemu.core.topology.LinkSpec;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;

/**
 * Typed values of one scenario, for the sections: whole numbers, booleans, names, durations, rates and sizes with
 * their units ({@link Quantities}) and ranges, and the one-line {@link ScenarioException} that names the file, the
 * line where the user wrote the value, the key path and the reason.
 *
 * <p>Contract: values come from the merged scenario (the user's file over the defaults); a key absent from both is a
 * bug in the defaults, not in the scenario, and fails with an {@link IllegalStateException}. Lines come from the
 * user's tree, so a defaulted value has none. Every reader method throws the {@link ScenarioException} of the first
 * problem it finds and returns a value in range otherwise.
 */
final class ScenarioReader {
  private final String source;
  private final Config user;
  private final Config merged;
  private final Set<String> includedFiles;

  ScenarioReader(String source, Config user, Config merged) {
    this(source, user, merged, Set.of());
  }

  /** A reader whose messages name {@code includedFiles} (as their values' origins describe them) where they apply. */
  ScenarioReader(String source, Config user, Config merged, Set<String> includedFiles) {
    this.source = source;
    this.user = user;
    this.merged = merged;
    this.includedFiles = includedFiles;
  }

  /** The scenario as the user named it. */
  String source() {
    return source;
  }

  /** The merged, resolved scenario: the start of the echo. */
  Config merged() {
    return merged;
  }

  /** True when the merged scenario has {@code path}: only keys without a default can lack one. */
  boolean has(String path) {
    return merged.hasPathOrNull(path);
  }

  ConfigValue value(String path) {
    ConfigValue v = navigate(merged.root(), path);
    if (v == null) {
      throw new IllegalStateException("no default for " + path + " in " + ScenarioLoader.DEFAULTS_RESOURCE);
    }
    return v;
  }

  boolean writtenByUser(String path) {
    try {
      return navigate(user.root(), path) != null;
    } catch (ConfigException e) {
      return false; // an unresolved merge in the user's tree: give it the benefit of the doubt
    }
  }

  private static ConfigValue navigate(ConfigObject root, String path) {
    ConfigValue current = root;
    for (String key : ConfigUtil.splitPath(path)) {
      if (!(current instanceof ConfigObject object)) return null;
      current = object.get(key);
      if (current == null) return null;
    }
    return current;
  }

  long longValue(String path) {
    ConfigValue v = value(path);
    Long n = wholeNumber(path, v);
    if (n == null) throw error(path, v, "expected a whole number, got " + describe(v));
    return n;
  }

  int intValue(String path, int min, int max) {
    return intOf(path, value(path), min, max);
  }

  /** {@link #intValue} of a value that is not at a key of its own, e.g. an item of a list. */
  int intOf(String path, ConfigValue v, int min, int max) {
    Long n = wholeNumber(path, v);
    if (n == null) throw error(path, v, "expected a whole number, got " + describe(v));
    if (n < min) throw error(path, v, "must be at least " + min + ", got " + n);
    if (n > max) throw error(path, v, n + " is above the limit of " + max);
    return n.intValue();
  }

  /** The whole number at {@code path}, in {@code [min, max]}: {@link #intValue} for counts beyond an {@code int}. */
  long longValue(String path, long min, long max) {
    ConfigValue v = value(path);
    Long n = wholeNumber(path, v);
    if (n == null) throw error(path, v, "expected a whole number, got " + describe(v));
    if (n < min) throw error(path, v, "must be at least " + min + ", got " + n);
    if (n > max) throw error(path, v, n + " is above the limit of " + max);
    return n;
  }

  /** The decimal number at {@code path} (see {@link #doubleOf}). */
  double doubleValue(String path) {
    return doubleOf(path, value(path));
  }

  /**
   * A decimal number such as a load or a fraction: a HOCON number, or a string holding a plain decimal number
   * ({@code "0.25"}, {@code "1e-3"}); never NaN. Ranges are the caller's, which quotes the value as written.
   */
  double doubleOf(String path, ConfigValue v) {
    Object raw = v.unwrapped();
    if (raw instanceof Number n) return n.doubleValue();
    if (raw instanceof String s) {
      asciiDigits(path, v);
      try {
        // BigDecimal, not Double.parseDouble: it refuses NaN, Infinity and hexadecimal forms.
        return new BigDecimal(s.strip()).doubleValue();
      } catch (NumberFormatException e) {
        // not a number: refused below
      }
    }
    throw error(path, v, "expected a number, got " + describe(v));
  }

  /** The whole number {@code v} holds, or null; a text with non-ASCII digits is refused at {@code path}. */
  private Long wholeNumber(String path, ConfigValue v) {
    Object raw = v.unwrapped();
    if (raw instanceof Integer || raw instanceof Long) return ((Number) raw).longValue();
    if (raw instanceof String s) {
      asciiDigits(path, v);
      try {
        return Long.parseLong(s.strip());
      } catch (NumberFormatException e) {
        return null;
      }
    }
    return null;
  }

  boolean boolValue(String path) {
    ConfigValue v = value(path);
    Object raw = v.unwrapped();
    if (raw instanceof Boolean b) return b;
    if (raw instanceof String s) {
      switch (s.strip()) {
        case "true", "yes", "on" -> {
          return true;
        }
        case "false", "no", "off" -> {
          return false;
        }
        default -> { }
      }
    }
    throw error(path, v, "expected true or false, got " + describe(v));
  }

  /** The name at {@code path}, parsed by {@code parser} (null for an unknown name); {@code names} for messages. */
  <E> E enumValue(String path, Function<String, E> parser, List<String> names) {
    return enumOf(path, value(path), parser, names);
  }

  /** {@link #enumValue} of a value that is not at a key of its own, e.g. an item of a list. */
  <E> E enumOf(String path, ConfigValue v, Function<String, E> parser, List<String> names) {
    if (v.valueType() != ConfigValueType.STRING) {
      throw error(path, v, "expected one of " + String.join(", ", names) + ", got " + describe(v));
    }
    String s = ((String) v.unwrapped()).strip();
    E e = parser.apply(s);
    if (e == null) {
      String hint = Suggestions.closest(s, names).map(n -> " (did you mean '" + n + "'?)").orElse("");
      throw error(path, v, "'" + s + "' is not one of " + String.join(", ", names) + hint);
    }
    return e;
  }

  /** The list at {@code path}; {@code example} (e.g. {@code [8, 8]}) ends the message refusing anything else. */
  ConfigList list(String path, String example) {
    ConfigValue v = value(path);
    if (!(v instanceof ConfigList list)) {
      throw error(path, v, "expected a list such as " + example + ", got " + describe(v));
    }
    return list;
  }

  /** A list of names (trimmed). */
  List<String> stringList(String path) {
    ConfigValue v = value(path);
    if (!(v instanceof ConfigList list)) throw error(path, v, "expected a list, got " + describe(v));
    List<String> out = new ArrayList<>();
    for (int i = 0; i < list.size(); i++) {
      ConfigValue item = list.get(i);
      if (item.valueType() != ConfigValueType.STRING) {
        throw error(path + "[" + i + "]", item, "expected a name, got " + describe(item));
      }
      out.add(((String) item.unwrapped()).strip());
    }
    return out;
  }

  /** A duration in picoseconds, at most {@link ScenarioLoader#MAX_DURATION_PS}. */
  long durationPs(String path, boolean positive) {
    return durationOf(path, value(path), positive);
  }

  /** {@link #durationPs} of a value that is not at a key of its own, e.g. a key of an item of a list. */
  long durationOf(String path, ConfigValue v, boolean positive) {
    long ps = quantity(path, v, Quantities::parseDurationPs);
    if (positive && ps == 0) throw error(path, v, "must be greater than 0");
    if (ps > ScenarioLoader.MAX_DURATION_PS) {
      throw error(path, v, "'" + text(v) + "' is above the limit of 1 s (every duration is at most 1 s)");
    }
    return ps;
  }

  /** A rate in bits per second, at most {@link ScenarioLoader#MAX_RATE_BITS_PER_SECOND}. */
  long rateBitsPerSecond(String path, boolean positive) {
    return rateOf(path, value(path), positive);
  }

  /** {@link #rateBitsPerSecond} of a value that is not at a key of its own, e.g. a key of an item of a list. */
  long rateOf(String path, ConfigValue v, boolean positive) {
    long bps = quantity(path, v, Quantities::parseBandwidthBitsPerSecond);
    if (positive && bps == 0) throw error(path, v, "must be greater than 0");
    if (bps > ScenarioLoader.MAX_RATE_BITS_PER_SECOND) {
      throw error(path, v, "'" + text(v) + "' is above the limit of 10 Tbps");
    }
    return bps;
  }

  /**
   * A rate of moving or reducing bytes (0 means free), in bits per second; written like any bandwidth, e.g.
   * {@code 10 GBps}, and a whole number of bytes per second.
   */
  long byteRateBitsPerSecond(String path) {
    ConfigValue v = value(path);
    long bps = quantity(path, v, Quantities::parseBandwidthBitsPerSecond);
    if (bps > ScenarioLoader.MAX_RATE_BITS_PER_SECOND) {
      throw error(path, v, "'" + text(v) + "' is above the limit of 10 Tbps (1.25 TBps)");
    }
    if (bps % 8 != 0) throw error(path, v, "'" + text(v) + "' is not a whole number of bytes per second");
    return bps;
  }

  /** A clock frequency ({@code 1 GHz}) as its cycle in picoseconds (see {@link Quantities#parseClockCyclePs}). */
  long clockCyclePs(String path) {
    ConfigValue v = value(path);
    long cyclePs = quantity(path, v, Quantities::parseClockCyclePs);
    if (cyclePs > ScenarioLoader.MAX_DURATION_PS) {
      throw error(path, v, "'" + text(v) + "' is too slow: its cycle is above the limit of 1 s (every duration is at "
          + "most 1 s)");
    }
    return cyclePs;
  }

  /**
   * The first key under the object at {@code path} the user wrote, in file order, as a full path; empty when the user
   * wrote none (or wrote an empty object there).
   */
  Optional<String> firstWrittenUnder(String path) {
    ConfigValue v;
    try {
      v = navigate(user.root(), path);
    } catch (ConfigException e) {
      return Optional.empty(); // an unresolved merge in the user's tree: give it the benefit of the doubt
    }
    if (!(v instanceof ConfigObject object)) return Optional.empty();
    return object.keySet().stream()
        .min(Comparator.<String>comparingInt(k -> object.get(k).origin().lineNumber()).thenComparing(k -> k))
        .map(k -> {
          List<String> elements = new ArrayList<>(ConfigUtil.splitPath(path));
          elements.add(k);
          return ConfigUtil.joinPath(elements);
        });
  }

  /** A cable: {@code path.bandwidth} and {@code path.latency}, both positive. */
  LinkSpec link(String path) {
    long bandwidth = rateBitsPerSecond(path + ".bandwidth", true);
    long latency = durationPs(path + ".latency", true);
    return new LinkSpec(bandwidth, latency);
  }

  /** Refuses a text value holding a digit other than ASCII 0-9, which Java's parsers (not HOCON's) read as one. */
  private void asciiDigits(String path, ConfigValue v) {
    if (v.valueType() != ConfigValueType.STRING) return;
    try {
      Quantities.requireAsciiDigits(text(v));
    } catch (IllegalArgumentException e) {
      throw error(path, v, e.getMessage());
    }
  }

  private long quantity(String path, ConfigValue v, Function<String, Long> parser) {
    if (v.valueType() != ConfigValueType.STRING && v.valueType() != ConfigValueType.NUMBER) {
      throw error(path, v, "expected a quantity with a unit, got " + describe(v));
    }
    try {
      return parser.apply(text(v));
    } catch (IllegalArgumentException e) {
      throw error(path, v, e.getMessage());
    }
  }

  /** The byte size at {@code path}, in {@code [min, max]}. */
  long sizeBytes(String path, long min, long max) {
    return sizeBytes(path, value(path), min, max);
  }

  /** A byte size in {@code [min, max]}; {@code path} names {@code v} in messages. */
  long sizeBytes(String path, ConfigValue v, long min, long max) {
    if (v.valueType() != ConfigValueType.STRING && v.valueType() != ConfigValueType.NUMBER) {
      throw error(path, v, "expected a byte size such as '4 KiB', got " + describe(v));
    }
    long bytes;
    try {
      bytes = Quantities.parseSizeBytes(text(v));
    } catch (IllegalArgumentException e) {
      throw error(path, v, e.getMessage());
    }
    if (bytes < min) throw error(path, v, "'" + text(v) + "' is less than " + Quantities.formatBytes(min));
    if (bytes > max) {
      throw error(path, v, "'" + text(v) + "' is above the limit of " + Quantities.formatBytes(max));
    }
    return bytes;
  }

  /** The value as the user wrote it, trimmed, for quoting in messages. */
  static String text(ConfigValue v) {
    return String.valueOf(v.unwrapped()).strip();
  }

  /** The value's kind or text, for messages: {@code an object}, {@code 'many'}, {@code 2.5}. */
  static String describe(ConfigValue v) {
    return switch (v.valueType()) {
      case OBJECT -> "an object";
      case LIST -> "a list";
      case NULL -> "null";
      case STRING -> "'" + v.unwrapped() + "'";
      default -> v.render(ConfigRenderOptions.concise());
    };
  }

  /** An error about a value: its line when the user wrote it. */
  ScenarioException error(String path, ConfigValue v, String reason) {
    return at(lineOrigin(v, path), path, reason);
  }

  /**
   * An error about an item of a list as a whole (an object such as a fault event): the line where the item starts.
   * Unlike a keyed object's, an item's origin is its own, since lists replace rather than merge.
   */
  ScenarioException itemError(String path, ConfigValue item, String reason) {
    ConfigOrigin origin = item.origin();
    return at(origin.resource() != null ? null : origin, path, reason);
  }

  /** An error about a key, perhaps defaulted: its line when the user wrote it. */
  ScenarioException error(String path, String reason) {
    ConfigValue v = navigate(merged.root(), path);
    return at(v == null ? userOrigin(path) : lineOrigin(v, path), path, reason);
  }

  /** An error about the key the user wrote at {@code path}, named {@code shownPath} in the message. */
  ScenarioException keyError(String path, String shownPath, String reason) {
    return at(userOrigin(path), shownPath, reason);
  }

  /** The origin whose line a message about {@code v} gives, or null when the user did not write it. */
  private ConfigOrigin lineOrigin(ConfigValue v, String path) {
    ConfigOrigin origin = v.origin();
    if (origin.resource() != null) return null; // from the defaults
    if (v.valueType() == ConfigValueType.OBJECT) return userOrigin(path); // merged objects blend origins
    // A value from a substitution of an environment variable (${HOME}) has no line of its own: the line is where
    // the user wrote the key.
    if (origin.lineNumber() <= 0) return userOrigin(path);
    return origin;
  }

  /**
   * The exception naming the file and line of {@code origin}: the scenario, or the file it included that holds the
   * value (its line counts in that file, not in the scenario).
   */
  private ScenarioException at(ConfigOrigin origin, String path, String reason) {
    if (origin == null || origin.lineNumber() <= 0) return new ScenarioException(source, 0, path, reason);
    String file = origin.description().replaceFirst(": \\d+(-\\d+)?$", "");
    return new ScenarioException(includedFiles.contains(file) ? file : source, origin.lineNumber(), path, reason);
  }

  /** The line where the user wrote {@code path} (a list item: the list), or 0 when the user did not. */
  int lineInUserTree(String path) {
    ConfigOrigin origin = userOrigin(path);
    return origin == null ? 0 : origin.lineNumber();
  }

  private ConfigOrigin userOrigin(String path) {
    try {
      ConfigValue v = navigate(user.root(), path.replaceAll("\\[\\d+]$", ""));
      return v == null ? null : v.origin();
    } catch (ConfigException e) {
      return null;
    }
  }
}
