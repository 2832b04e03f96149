package io.fabemu.cluster.scenario;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigException;
import com.typesafe.config.ConfigList;
import com.typesafe.config.ConfigObject;
import com.typesafe.config.ConfigOrigin;
import com.typesafe.config.ConfigRenderOptions;
import com.typesafe.config.ConfigUtil;
import com.typesafe.config.ConfigValue;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The check that keeps substitutions ({@code ${path}}) from expanding a scenario beyond a bound, run on the parsed,
 * unresolved tree before the HOCON library resolves it: {@code a1 = ${a0}${a0}}, {@code a2 = ${a1}${a1}}, ... 30
 * levels deep made the library build strings of gigabytes (out of memory, or a hang) before any key was checked.
 *
 * <p>Contract: an upper bound of each value's resolved size, in characters as rendered, is its literal text plus the
 * bounds of the paths it refers to (memoised, so the check is linear in the tree); a path outside the tree is an
 * environment variable, bounded by the variables of that name and below it. A self-reference (a value that refers to
 * its own key, as {@code +=} does) is bounded by the values it overrides. When the characters that substitutions add
 * exceed {@link #MAX_EXPANSION_CHARS}, for one value or over the whole tree, when a value refers back to itself
 * through other keys or to a value that holds it (a cycle, which resolution would refuse or drop), when substitutions
 * chain more than {@link #MAX_CHAIN} deep, or when a value that still merges with a substitution refers inside itself
 * (which this bound cannot follow), the first such value (in line order) is refused with a {@link ScenarioException}
 * naming its file, line and key. Apart from those last two, rare in a scenario, nothing that resolves within the
 * bound is refused, so what a valid scenario means does not change.
 */
final class SubstitutionBound {

  /**
   * Most characters that substitutions may add to a scenario, for one value and in all: the size limit of a scenario
   * file (4 Mi), far above what real scenarios (an environment variable or two) add.
   */
  static final long MAX_EXPANSION_CHARS = ScenarioSource.MAX_FILE_BYTES;

  /**
   * Most substitutions in a chain ({@code a2 = ${a1}}, {@code a1 = ${a0}}, ...): the HOCON library resolves a chain
   * recursively, and 20,000 links overflowed its stack (as they would this check's); real scenarios chain two or three.
   */
  static final int MAX_CHAIN = 64;

  private static final ConfigRenderOptions CONCISE = ConfigRenderOptions.concise();

  private final ConfigObject root;
  private final ConfigObject fallback;
  private final String source;
  private final Set<String> includedFiles;
  /** Bounds of the nodes already measured, by key (a path, with the index of each list it lies in). */
  private final Map<String, Bound> bounds = new HashMap<>();
  /** The nodes being measured: reaching one again is a cycle. */
  private final Set<String> measuring = new HashSet<>();
  private final Map<String, Long> environmentBounds = new HashMap<>();
  private final Map<String, Long> fallbackBounds = new HashMap<>();

  private SubstitutionBound(ConfigObject root, ConfigObject fallback, String source, Set<String> includedFiles) {
    this.root = root;
    this.fallback = fallback;
    this.source = source;
    this.includedFiles = includedFiles;
  }

  /**
   * Checks the unresolved {@code config}, read from {@code source} and the {@code includedFiles} (as their values'
   * origins describe them), against the bound, as it will be resolved: over {@code fallback} (resolved, e.g. the
   * defaults). The fallback is kept apart so that each value keeps the origin, and so the line, the user wrote.
   *
   * @throws ScenarioException naming the first value whose substitutions expand beyond the bound or form a cycle
   */
  static void check(Config config, Config fallback, String source, Set<String> includedFiles) {
    new SubstitutionBound(config.root(), fallback.root(), source, includedFiles).checkAll();
  }

  /** A value holding substitutions: its path (a list item's is its list's, plus the index) and its node. */
  private record Leaf(List<String> path, String key, ConfigValue value) {}

  private void checkAll() {
    List<Leaf> leaves = new ArrayList<>();
    collect(root, List.of(), "", leaves);
    leaves.sort(Comparator.<Leaf>comparingInt(l -> l.value().origin().lineNumber()).thenComparing(Leaf::key));
    long total = 0;
    for (Leaf leaf : leaves) {
      // Measured as a reference may already have measured it; measuring it again costs its own text only.
      measuring.add(leaf.key());
      Measure measure = measureLeaf(leaf);
      measuring.remove(leaf.key());
      checkChain(measure.depth(), leaf);
      bounds.put(leaf.key(), new Bound(measure.chars(), measure.depth()));
      long added = measure.added();
      total = add(total, added);
      if (added > MAX_EXPANSION_CHARS) {
        throw refusal(leaf, "its substitutions expand to more than " + MAX_EXPANSION_CHARS + " characters (the "
            + "limit of a scenario file)");
      }
      if (total > MAX_EXPANSION_CHARS) {
        throw refusal(leaf, "with it, the substitutions of the scenario expand to more than " + MAX_EXPANSION_CHARS
            + " characters in all (the limit of a scenario file)");
      }
    }
  }

  /** The values of {@code node} that hold substitutions, in tree order. */
  private static void collect(ConfigValue node, List<String> path, String key, List<Leaf> leaves) {
    if (!isResolvedStructure(node)) {
      leaves.add(new Leaf(path, key, node));
    } else if (node instanceof ConfigObject object) {
      for (String k : object.keySet()) collect(object.get(k), append(path, k), childKey(key, k), leaves);
    } else if (node instanceof ConfigList list) {
      for (int i = 0; i < list.size(); i++) collect(list.get(i), path, key + "[" + i + "]", leaves);
    }
  }

  /**
   * True when {@code node} is resolved, or an object or list whose own structure is (its items may not be); false
   * for a substitution, a concatenation holding one or a merge waiting on one.
   */
  private static boolean isResolvedStructure(ConfigValue node) {
    try {
      node.valueType();
      if (node instanceof ConfigObject object) object.keySet();
      return true;
    } catch (ConfigException.NotResolved e) {
      return false;
    }
  }

  /**
   * A value's bound, the part of it its substitutions add (beyond its own literal characters) and the longest chain
   * of substitutions below it.
   */
  private record Measure(long chars, long added, int depth) {}

  /** A node's bound and the longest chain of substitutions below it (0 for a value that holds none). */
  private record Bound(long chars, int depth) {}

  /** The bound of the node at {@code key} (a path, or a list item), measured once. */
  private Bound bound(ConfigValue node, List<String> path, String key, Leaf referrer, String reference) {
    Bound known = bounds.get(key);
    if (known != null) return known;
    if (!measuring.add(key)) {
      throw refusal(referrer, "its substitution " + reference + " refers back to it (a cycle of substitutions)");
    }
    // The keys being measured are the chain followed so far, and the objects it descends into (at most 64 deep).
    if (measuring.size() > 2 * MAX_CHAIN) checkChain(Integer.MAX_VALUE, referrer);
    long chars;
    int depth = 0;
    if (!isResolvedStructure(node)) {
      Measure measure = measureLeaf(new Leaf(path, key, node));
      chars = measure.chars();
      depth = measure.depth();
      checkChain(depth, referrer);
    } else if (node instanceof ConfigObject object) {
      chars = 2;
      for (String k : object.keySet()) {
        String childKey = childKey(key, k);
        Bound child = bound(object.get(k), append(path, k), childKey, referrer, reference);
        chars = add(chars, add(childKey.length() + 2L, child.chars()));
        depth = Math.max(depth, child.depth());
      }
    } else if (node instanceof ConfigList list) {
      chars = 2;
      for (int i = 0; i < list.size(); i++) {
        Bound item = bound(list.get(i), path, key + "[" + i + "]", referrer, reference);
        chars = add(chars, add(1, item.chars()));
        depth = Math.max(depth, item.depth());
      }
    } else {
      chars = node.render(CONCISE).length();
    }
    measuring.remove(key);
    Bound measured = new Bound(chars, depth);
    bounds.put(key, measured);
    return measured;
  }

  /** Refuses {@code leaf} when the chain of substitutions below it is longer than {@link #MAX_CHAIN}. */
  private void checkChain(int depth, Leaf leaf) {
    if (depth > MAX_CHAIN) {
      throw refusal(leaf, "its substitutions chain more than " + MAX_CHAIN + " deep (a substitution of a "
          + "substitution of ...)");
    }
  }

  /**
   * The bound of a value holding substitutions, from its concise rendering: its literal characters plus the bound of
   * each {@code ${path}}. A merge renders as its values separated by top-level commas, lowest priority first; a
   * self-reference in one of them sees only the values before it. A value merges with those before it (an object
   * may) unless it is sure to replace them: it has a list, text or a number at its top level, or the whole
   * self-reference {@code ${path}} (which it holds, so merging adds nothing), as {@code +=} gives.
   */
  private Measure measureLeaf(Leaf leaf) {
    String text = leaf.value().render(CONCISE);
    long before = 0; // the values of a merge before the current one, merged
    long current = 0;
    boolean replaces = false;
    long literal = 0;
    int depth = 0;
    int chain = 0;
    int i = 0;
    while (i < text.length()) {
      char c = text.charAt(i);
      if (c == '"') {
        int end = skipQuoted(text, i);
        current = add(current, end - i);
        literal += end - i;
        replaces |= depth == 0;
        i = end;
      } else if (c == '$' && i + 1 < text.length() && text.charAt(i + 1) == '{') {
        int start = i + 2 + (i + 2 < text.length() && text.charAt(i + 2) == '?' ? 1 : 0);
        int end = start;
        while (end < text.length() && text.charAt(end) != '}') {
          end = text.charAt(end) == '"' ? skipQuoted(text, end) : end + 1;
        }
        String reference = text.substring(i, Math.min(end + 1, text.length()));
        List<String> path = ConfigUtil.splitPath(text.substring(start, end));
        Bound referred = reference(leaf, path, reference, before);
        current = add(current, referred.chars());
        chain = Math.max(chain, referred.depth() + 1);
        replaces |= depth == 0 && path.equals(leaf.path());
        i = end + 1;
      } else if (c == ',' && depth == 0) {
        before = replaces ? current : add(before, current);
        current = 0;
        replaces = false;
        literal++;
        i++;
      } else {
        replaces |= depth == 0 && c != '{';
        if (c == '{' || c == '[') depth++;
        if (c == '}' || c == ']') depth--;
        current = add(current, 1);
        literal++;
        i++;
      }
    }
    long chars = replaces ? current : add(before, current);
    return new Measure(chars, Math.max(0, chars - literal), chain);
  }

  /**
   * The bound of what {@code ${path}} in {@code leaf} resolves to; {@code before}: what a self-reference sees. The
   * fallback's value at {@code path} is added, since it merges with the one found here.
   */
  private Bound reference(Leaf leaf, List<String> path, String reference, long before) {
    Bound own = ownReference(leaf, path, reference, before);
    return new Bound(add(fallbackBound(path), own.chars()), own.depth());
  }

  private Bound ownReference(Leaf leaf, List<String> path, String reference, long before) {
    if (startsWith(path, leaf.path())) {
      if (path.size() > leaf.path().size()) {
        // Not a self-reference: it reads the final value below this one, which is still a merge with another
        // substitution, whose parts this check cannot follow (30 doubling values inside such a merge built gigabytes).
        throw refusal(leaf, "its substitution " + reference + " refers inside this value, which merges with "
            + "another substitution; fabemu cannot bound what that resolves to (write the value without the merge)");
      }
      return new Bound(add(before, environmentBound(path)), 0);
    }
    if (startsWith(leaf.path(), path)) {
      throw refusal(leaf, "its substitution " + reference + " refers to a value that holds it (a cycle of "
          + "substitutions)");
    }
    ConfigValue node = root;
    List<String> at = new ArrayList<>();
    for (String element : path) {
      if (!isResolvedStructure(node)) break; // the path lies inside a value still to resolve: it bounds the path
      if (!(node instanceof ConfigObject object) || object.get(element) == null) {
        return new Bound(environmentBound(path), 0);
      }
      node = object.get(element);
      at.add(element);
    }
    return bound(node, at, ConfigUtil.joinPath(at), leaf, reference);
  }

  /** The size of the fallback's value at {@code path} (resolved), or 0 when it has none. */
  private long fallbackBound(List<String> path) {
    return fallbackBounds.computeIfAbsent(ConfigUtil.joinPath(path), k -> {
      ConfigValue node = fallback;
      for (String element : path) {
        if (!(node instanceof ConfigObject object) || object.get(element) == null) return 0L;
        node = object.get(element);
      }
      return (long) node.render(CONCISE).length();
    });
  }

  /**
   * A bound of what the environment gives for {@code path}: the variables of that name, or below it (an object of
   * them), each with its name and quotes.
   */
  private long environmentBound(List<String> path) {
    String name = String.join(".", path);
    return environmentBounds.computeIfAbsent(name, n -> {
      long chars = 0;
      for (Map.Entry<String, String> e : System.getenv().entrySet()) {
        if (e.getKey().equals(n) || e.getKey().startsWith(n + ".")) {
          chars = add(chars, e.getKey().length() + e.getValue().length() + 6L);
        }
      }
      return chars;
    });
  }

  private ScenarioException refusal(Leaf leaf, String reason) {
    ConfigOrigin origin = leaf.value().origin();
    int line = origin.lineNumber();
    String file = origin.description().replaceFirst(": \\d+(-\\d+)?$", "");
    return new ScenarioException(includedFiles.contains(file) ? file : source, line, leaf.key(), reason);
  }

  /** The index just past the quoted string (JSON escapes) starting at {@code quote}. */
  private static int skipQuoted(String text, int quote) {
    int i = quote + 1;
    while (i < text.length() && text.charAt(i) != '"') i += text.charAt(i) == '\\' ? 2 : 1;
    return Math.min(i + 1, text.length());
  }

  private static boolean startsWith(List<String> path, List<String> prefix) {
    return !prefix.isEmpty() && path.size() >= prefix.size() && path.subList(0, prefix.size()).equals(prefix);
  }

  /**
   * The key of the child {@code k} of the node at {@code key}: its path, with the index of each list it lies in (a
   * path alone would give two items' children the same key).
   */
  private static String childKey(String key, String k) {
    String element = ConfigUtil.joinPath(List.of(k));
    return key.isEmpty() ? element : key + "." + element;
  }

  private static List<String> append(List<String> path, String element) {
    List<String> out = new ArrayList<>(path);
    out.add(element);
    return out;
  }

  /** {@code a + b} for bounds (never negative), saturating rather than overflowing. */
  private static long add(long a, long b) {
    long sum = a + b;
    return sum < 0 ? Long.MAX_VALUE : sum;
  }
}
