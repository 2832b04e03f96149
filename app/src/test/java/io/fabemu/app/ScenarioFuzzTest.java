package io.fabemu.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.lifecycle.BeforeContainer;

/**
 * Scenario fuzzing: the valid scenarios of {@code examples/} and {@code profiles/}, mutated (keys deleted,
 * misspelled, duplicated; values of the wrong type or extreme; odd encodings and line ends; includes of missing or
 * device files; deep nesting; huge keys and values; truncation; byte flips; non-ASCII digits; sections of other kinds
 * of scenario laid in), are given to {@code fabemu validate} in-process. The promise: exit 0, or exit 2 with exactly
 * one line on stderr and no stack trace; never another code, an escaping exception or a hang (each case within a generous
 * {@value #CASE_TIMEOUT_SECONDS} s, a guard against hangs, not a performance figure).
 *
 * <p>The suite runs a fixed seed and the tries of {@code jqwik.tries.default} (src/test/resources/
 * junit-platform.properties, 300); {@code mvn -B test -pl app -Pfuzz -Dfabemu.fuzz.tries=10000} runs more (this class
 * only). jqwik prints the seed of every run; a failure names the seed file and its mutations.
 */
class ScenarioFuzzTest {
  private static final int CASE_TIMEOUT_SECONDS = 20;
  private static final Path REPO = Path.of("..");
  /** The copy of examples/ and profiles/ the cases run in, so that their includes resolve. */
  private static Path work;
  private static List<Path> seeds;

  private static final int KINDS = 13;
  private static final String[] WRONG_TYPES = {"[1, 2]", "{ a = 1 }", "\"text\"", "true", "null", "\"\"", "[]"};
  private static final String[] EXTREMES = {"0", "-1", "99999999999999999999999", "1e308", "NaN", "-0", "Infinity",
      "\"1e-400 s\"", "9223372036854775808 B", "2147483648", "-9223372036854775808", "\"NaN\"", "0x10", "1e-308",
      "\"1e999999999 ns\"", "\"1.5\"", "4 KiB", "1e12 Gbps"};
  private static final String[] INCLUDES = {"include \"missing.conf\"", "include required(\"missing.conf\")",
      "include \"/dev/zero\"", "include file(\"/etc/passwd\")", "include file(\"/dev/zero\")",
      "include url(\"http://127.0.0.1:1/x.conf\")", "include classpath(\"fabemu-scenario-defaults.conf\")",
      "include \"fuzz-case.conf\"", "include \"../profiles/roce25g-tor-spine-fpga.conf\"", "include \"\"",
      "include \"..\"", "include \"/\"", "include"};
  private static final String[] DIGITS = {"\u0660", "\u0663", "\uff11", "\uff16", "\u0967", "\ud835\udfd9"};
  /**
   * A section or key of another kind of scenario, valid where it came from: laid into a scenario of another kind,
   * the combination must be checked as a whole (a traffic section beside a ring workload once skipped the
   * workload's rules).
   */
  private static final String[] SECTIONS = {"traffic {}", "traffic { offered-loads = [0.1], measure-cycles = 100 }",
      "faults.events = [{ at = 1 us, action = down, node = host1 }]",
      "faults.events = [{ at = 1 us, action = down, switch = spine0 }, { at = 9 us, action = up, switch = spine0 }]",
      "faults.events = [{ at = { case = 1, fraction = 0.5 }, action = down, switch = spine0 }]",
      "ethernet { io-nodes = [0], traffic { inbound-frames = 2, outbound-frames = 1 } }",
      "rings { source = search }", "rings { source = face-rule }", "rings.listed = [[0, 1, 2]]",
      "workload.algorithms = [multi-ring]", "workload.algorithms = [single-ring, line]", "workload.ppn = 2",
      "workload.hierarchical = true", "workload.algorithms = [inc-node, inc-socket]", "workload.collective = pipeline",
      "workload.collective = barrier", "workload.collective = sendrecv", "workload.payload = synthetic",
      "devices.router.virtual-channels = 1", "devices.router.virtual-channels = 3", "devices.router.stall-limit = 7 ns",
      "topology { kind = mesh, dimensions = [2, 2] }", "topology { kind = torus, dimensions = [2, 2, 2] }",
      "topology { kind = group-ring, groups = 2, nodes-per-group = 2 }",
      "topology { kind = prism, nodes-per-layer = 3, layers = 2 }",
      "topology { kind = optical, servers = 2, npus-per-server = 2 }", "topology.ocs.reconfiguration-delay = 1 ms",
      "topology.kind = leaf-spine", "topology.hosts = 4", "devices.inc.enabled = true",
      "packet-drops = [{ from = tor0, to = spine0, probability = 0.5 }]",
      "cluster.placement = [[host0], [\"host1*\", spine0]]"};

