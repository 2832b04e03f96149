package io.fabemu.cluster.scenario;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigException;
import com.typesafe.config.ConfigFactory;
import com.typesafe.config.ConfigIncludeContext;
import com.typesafe.config.ConfigIncluder;
import com.typesafe.config.ConfigIncluderClasspath;
import com.typesafe.config.ConfigIncluderFile;
import com.typesafe.config.ConfigIncluderURL;
import com.typesafe.config.ConfigObject;
import com.typesafe.config.ConfigParseOptions;
import com.typesafe.config.ConfigSyntax;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.net.URL;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The text of a scenario (or of a file it includes), read and parsed so that no input can hang, exhaust the stack or
 * be silently dropped: the one way scenario text reaches the HOCON parser.
 *
 * <p>Contract: a source is a regular file (checked before opening, since opening a FIFO blocks) of at most
 * {@link #MAX_FILE_BYTES}, of which at most one byte more is ever read (so {@code /dev/zero} cannot hang); it is
 * UTF-8 (a UTF-8 byte-order mark is skipped; UTF-16, invalid UTF-8 and NUL bytes are refused), and CR LF and lone CR
 * line ends are read as LF so that line numbers stay right. Before the HOCON parser (which recurses once per level)
 * sees the text, it is scanned, honouring quoted and triple-quoted strings and comments: brackets and dotted key paths
 * nested deeper than {@link #MAX_NESTING} levels in all (an included file counts from where it is included) and a
 * bracket never closed are refused. {@code include "NAME"} and {@code include required("NAME")} read NAME relative to
 * the including file under the same rules, at most {@link #MAX_INCLUDE_DEPTH} files deep and never in a cycle; a
 * missing file is an error either way; {@code file(...)}, {@code url(...)} and {@code classpath(...)} are refused, so
 * a scenario never reads device files or the network. Every refusal is a {@link ScenarioException} naming the file
 * and, where it has one, the line.
 *
 * <p>Past 500 lines: every file a scenario reads (the scenario, its includes, a cost file, a {@code --set} text)
 * passes the same checks in this one reader, so no kind of file can skip one.
 */
final class ScenarioSource {

  /**
   * Largest scenario file, 4 MiB: the largest example is a few KiB, and a limit keeps a device file or a runaway
   * generator from being read into memory.
   */
  static final long MAX_FILE_BYTES = 4L << 20;
  /**
   * Deepest nesting of objects, lists and dotted key paths: the HOCON parser, merger and resolver recurse once per
   * level, and a few thousand levels overflow the stack; the schema itself is 4 levels deep.
   */
  static final int MAX_NESTING = 64;
  /** Most files in a chain of includes (the scenario itself counted): real scenarios include one profile. */
  static final int MAX_INCLUDE_DEPTH = 8;

  private static final byte[] UTF8_BOM = {(byte) 0xEF, (byte) 0xBB, (byte) 0xBF};

  private ScenarioSource() {}

  /**
   * Reads and parses the scenario {@code file}, named {@code source} in messages, resolving its includes.
   *
   * @throws ScenarioException when the file or a file it includes cannot be read, is not valid, or breaks a limit
   */
  static Parsed parseFile(Path file, String source) {
    return parseFile(file, source, "scenario file");
  }

  /** {@link #parseFile(Path, String)} of a file that messages call {@code noun} (e.g. {@code cost file}). */
  static Parsed parseFile(Path file, String source, String noun) {
    String text = readText(file, source, noun);
    Set<String> included = new LinkedHashSet<>();
    Config config = parseText(text, source, file.toAbsolutePath().getParent(), 0,
        List.of(file.toAbsolutePath().normalize()), included);
    return new Parsed(config, Set.copyOf(included));
  }

  /**
   * Parses {@code text} (already in memory), named {@code source}; its includes are read relative to the folder of
   * {@code source} when it is a path, else the working folder.
   *
   * @throws ScenarioException when the text or a file it includes is not valid or breaks a limit
   */
  static Parsed parseString(String text, String source) {
    Path folder;
    try {
      folder = Path.of(source).toAbsolutePath().getParent();
    } catch (InvalidPathException e) {
      folder = null;
    }
    Set<String> included = new LinkedHashSet<>();
    Config config = parseText(normalize(text, source), source, folder, 0, List.of(), included);
    return new Parsed(config, Set.copyOf(included));
  }

  /**
   * A parsed scenario and the files it included, as messages name them (the origin description of every value read
   * from one of them).
   */
  record Parsed(Config config, Set<String> includedFiles) {}

  /** The text of {@code file}, a {@code noun}: a regular file, bounded, UTF-8, with LF line ends. */
  static String readText(Path file, String source, String noun) {
    if (!Files.exists(file)) throw new ScenarioException(source, 0, null, "no such file");
    if (Files.isDirectory(file)) throw new ScenarioException(source, 0, null, "is a directory, not a " + noun);
    // Before opening: opening a FIFO blocks until a writer comes, and a device file may never end.
    if (!Files.isRegularFile(file)) {
      throw new ScenarioException(source, 0, null, "is not a regular file (a device, FIFO or socket); a " + noun
          + " is a text file");
    }
    if (!Files.isReadable(file)) throw new ScenarioException(source, 0, null, "cannot be read (permission denied)");
    byte[] bytes;
    try (InputStream in = Files.newInputStream(file)) {
      bytes = in.readNBytes((int) MAX_FILE_BYTES + 1);
    } catch (IOException e) {
      throw new ScenarioException(source, 0, null, "cannot be read (" + e.getMessage() + ")");
    }
    if (bytes.length > MAX_FILE_BYTES) {
      throw new ScenarioException(source, 0, null, "is larger than the limit of " + Quantities.formatBytes(
          MAX_FILE_BYTES) + " for a " + noun);
    }
    return normalize(decode(bytes, source), source);
  }

  /** Strict UTF-8: a byte that is not UTF-8 is an error naming its line, never a silent replacement character. */
  private static String decode(byte[] bytes, String source) {
    if (bytes.length >= 2 && ((bytes[0] == (byte) 0xFE && bytes[1] == (byte) 0xFF)
        || (bytes[0] == (byte) 0xFF && bytes[1] == (byte) 0xFE))) {
      throw new ScenarioException(source, 0, null, "is UTF-16 text (it starts with a UTF-16 byte-order mark); save "
          + "it as UTF-8");
    }
    int start = bytes.length >= 3 && bytes[0] == UTF8_BOM[0] && bytes[1] == UTF8_BOM[1] && bytes[2] == UTF8_BOM[2]
        ? 3 : 0;
    try {
      return StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
          .onUnmappableCharacter(CodingErrorAction.REPORT)
          .decode(ByteBuffer.wrap(bytes, start, bytes.length - start)).toString();
    } catch (CharacterCodingException e) {
      int valid = validUtf8Prefix(bytes, start);
      throw new ScenarioException(source, lineAt(bytes, valid), null, "is not UTF-8 text (byte 0x"
          + String.format("%02X", bytes[valid] & 0xFF) + " at offset " + valid + " starts no UTF-8 character); "
          + "save it as UTF-8");
    }
  }

  /** The offset of the first byte that does not start a complete UTF-8 character. */
  private static int validUtf8Prefix(byte[] bytes, int start) {
    int i = start;
    while (i < bytes.length) {
      int b = bytes[i] & 0xFF;
      int length = b < 0x80 ? 1 : b >= 0xC2 && b < 0xE0 ? 2 : b >= 0xE0 && b < 0xF0 ? 3 : b >= 0xF0 && b < 0xF5 ? 4
          : 0;
      if (length == 0 || i + length > bytes.length) return i;
      try {
        StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
            .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(bytes, i, length));
      } catch (CharacterCodingException e) {
        return i;
      }
      i += length;
    }
    return Math.max(start, bytes.length - 1);
  }

  private static int lineAt(byte[] bytes, int offset) {
    int line = 1;
    for (int i = 0; i < offset; i++) {
      // A lone CR ends a line too (see normalize).
      if (bytes[i] == '\n' || (bytes[i] == '\r' && (i + 1 >= bytes.length || bytes[i + 1] != '\n'))) line++;
    }
    return line;
  }

  /** LF line ends (CR LF and lone CR as LF: the HOCON parser counts LF only); no BOM; no NUL character. */
  static String normalize(String text, String source) {
    String s = text.startsWith("\uFEFF") ? text.substring(1) : text;
    s = s.replace("\r\n", "\n").replace('\r', '\n');
    int nul = s.indexOf('\0');
    if (nul >= 0) {
      throw new ScenarioException(source, lineOf(s, nul), null, "holds a NUL character: a scenario is UTF-8 text "
          + "(a UTF-16 file must be saved as UTF-8)");
    }
    return s;
  }

  private static int lineOf(String text, int index) {
    int line = 1;
    for (int i = 0; i < index; i++) {
      if (text.charAt(i) == '\n') line++;
    }
    return line;
  }

  private static Config parseText(String text, String source, Path folder, int baseDepth, List<Path> chain,
                                  Set<String> included) {
    Scan scan = scan(text, source, baseDepth);
    ConfigParseOptions options = ConfigParseOptions.defaults().setSyntax(ConfigSyntax.CONF)
        .setOriginDescription(source).setAllowMissing(false)
        .setIncluder(new Includer(source, folder, scan.includes(), chain, included));
    try {
      return ConfigFactory.parseString(text, options);
    } catch (ConfigException e) {
      throw ScenarioLoader.fromHocon(source, e);
    }
  }

  /** An {@code include} statement: its line, the nesting depth where it stands, its form and the name it gives. */
  record Include(int line, int depth, String form, String name) {}

  /** What the scan found: the include statements, in file order. */
  record Scan(List<Include> includes) {}

  /**
   * Scans {@code text} for nesting (brackets, substitutions and dotted key paths, starting at {@code baseDepth}) and
   * include statements, skipping strings and comments as the HOCON tokenizer does.
   */
  static Scan scan(String text, String source, int baseDepth) {
    Deque<int[]> open = new ArrayDeque<>(); // {line, bracket char}
    List<Include> includes = new ArrayList<>();
    int line = 1;
    int n = text.length();
    int i = 0;
    boolean statementStart = true;
    while (i < n) {
      char c = text.charAt(i);
      if (c == '\n') {
        line++;
        i++;
        statementStart = true;
        continue;
      }
      if (c == ' ' || c == '\t' || Character.isWhitespace(c) || c == '\uFEFF') {
        i++;
        continue;
      }
      if (c == '#' || (c == '/' && i + 1 < n && text.charAt(i + 1) == '/')) {
        while (i < n && text.charAt(i) != '\n') i++;
        continue;
      }
      if (c == '"') {
        int end = skipString(text, i);
        line += count(text, i, end, '\n');
        i = end;
        statementStart = false;
        continue;
      }
      if (c == '{' || c == '[' || (c == '$' && i + 1 < n && text.charAt(i + 1) == '{')) {
        int depth = baseDepth + open.size() + 1;
        if (depth > MAX_NESTING) throw tooDeep(source, line);
        open.push(new int[] {line, c == '$' ? '{' : c});
        i += c == '$' ? 2 : 1;
        statementStart = c == '{';
        continue;
      }
      if (c == '}' || c == ']') {
        if (!open.isEmpty()) open.pop(); // a stray closer is the parser's to report
        i++;
        statementStart = false;
        continue;
      }
      if (c == ',') {
        i++;
        statementStart = true;
        continue;
      }
      // Unquoted text up to the next separator: a key path, a value or a keyword.
      int start = i;
      int dots = 0;
      while (i < n && !isSeparator(text.charAt(i))
          && !(text.charAt(i) == '/' && i + 1 < n && text.charAt(i + 1) == '/')) {
        char t = text.charAt(i);
        if (t == '"') {
          int end = skipString(text, i);
          line += count(text, i, end, '\n');
          i = end;
          continue;
        }
        if (t == '.') dots++;
        i++;
      }
      if (i == start) {
        i++; // a separator the parser reports, e.g. '=' alone: one step on
        statementStart = false;
        continue;
      }
      if (baseDepth + open.size() + dots > MAX_NESTING) throw tooDeep(source, line);
      if (statementStart && text.startsWith("include", start) && i == start + "include".length()) {
        Include include = readInclude(text, i, line, baseDepth + open.size(), source);
        if (include != null) includes.add(include);
      }
      statementStart = false;
    }
    if (!open.isEmpty()) {
      int[] innermost = open.peek();
      throw new ScenarioException(source, innermost[0], null, "'" + (char) innermost[1] + "' opened here is never "
          + "closed");
    }
    return new Scan(List.copyOf(includes));
  }

  private static ScenarioException tooDeep(String source, int line) {
    return new ScenarioException(source, line, null, "nesting deeper than " + MAX_NESTING + " levels (objects, "
        + "lists and dotted key paths, counting the files that include this one)");
  }

  /** Characters that end a run of unquoted text (HOCON's, less the quote, which joins a key path). */
  private static boolean isSeparator(char c) {
    return Character.isWhitespace(c) || c == '\uFEFF' || "{}[],:=#$+`^?!@*&\\\n".indexOf(c) >= 0;
  }

  /**
   * The include statement whose name starts after {@code from} (just past the keyword), or null when the keyword is
   * not followed by a form this scan knows (the parser then reports it).
   */
  private static Include readInclude(String text, int from, int line, int depth, String source) {
    int i = skipBlanks(text, from);
    if (i >= text.length()) return null;
    if (text.charAt(i) == '"') return new Include(line, depth, "", unquote(text, i));
    String form = formAt(text, i);
    if (form == null) return null;
    if (form.equals("required")) {
      int inner = skipBlanks(text, skipBlanks(text, i + form.length()) + 1);
      if (inner < text.length() && text.charAt(inner) == '"') {
        return new Include(line, depth, "required", unquote(text, inner));
      }
      form = formAt(text, inner);
      if (form == null) return null;
    }
    if (form.equals("file") || form.equals("url") || form.equals("classpath")) {
      throw new ScenarioException(source, line, null, "include " + form + "(...) is not allowed: a scenario includes "
          + "other scenario files by a name relative to itself, e.g. include \"../profiles/NAME.conf\"");
    }
    return null;
  }

  /** The lower-case word at {@code from} when an opening parenthesis follows it on the same line, else null. */
  private static String formAt(String text, int from) {
    int i = from;
    while (i < text.length() && text.charAt(i) >= 'a' && text.charAt(i) <= 'z') i++;
    int paren = skipBlanks(text, i);
    return i > from && paren < text.length() && text.charAt(paren) == '(' ? text.substring(from, i) : null;
  }

  private static int skipBlanks(String text, int from) {
    int i = from;
    while (i < text.length() && (text.charAt(i) == ' ' || text.charAt(i) == '\t')) i++;
    return i;
  }

  /** The content of the simple quoted string at {@code quote} (escapes as JSON's, enough for file names). */
  private static String unquote(String text, int quote) {
    StringBuilder sb = new StringBuilder();
    for (int i = quote + 1; i < text.length(); i++) {
      char c = text.charAt(i);
      if (c == '"' || c == '\n') break;
      if (c == '\\' && i + 1 < text.length()) {
        i++;
        char e = text.charAt(i);
        sb.append(e == 'n' ? '\n' : e == 't' ? '\t' : e);
        continue;
      }
      sb.append(c);
    }
    return sb.toString();
  }

  /** The index just past the string starting at {@code quote}: triple-quoted, or simple (which a newline ends). */
  private static int skipString(String text, int quote) {
    int n = text.length();
    if (text.startsWith("\"\"\"", quote)) {
      int close = text.indexOf("\"\"\"", quote + 3);
      if (close < 0) return n; // unclosed: the parser reports it
      int end = close + 3;
      while (end < n && text.charAt(end) == '"') end++; // extra quotes belong to the string
      return end;
    }
    int i = quote + 1;
    while (i < n) {
      char c = text.charAt(i);
      if (c == '\\') {
        i += 2;
        continue;
      }
      if (c == '"') return i + 1;
      if (c == '\n') return i; // the parser reports the unclosed string
      i++;
    }
    return n;
  }

  private static int count(String text, int from, int to, char c) {
    int k = 0;
    for (int i = from; i < Math.min(to, text.length()); i++) {
      if (text.charAt(i) == c) k++;
    }
    return k;
  }

  /**
   * Reads {@code include "NAME"} relative to the including file under the same rules as the scenario; refuses the
   * forms that could reach device files, the class path or the network.
   */
  private static final class Includer implements ConfigIncluder, ConfigIncluderFile, ConfigIncluderURL,
      ConfigIncluderClasspath {
    private final String source;
    private final Path folder;
    private final List<Include> includes;
    private final List<Path> chain;
    private final Set<String> included;

    Includer(String source, Path folder, List<Include> includes, List<Path> chain, Set<String> included) {
      this.source = source;
      this.folder = folder;
      this.includes = includes;
      this.chain = chain;
      this.included = included;
    }

    @Override
    public ConfigIncluder withFallback(ConfigIncluder fallback) {
      return this; // never the library's includer: it would read the class path or drop a missing file
    }

    @Override
    public ConfigObject include(ConfigIncludeContext context, String what) {
      Include at = includes.stream().filter(inc -> inc.name().equals(what)).findFirst()
          .orElse(new Include(0, 0, "", what));
      String quoted = "include \"" + what + "\"";
      if (folder == null) {
        throw new ScenarioException(source, at.line(), null, quoted + ": includes are read relative to the "
            + "scenario's file, and this scenario has none");
      }
      Path file;
      try {
        file = folder.resolve(what).normalize();
      } catch (InvalidPathException e) {
        throw new ScenarioException(source, at.line(), null, quoted + ": not a file name (" + e.getReason() + ")");
      }
      String name = displayName(what);
      if (what.isBlank() || !Files.exists(file)) {
        throw new ScenarioException(source, at.line(), null, quoted + ": no such file (read relative to the "
            + "including file: " + file + ")");
      }
      if (chain.contains(file)) {
        throw new ScenarioException(source, at.line(), null, quoted + ": includes itself (a cycle of includes)");
      }
      if (chain.size() >= MAX_INCLUDE_DEPTH) {
        throw new ScenarioException(source, at.line(), null, quoted + ": includes are nested more than "
            + MAX_INCLUDE_DEPTH + " files deep");
      }
      String text;
      try {
        text = readText(file, name, "scenario file");
      } catch (ScenarioException e) {
        // Where the include stands, then the included file's own problem.
        if (e.line() > 0) throw e;
        throw new ScenarioException(source, at.line(), null, quoted + ": " + e.reason());
      }
      List<Path> longer = new ArrayList<>(chain);
      longer.add(file);
      included.add(name);
      return parseText(text, name, file.getParent(), at.depth(), longer, included).root();
    }

    /** The included file as messages name it: next to the including file's name as the user wrote it. */
    private String displayName(String what) {
      try {
        Path parent = Path.of(source).getParent();
        return (parent == null ? Path.of(what) : parent.resolve(what)).normalize().toString();
      } catch (InvalidPathException e) {
        return what;
      }
    }

    @Override
    public ConfigObject includeFile(ConfigIncludeContext context, File what) {
      throw refused("file", what.getPath());
    }

    @Override
    public ConfigObject includeURL(ConfigIncludeContext context, URL what) {
      throw refused("url", String.valueOf(what));
    }

    @Override
    public ConfigObject includeResources(ConfigIncludeContext context, String what) {
      throw refused("classpath", what);
    }

    private ScenarioException refused(String form, String what) {
      int line = includes.stream().filter(inc -> inc.form().equals(form)).mapToInt(Include::line).findFirst()
          .orElse(0);
      return new ScenarioException(source, line, null, "include " + form + "(\"" + what + "\") is not allowed: a "
          + "scenario includes other scenario files by a name relative to itself, e.g. include \"../profiles/"
          + "NAME.conf\"");
    }
  }
}
