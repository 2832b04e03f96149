package io.fabemu.app.sweep;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import com.typesafe.config.ConfigValue;
import com.typesafe.config.ConfigValueFactory;
import io.fabemu.app.SetOverrides;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The points of a sweep: each {@code --vary KEY.PATH=V1,V2,...} parsed and checked, and their cross product in
 * order (the first {@code --vary} changes slowest, the last fastest, like nested loops written in the order given).
 *
 * <p>Values are HOCON values as {@code --set} takes them ({@link SetOverrides#hoconValue}); the list is split at
 * the commas that are outside brackets, braces, parentheses and double quotes, so {@code workload.sizes=[4 B, 1
 * MiB],[64 B]} has two values. Contract: a malformed {@code --vary} (no {@code =}, a bad key, an empty value, a value
 * that is not HOCON, unbalanced brackets or quotes, a value given twice), a key varied twice or inside another varied
 * key, and a sweep of more than {@value #MAX_POINTS} points are an {@link IllegalArgumentException} whose message
 * names the {@code --vary} on one line; nothing is loaded or run here.
 */
public final class SweepPlan {

  /** The most points a sweep may have: a guard against a typo that multiplies into days of runs. */
  static final int MAX_POINTS = 1000;

  /** One value of a {@code --vary}: as typed, and as HOCON. */
  record Value(String text, ConfigValue value) {}

  /** One {@code --vary}: its text as typed, the key path and the values in order. */
  record Variation(String text, String keyPath, List<Value> values) {
    Variation {
      values = List.copyOf(values);
    }
  }

  /** One assignment of a point: a varied key and its value there. */
  record Assignment(String keyPath, Value value) {
    /** {@code KEY=VALUE} as typed. */
    String text() {
      return keyPath + "=" + value.text();
    }
  }

  /**
   * One point of the sweep: its number (from 1) and its assignment of every varied key.
   *
   * @param number      1 to the number of points, in sweep order
   * @param assignments one per {@code --vary}, in the order given
   */
  record Point(int number, List<Assignment> assignments) {
    Point {
      assignments = List.copyOf(assignments);
    }

    /** The assignments as typed, e.g. {@code topology.hosts=8, workload.ppn=2}. */
    String label() {
      return assignments.stream().map(Assignment::text).collect(Collectors.joining(", "));
    }

    /** The assignments as a {@code Config} to lay over the scenario; each value's origin names its {@code --vary}. */
    Config config() {
      Config config = ConfigFactory.empty();
      for (Assignment a : assignments) {
        config = config.withValue(a.keyPath(), ConfigValueFactory.fromAnyRef(a.value().value().unwrapped(),
            "--vary " + a.text()));
      }
      return config;
    }

    /**
     * The point's folder name: its number, zero-padded to {@code digits}, a dash and the assignments joined by commas
     * ({@code 01-topology.hosts=8,workload.ppn=2}); characters other than letters, digits and {@code . _ = + -}
     * become {@code _} (a value may hold spaces, brackets, slashes or quotes), and a name longer than
     * {@value #MAX_FOLDER_CHARS} characters is cut (the number keeps it unique).
     */
    String folderName(int digits) {
      String assigned = assignments.stream().map(a -> a.keyPath() + "=" + a.value().text())
          .map(SweepPlan::safeForFolder).collect(Collectors.joining(","));
      String name = String.format(Locale.ROOT, "%0" + digits + "d-%s", number, assigned);
      return name.length() <= MAX_FOLDER_CHARS ? name : name.substring(0, MAX_FOLDER_CHARS);
    }
  }

  /** The longest point folder name (file systems allow 255 bytes; this leaves room and stays readable). */
  static final int MAX_FOLDER_CHARS = 120;

  private final List<Variation> variations;
  private final List<Point> points;

  private SweepPlan(List<Variation> variations, List<Point> points) {
    this.variations = List.copyOf(variations);
    this.points = List.copyOf(points);
  }

  /** The plan of the {@code --vary} texts, in the order given (at least one). */
  static SweepPlan of(List<String> varyTexts) {
    if (varyTexts.isEmpty()) throw new IllegalArgumentException("--vary: give at least one KEY.PATH=V1,V2,...");
    List<Variation> variations = new ArrayList<>();
    for (String text : varyTexts) {
      Variation v = parse(text);
      for (Variation earlier : variations) {
        if (SetOverrides.concerns(v.keyPath(), earlier.keyPath())) {
          throw new IllegalArgumentException("--vary '" + text + "': " + v.keyPath() + (v.keyPath().equals(
              earlier.keyPath()) ? " is" : " overlaps " + earlier.keyPath() + ", which is") + " already varied by "
              + "--vary '" + earlier.text() + "'");
        }
      }
      variations.add(v);
    }
    long count = 1;
    for (Variation v : variations) {
      count *= v.values().size();
      if (count > MAX_POINTS) {
        throw new IllegalArgumentException("--vary: the sweep has more than " + MAX_POINTS + " points ("
            + variations.stream().map(x -> Integer.toString(x.values().size())).collect(Collectors.joining(" x "))
            + ")");
      }
    }
    return new SweepPlan(variations, crossProduct(variations));
  }

  /** One {@code --vary KEY.PATH=V1,V2,...}. */
  public static Variation parse(String text) {
    int eq = text.indexOf('=');
    if (eq < 0) {
      throw new IllegalArgumentException("--vary '" + text + "': expected KEY.PATH=V1,V2,..., e.g. "
          + "topology.hosts=8,16");
    }
    String key = text.substring(0, eq).strip();
    if (!SetOverrides.isKeyPath(key)) {
      throw new IllegalArgumentException("--vary '" + text + "': '" + key + "' is not a key path such as "
          + "topology.hosts");
    }
    String list = text.substring(eq + 1).strip();
    if (list.isEmpty()) throw new IllegalArgumentException("--vary '" + text + "': no value after '='");
    List<String> items;
    try {
      items = splitTopLevel(list);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("--vary '" + text + "': " + e.getMessage());
    }
    List<Value> values = new ArrayList<>();
    Set<String> seen = new HashSet<>();
    for (int i = 0; i < items.size(); i++) {
      String item = items.get(i).strip();
      if (item.isEmpty()) {
        throw new IllegalArgumentException("--vary '" + text + "': value " + (i + 1) + " is empty");
      }
      if (!seen.add(item)) throw new IllegalArgumentException("--vary '" + text + "': '" + item + "' is given twice");
      try {
        values.add(new Value(item, SetOverrides.hoconValue(item)));
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException("--vary '" + text + "': '" + item + "': " + e.getMessage());
      }
    }
    return new Variation(text, key, values);
  }

  /**
   * {@code list} split at the commas outside brackets, braces, parentheses and double-quoted strings (a backslash
   * escapes the next character inside quotes); unbalanced ones are an {@link IllegalArgumentException}.
   */
  static List<String> splitTopLevel(String list) {
    List<String> items = new ArrayList<>();
    StringBuilder current = new StringBuilder();
    StringBuilder open = new StringBuilder();
    boolean quoted = false;
    for (int i = 0; i < list.length(); i++) {
      char c = list.charAt(i);
      if (quoted) {
        current.append(c);
        if (c == '\\' && i + 1 < list.length()) {
          current.append(list.charAt(++i));
        } else if (c == '"') {
          quoted = false;
        }
        continue;
      }
      switch (c) {
        case '"' -> quoted = true;
        case '[', '{', '(' -> open.append(c);
        case ']', '}', ')' -> {
          char expected = c == ']' ? '[' : c == '}' ? '{' : '(';
          if (open.length() == 0 || open.charAt(open.length() - 1) != expected) {
            throw new IllegalArgumentException("unbalanced '" + c + "'");
          }
          open.setLength(open.length() - 1);
        }
        default -> { }
      }
      if (c == ',' && open.length() == 0) {
        items.add(current.toString());
        current.setLength(0);
      } else {
        current.append(c);
      }
    }
    if (quoted) throw new IllegalArgumentException("a quote is not closed");
    if (open.length() > 0) throw new IllegalArgumentException("'" + open.charAt(open.length() - 1) + "' is not closed");
    items.add(current.toString());
    return items;
  }

  List<Variation> variations() {
    return variations;
  }

  List<Point> points() {
    return points;
  }

  /** The varied key paths, in the order given. */
  List<String> keys() {
    return variations.stream().map(Variation::keyPath).toList();
  }

  /** The digits of the largest point number: the width its folder names pad to. */
  int numberDigits() {
    return Integer.toString(points.size()).length();
  }

  private static List<Point> crossProduct(List<Variation> variations) {
    List<List<Assignment>> combos = new ArrayList<>();
    combos.add(List.of());
    for (Variation v : variations) {
      List<List<Assignment>> next = new ArrayList<>();
      for (List<Assignment> prefix : combos) {
        for (Value value : v.values()) {
          List<Assignment> extended = new ArrayList<>(prefix);
          extended.add(new Assignment(v.keyPath(), value));
          next.add(extended);
        }
      }
      combos = next;
    }
    List<Point> points = new ArrayList<>();
    for (int i = 0; i < combos.size(); i++) points.add(new Point(i + 1, combos.get(i)));
    return points;
  }

  private static String safeForFolder(String text) {
    return text.replaceAll("[^A-Za-z0-9._=+-]", "_");
  }
}