  @BeforeContainer
  static void copySeeds() throws IOException {
    work = Files.createTempDirectory("fabemu-fuzz");
    List<Path> found = new ArrayList<>();
    for (String folder : List.of("examples", "profiles")) {
      Files.createDirectories(work.resolve(folder));
      try (Stream<Path> files = Files.list(REPO.resolve(folder))) {
        for (Path f : files.filter(f -> f.toString().endsWith(".conf")).sorted().toList()) {
          Path copy = work.resolve(folder).resolve(f.getFileName());
          Files.copy(f, copy);
          // Seeds are the valid scenarios: not the bad example, not the cost file (not a scenario).
          String name = f.getFileName().toString();
          if (!name.startsWith("bad-") && !name.equals("optical-costs.conf")) found.add(copy);
        }
      }
    }
    seeds = List.copyOf(found);
  }

  @AfterContainer
  static void removeCopies() throws IOException {
    try (Stream<Path> all = Files.walk(work)) {
      for (Path p : all.sorted((a, b) -> b.getNameCount() - a.getNameCount()).toList()) Files.deleteIfExists(p);
    }
  }

  /** One change to a scenario's bytes: its kind, and numbers that place and size it. */
  record Mutation(int kind, int where, int size, int choice) {}

  @Provide
  Arbitrary<List<Mutation>> mutations() {
    Arbitrary<Mutation> one = Combinators.combine(Arbitraries.integers().between(0, KINDS - 1),
        Arbitraries.integers().between(0, Integer.MAX_VALUE), Arbitraries.integers().between(0, 3000),
        Arbitraries.integers().between(0, 99)).as(Mutation::new);
    return one.list().ofMinSize(1).ofMaxSize(3);
  }

  @Property(seed = "20170117")
  void validateKeepsItsPromiseOnMutatedScenarios(@ForAll("mutations") List<Mutation> mutations,
                                                 @ForAll("seedIndex") int seedIndex) throws IOException {
    Path seed = seeds.get(seedIndex % seeds.size());
    byte[] bytes = Files.readAllBytes(seed);
    for (Mutation m : mutations) bytes = apply(m, bytes);
    Path file = seed.resolveSibling("fuzz-case.conf");
    Files.write(file, bytes);
    String label = seed.getFileName() + " " + mutations;
    assertPromise(label, "validate", file.toString());
  }

  @Provide
  Arbitrary<Integer> seedIndex() {
    return Arbitraries.integers().between(0, 1000);
  }

  /** Runs the command line in-process and checks the promise: 0, or 2 with one line and no trace. */
  static void assertPromise(String label, String... args) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int code = assertTimeoutPreemptively(Duration.ofSeconds(CASE_TIMEOUT_SECONDS), () -> Main.execute(args,
        new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8)),
        label);
    String stderr = err.toString(StandardCharsets.UTF_8);
    assertThat(code).as("exit code of %s: %s", label, stderr).isIn(ExitCodes.OK, ExitCodes.BAD_INPUT);
    if (code == ExitCodes.BAD_INPUT) {
      assertThat(stderr.lines().toList()).as("stderr of %s", label).hasSize(1);
      assertThat(stderr).as("stderr of %s", label).doesNotContain("Exception").doesNotContain("at io.")
          .doesNotContain("Error:");
    } else {
      assertThat(stderr).as("stderr of %s", label).doesNotContain("Exception").doesNotContain("at io.");
    }
  }

  /** {@code bytes} with {@code m} applied; a mutation that does not apply to these bytes leaves them unchanged. */
  static byte[] apply(Mutation m, byte[] bytes) {
    String text = new String(bytes, StandardCharsets.UTF_8);
    List<String> lines = new ArrayList<>(Arrays.asList(text.split("\n", -1)));
    int line = lines.isEmpty() ? 0 : m.where() % lines.size();
    switch (m.kind()) {
      case 0 -> { // delete a line (usually a key)
        if (!lines.isEmpty()) lines.remove(line);
      }
      case 1 -> { // misspell a key: swap two letters before '='
        String l = lines.get(line);
        int eq = l.indexOf('=');
        if (eq > 2) {
          int i = 1 + m.size() % (eq - 2);
          char[] c = l.toCharArray();
          char t = c[i];
          c[i] = c[i - 1];
          c[i - 1] = t;
          lines.set(line, new String(c));
        }
      }
      case 2 -> lines.add(line, lines.get(line)); // duplicate a line
      case 3 -> replaceValue(lines, line, WRONG_TYPES[m.choice() % WRONG_TYPES.length]);
      case 4 -> replaceValue(lines, line, EXTREMES[m.choice() % EXTREMES.length]);
      case 5 -> {
        return encoding(m, text, bytes);
      }
      case 6 -> lines.add(line, INCLUDES[m.choice() % INCLUDES.length]);
      case 7 -> { // deep nesting, closed or not
        int depth = 50 + m.size();
        String open = m.choice() % 2 == 0 ? "[" : "{a = ";
        String close = m.choice() % 2 == 0 ? "]" : "}";
        lines.add(line, "x = " + open.repeat(depth) + "1" + (m.choice() % 3 == 0 ? "" : close.repeat(depth)));
      }
      case 8 -> { // a huge key or value
        String big = "k".repeat(1 + m.size() * 300);
        lines.add(line, m.choice() % 2 == 0 ? "\"" + big + "\" = 1" : "workload.collective = \"" + big + "\"");
      }
      case 9 -> { // truncate
        return Arrays.copyOf(bytes, (int) ((long) m.where() % (bytes.length + 1)));
      }
      case 10 -> { // flip one byte
        byte[] b = bytes.clone();
        if (b.length > 0) b[m.where() % b.length] ^= (byte) (1 + m.choice());
        return b;
      }
      case 12 -> lines.add(m.choice() % 2 == 0 ? lines.size() : line, SECTIONS[m.size() % SECTIONS.length]);
      default -> { // a non-ASCII digit in place of an ASCII one
        int digit = -1;
        for (int i = 0; i < text.length(); i++) {
          int at = (int) (((long) m.where() + i) % text.length());
          if (Character.isDigit(text.charAt(at)) && text.charAt(at) < 128) {
            digit = at;
            break;
          }
        }
        if (digit < 0) return bytes;
        return (text.substring(0, digit) + DIGITS[m.choice() % DIGITS.length] + text.substring(digit + 1))
            .getBytes(StandardCharsets.UTF_8);
      }
    }
    return String.join("\n", lines).getBytes(StandardCharsets.UTF_8);
  }

  private static void replaceValue(List<String> lines, int line, String value) {
    String l = lines.get(line);
    int eq = l.indexOf('=');
    if (eq >= 0) lines.set(line, l.substring(0, eq + 1) + " " + value);
  }

  private static byte[] encoding(Mutation m, String text, byte[] bytes) {
    switch (m.choice() % 6) {
      case 0 -> {
        byte[] b = Arrays.copyOf(bytes, bytes.length + 1);
        int at = bytes.length == 0 ? 0 : m.where() % bytes.length;
        System.arraycopy(bytes, at, b, at + 1, bytes.length - at);
        b[at] = (byte) (0x80 + m.size() % 0x80); // a byte that starts no UTF-8 character
        return b;
      }
      case 1 -> {
        return ("\uFEFF" + text).getBytes(StandardCharsets.UTF_8);
      }
      case 2 -> {
        return text.getBytes(m.size() % 2 == 0 ? StandardCharsets.UTF_16 : StandardCharsets.UTF_16LE);
      }
      case 3 -> {
        int at = text.isEmpty() ? 0 : m.where() % text.length();
        return (text.substring(0, at) + "\0" + text.substring(at)).getBytes(StandardCharsets.UTF_8);
      }
      case 4 -> {
        return text.replace('\n', '\r').getBytes(StandardCharsets.UTF_8);
      }
      default -> {
        return text.replace("\n", "\r\n").getBytes(StandardCharsets.UTF_8);
      }
    }
  }
}
