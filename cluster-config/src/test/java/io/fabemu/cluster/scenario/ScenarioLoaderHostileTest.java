package io.fabemu.cluster.scenario;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Collections;
import org.assertj.core.api.AbstractThrowableAssert;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Hostile scenario files: each case once overflowed the stack, hung, was silently accepted or lost its
 * line; each must now be one line naming the file and, where there is one, the line.
 */
class ScenarioLoaderHostileTest {

  @TempDir
  Path dir;

  private static AbstractThrowableAssert<?, ? extends Throwable> assertError(String text) {
    return assertThatThrownBy(() -> ScenarioLoader.parse(text, "x.conf")).isInstanceOf(ScenarioException.class);
  }

  private AbstractThrowableAssert<?, ? extends Throwable> assertFileError(Path file) {
    return assertThatThrownBy(() -> ScenarioLoader.load(file)).isInstanceOf(ScenarioException.class);
  }

  private Path write(String name, String text) throws Exception {
    Path file = dir.resolve(name);
    Files.createDirectories(file.getParent());
    Files.writeString(file, text);
    return file;
  }

  // ------------------------------------------------------------------------------ nesting

  @Test
  void shouldRefuseDeeplyNestedObjectsBeforeParsing() {
    String deep = "name = x\na = " + "{b = ".repeat(2500) + "1" + "}".repeat(2500) + "\n";
    assertError(deep).hasMessage("x.conf:2: nesting deeper than 64 levels (objects, lists and dotted key paths, "
        + "counting the files that include this one)");
  }

  @Test
  void shouldRefuseDeeplyNestedListsDottedPathsAndSubstitutions() {
    assertError("a = " + "[".repeat(2500) + "]".repeat(2500))
        .hasMessageStartingWith("x.conf:1: nesting deeper than 64");
    assertError(String.join(".", Collections.nCopies(20_000, "a")) + " = 1")
        .hasMessageStartingWith("x.conf:1: nesting deeper than 64");
    assertError("name = ${" + String.join(".", Collections.nCopies(20_000, "a")) + "}")
        .hasMessageStartingWith("x.conf:1: nesting deeper than 64");
  }

  @Test
  void shouldAcceptNestingUpToTheLimitAndIgnoreBracketsInStringsAndComments() {
    // 64 levels pass the scan: the schema, not the scan, refuses the unknown key.
    assertError("a = " + "{b = ".repeat(64) + "1" + "}".repeat(64))
        .hasMessageStartingWith("x.conf:1: a: unknown key");
    assertError("a = " + "{b = ".repeat(65) + "1" + "}".repeat(65))
        .hasMessageStartingWith("x.conf:1: nesting deeper than 64");
    String brackets = "{[".repeat(500);
    assertThat(ScenarioLoader.parse("name = \"" + brackets + "\"\n# " + brackets + "\n// " + brackets
        + "\nseed = 3\n", "x.conf").spec().name()).isEqualTo(brackets);
    assertThat(ScenarioLoader.parse("name = \"\"\"" + brackets + "\n" + brackets + "\"\"\"\nseed = 3\n", "x.conf")
        .spec().seed()).isEqualTo(3);
  }

  @Test
  void shouldNameTheLineOfABracketNeverClosed() {
    assertError("name = x\ntopology {\n  hosts = 4\n  spines = [1,\n").hasMessage(
        "x.conf:4: '[' opened here is never closed");
    assertError("name = x\ntopology {\n  hosts = 4\n").hasMessage("x.conf:2: '{' opened here is never closed");
  }

  @Test
  void shouldCheckTheNestingOfAValueGivenOnTheCommandLine() {
    assertThatThrownBy(() -> ScenarioLoader.checkText("v = " + "[".repeat(3000), "--set"))
        .isInstanceOf(ScenarioException.class).hasMessage("--set:1: nesting deeper than 64 levels (objects, lists "
            + "and dotted key paths, counting the files that include this one)");
    ScenarioLoader.checkText("v = [[1]]", "--set");
  }

  // ------------------------------------------------------------------------------ what a source may be

  @Test
  void shouldRefuseDeviceFilesAndFifosWithoutOpeningThem() throws Exception {
    Path zero = Path.of("/dev/zero");
    assumeTrue(Files.exists(zero));
    assertTimeoutPreemptively(Duration.ofSeconds(10), () -> assertFileError(zero).hasMessage(
        "/dev/zero: is not a regular file (a device, FIFO or socket); a scenario file is a text file"));
    Path fifo = dir.resolve("fifo.conf");
    Process mkfifo = new ProcessBuilder("mkfifo", fifo.toString()).start();
    assumeTrue(mkfifo.waitFor() == 0);
    assertTimeoutPreemptively(Duration.ofSeconds(10), () -> assertFileError(fifo).hasMessage(
        fifo + ": is not a regular file (a device, FIFO or socket); a scenario file is a text file"));
  }

  @Test
  void shouldRefuseAFileLargerThanTheLimit() throws Exception {
    Path big = write("big.conf", "\"" + "k".repeat(5_000_000) + "\" = 1\n");
    assertFileError(big).hasMessage(big + ": is larger than the limit of 4 MiB for a scenario file");
    Path atLimit = write("limit.conf", "name = x\n" + " ".repeat((int) ScenarioSource.MAX_FILE_BYTES - 10) + "\n");
    assertThat(Files.size(atLimit)).isEqualTo(ScenarioSource.MAX_FILE_BYTES);
    assertThat(ScenarioLoader.load(atLimit).spec().name()).isEqualTo("x");
  }

  @Test
  void shouldRefuseAHugeKeyOrValueQuicklyWithAShortLine() {
    String key = "k".repeat(300_000);
    assertTimeoutPreemptively(Duration.ofSeconds(10), () -> assertError("name = x\n\"" + key + "\" = 1\n")
        .hasMessage("x.conf:2: " + "k".repeat(40) + "...: a key of 300000 characters, above the limit of 200"));
    assertTimeoutPreemptively(Duration.ofSeconds(10), () -> assertError("workload.collective = \"" + key + "\"\n")
        .hasMessage("x.conf:1: workload.collective: '" + "k".repeat(40) + "...' is a text of 300000 characters, "
            + "above the limit of 4096"));
    // Just under the limits: the usual messages.
    assertError("\"" + "k".repeat(200) + "\" = 1\n").hasMessageStartingWith("x.conf:1: " + "k".repeat(200)
        + ": unknown key");
  }

  @Test
  void shouldKeepTheMessageOnOneLineWhenTheFileNameHoldsALineBreak() {
    // Found by CommandLineFuzzTest: 'fabemu validate $'x\ny=1'' printed two lines.
    assertThatThrownBy(() -> ScenarioLoader.load(Path.of("x\ny=1"))).hasMessage("x\\ny=1: no such file");
  }

  // ------------------------------------------------------------------------------ includes

  @Test
  void shouldReadAnIncludeRelativeToTheIncludingFileAndNameItsFileInMessages() throws Exception {
    write("profiles/p.conf", "topology {\n  hosts = 8\n  hosts-per-tor = 4\n}\n");
    Path scenario = write("examples/s.conf", "include \"../profiles/p.conf\"\nname = s\n");
    assertThat(ScenarioLoader.load(scenario).spec().topology().hosts()).isEqualTo(8);
    write("profiles/bad.conf", "seed = 1\n\ntopology.hosts = many\n");
    Path bad = write("examples/b.conf", "include required(\"../profiles/bad.conf\")\n");
    String shown = dir.resolve("profiles/bad.conf").toString();
    assertFileError(bad).hasMessage(shown + ":3: topology.hosts: expected a whole number, got 'many'");
  }

  @Test
  void shouldRefuseAMissingIncludeRequiredOrNotWithTheIncludingLine() throws Exception {
    Path plain = write("plain.conf", "name = x\ninclude \"no-such-file.conf\"\n");
    assertFileError(plain).hasMessage(plain + ":2: include \"no-such-file.conf\": no such file (read relative to "
        + "the including file: " + dir.resolve("no-such-file.conf") + ")");
    Path required = write("required.conf", "\n\ninclude required(\"no-such-file.conf\")\n");
    assertFileError(required).hasMessageStartingWith(required + ":3: include \"no-such-file.conf\": no such file");
  }

  @Test
  void shouldRefuseFileUrlAndClasspathIncludes() {
    for (String form : new String[] {"file(\"/etc/passwd\")", "file(\"/dev/zero\")", "url(\"http://example.com/x\")",
        "classpath(\"fabemu-scenario-defaults.conf\")", "required(file(\"/etc/passwd\"))"}) {
      String kind = form.replace("required(", "").substring(0, form.replace("required(", "").indexOf('('));
      assertError("name = x\ninclude " + form + "\n").hasMessage("x.conf:2: include " + kind + "(...) is not "
          + "allowed: a scenario includes other scenario files by a name relative to itself, e.g. include "
          + "\"../profiles/NAME.conf\"");
    }
  }

  @Test
  void shouldApplyTheSourceRulesToIncludedFilesAndBoundIncludes() throws Exception {
    assumeTrue(Files.exists(Path.of("/dev/zero")));
    Path device = write("device.conf", "include \"/dev/zero\"\n");
    assertTimeoutPreemptively(Duration.ofSeconds(10), () -> assertFileError(device).hasMessage(device
        + ":1: include \"/dev/zero\": is not a regular file (a device, FIFO or socket); a scenario file is a text "
        + "file"));
    Path self = write("self.conf", "name = x\ninclude \"self.conf\"\n");
    assertFileError(self).hasMessage(self + ":2: include \"self.conf\": includes itself (a cycle of includes)");
    for (int i = 0; i < 10; i++) write("chain" + i + ".conf", "include \"chain" + (i + 1) + ".conf\"\n");
    write("chain10.conf", "name = end\n");
    assertFileError(dir.resolve("chain0.conf")).hasMessageEndingWith(":1: include \"chain8.conf\": includes are "
        + "nested more than 8 files deep");
    // An included file's nesting counts from where it is included.
    write("deep.conf", "a = " + "{b = ".repeat(40) + "1" + "}".repeat(40) + "\n");
    Path outer = write("outer.conf", "x { y { " + "z { ".repeat(30) + "include \"deep.conf\" " + "} ".repeat(32)
        + "\n");
    assertFileError(outer).hasMessageStartingWith(dir.resolve("deep.conf") + ":1: nesting deeper than 64");
  }

  @Test
  void shouldNameTheIncludedFileOfAnErrorFoundWhileResolving() throws Exception {
    write("profiles/p.conf", "seed = 1\n\ntopology.hosts = ${nowhere}\n");
    Path scenario = write("examples/s.conf", "name = s\ninclude \"../profiles/p.conf\"\n");
    assertFileError(scenario).hasMessage(dir.resolve("profiles/p.conf") + ":3: Could not resolve substitution to a "
        + "value: ${nowhere}");
  }

  // ------------------------------------------------------------------------------ substitutions

  @Test
  void shouldGiveTheLineOfTheKeyWhenItsValueComesFromAnEnvironmentVariable() throws Exception {
    // An environment variable's value has no line of its own; the refusal names where the key was written.
    assertError("name = x\n\ntopology.hosts = ${PATH}\n")
        .hasMessageStartingWith("x.conf:3: topology.hosts: expected a whole number, got '");
    write("profiles/env.conf", "seed = 1\ntopology {\n  hosts = ${PATH}\n}\n");
    Path scenario = write("examples/env.conf", "name = s\ninclude \"../profiles/env.conf\"\n");
    assertFileError(scenario).hasMessageStartingWith(dir.resolve("profiles/env.conf")
        + ":3: topology.hosts: expected a whole number, got '");
  }

  @Test
  void shouldRefuseSubstitutionsThatExpandExponentiallyBeforeResolvingThem() {
    // Resolved, a30 alone is 4 GiB of text: the library ran out of memory before any key was checked.
    StringBuilder text = new StringBuilder("a0 = \"xxxx\"\n");
    for (int i = 1; i <= 30; i++) text.append("a").append(i).append(" = ${a").append(i - 1).append("}${a")
        .append(i - 1).append("}\n");
    // a0 renders as 6 characters, a19 adds 6 x 2^19: with a1 to a18, more than 4 MiB in all.
    assertTimeoutPreemptively(Duration.ofSeconds(10), () -> assertError(text.toString()).hasMessage("x.conf:20: a19: "
        + "with it, the substitutions of the scenario expand to more than 4194304 characters in all (the limit of a "
        + "scenario file)"));
    // The same doubling through one key's overrides, each seeing the ones before it.
    assertTimeoutPreemptively(Duration.ofSeconds(10), () -> assertError("name = xxxx\n" + "name = ${name}${name}\n"
        .repeat(30)).hasMessageStartingWith("x.conf:1: name: its substitutions expand to more than 4194304 "
        + "characters"));
    // One value referring many times to a large one: 1,100 x 4,002 characters is above the limit, 1,000 x is not.
    String big = "name = \"" + "x".repeat(4000) + "\"\n";
    assertError(big + "seed = " + "${name}".repeat(1100) + "\n").hasMessage("x.conf:2: seed: its substitutions "
        + "expand to more than 4194304 characters (the limit of a scenario file)");
    assertError(big + "seed = " + "${name}".repeat(1000) + "\n").hasMessageEndingWith(": seed: '" + "x".repeat(40)
        + "...' is a text of 4000000 characters, above the limit of 4096");
  }

  @Test
  void shouldRefuseADoublingInsideAValueThatMergesWithASubstitution() {
    // ${a.a1} inside a's own object reads the final a.a1, not what a overrides: measured as a self-reference it
    // passed as nothing, and the library built a30's 10 GiB of text (out of memory, with a trace).
    StringBuilder text = new StringBuilder("a = ${?FABEMU_NO_SUCH_VARIABLE}\na {\n  a0 = \"xxxxxxxxxx\"\n");
    for (int i = 1; i <= 30; i++) text.append("  a").append(i).append(" = ${a.a").append(i - 1).append("}${a.a")
        .append(i - 1).append("}\n");
    assertTimeoutPreemptively(Duration.ofSeconds(10), () -> assertError(text + "}\n").hasMessage("x.conf:1: a: "
        + "its substitution ${a.a0} refers inside this value, which merges with another substitution; fabemu cannot "
        + "bound what that resolves to (write the value without the merge)"));
  }

  @Test
  void shouldRefuseAChainOfSubstitutionsLongerThanTheLimitInEitherOrder() {
    // 20,000 links overflowed the library's stack when resolving (and this check's, written last to first).
    StringBuilder forward = new StringBuilder("a0 = 1\n");
    for (int i = 1; i <= 20_000; i++) forward.append("a").append(i).append(" = ${a").append(i - 1).append("}\n");
    assertError(forward.toString()).hasMessage("x.conf:66: a65: its substitutions chain more than 64 deep (a "
        + "substitution of a substitution of ...)");
    StringBuilder backward = new StringBuilder();
    for (int i = 20_000; i >= 1; i--) backward.append("a").append(i).append(" = ${a").append(i - 1).append("}\n");
    assertError(backward + "a0 = 1\n").hasMessageContaining(": its substitutions chain more than 64 deep");
    // 64 links are a chain within the limit: resolved, and only then refused for the keys fabemu does not know.
    StringBuilder within = new StringBuilder("a0 = 1\n");
    for (int i = 1; i <= 64; i++) within.append("a").append(i).append(" = ${a").append(i - 1).append("}\n");
    assertError(within.toString()).hasMessageContaining("x.conf:1: a0: unknown key");
  }

  @Test
  void shouldRefuseACycleOfSubstitutionsThroughOtherKeys() {
    assertError("seed = ${name}\nname = ${seed}\n").hasMessage("x.conf:2: name: its substitution ${seed} refers "
        + "back to it (a cycle of substitutions)");
    assertError("topology { hosts = 4, kind = ${topology} }\n").hasMessage("x.conf:1: topology.kind: its "
        + "substitution ${topology} refers to a value that holds it (a cycle of substitutions)");
  }

  @Test
  void shouldKeepTheMeaningOfSubstitutionsWithinTheBound() {
    LoadedScenario loaded = ScenarioLoader.parse("topology { hosts = 8, hosts-per-tor = ${topology.spines} }\n"
        + "workload.sizes = [4 B]\nworkload.sizes += 8 B\n"
        + "name = \"a\"\nname = ${name}${name}\nname = ${name}-${name}\nseed = ${?FABEMU_NO_SUCH_VARIABLE}\n",
        "x.conf");
    assertThat(loaded.spec().topology().hosts()).isEqualTo(8);
    assertThat(loaded.spec().workload().sizesBytes()).containsExactly(4L, 8L);
    assertThat(loaded.spec().name()).isEqualTo("aa-aa");
    assertThat(loaded.spec().seed()).isEqualTo(42);
  }

  // ------------------------------------------------------------------------------ line ends, encodings

  @Test
  void shouldReadCrOnlyAndCrLfLineEndsWithTheirLineNumbers() throws Exception {
    Path cr = dir.resolve("cr.conf");
    Files.writeString(cr, "name = cr\rseed = 5\r\rtopology { kind = nonsense }\r");
    assertFileError(cr).hasMessageStartingWith(cr + ":4: topology.kind: 'nonsense' is not one of");
    Files.writeString(cr, "name = cr\rseed = 5\r");
    assertThat(ScenarioLoader.load(cr).spec().seed()).isEqualTo(5);
    Path crlf = dir.resolve("crlf.conf");
    Files.writeString(crlf, "name = crlf\r\nseed = 6\r\n\r\ntopology { kind = nonsense }\r\n");
    assertFileError(crlf).hasMessageStartingWith(crlf + ":4: topology.kind: 'nonsense' is not one of");
  }

  @Test
  void shouldRefuseTextThatIsNotUtf8AndSkipAUtf8ByteOrderMark() throws Exception {
    Path latin1 = dir.resolve("latin1.conf");
    Files.write(latin1, "name = x\nname = \"caf\u00e9\"\n".getBytes(StandardCharsets.ISO_8859_1));
    assertFileError(latin1).hasMessage(latin1 + ":2: is not UTF-8 text (byte 0xE9 at offset 20 starts no UTF-8 "
        + "character); save it as UTF-8");
    Path utf16 = dir.resolve("utf16.conf");
    Files.write(utf16, "name = x\n".getBytes(StandardCharsets.UTF_16));
    assertFileError(utf16).hasMessage(utf16 + ": is UTF-16 text (it starts with a UTF-16 byte-order mark); save it "
        + "as UTF-8");
    Path nul = dir.resolve("nul.conf");
    Files.write(nul, "name = x\nseed = 1\u0000\n".getBytes(StandardCharsets.UTF_8));
    assertFileError(nul).hasMessage(nul + ":2: holds a NUL character: a scenario is UTF-8 text (a UTF-16 file "
        + "must be saved as UTF-8)");
    Path bom = dir.resolve("bom.conf");
    Files.write(bom, "\uFEFFname = bom\n".getBytes(StandardCharsets.UTF_8));
    assertThat(ScenarioLoader.load(bom).spec().name()).isEqualTo("bom");
  }

  // ------------------------------------------------------------------------------ digits

  @Test
  void shouldRefuseDigitsOtherThanAsciiOnEveryNumberPath() {
    assertError("name = x\ntopology.hosts = \u0663\u0662\n").hasMessage("x.conf:2: topology.hosts: '\u0663\u0662' "
        + "holds the digit '\u0663' (U+0663): write numbers with the ASCII digits 0-9");
    assertError("seed = \uff11\uff16").hasMessage("x.conf:1: seed: '\uff11\uff16' holds the digit '\uff11' (U+FF11): "
        + "write numbers with the ASCII digits 0-9");
    assertError("workload.sizes = [\"\uff11\uff16 KiB\"]").hasMessage("x.conf:1: workload.sizes[0]: '\uff11\uff16 "
        + "KiB' holds the digit '\uff11' (U+FF11): write numbers with the ASCII digits 0-9");
    assertError("topology.host-link.latency = \"\u0661 us\"").hasMessage("x.conf:1: topology.host-link.latency: "
        + "'\u0661 us' holds the digit '\u0661' (U+0661): write numbers with the ASCII digits 0-9");
  }

  // ------------------------------------------------------------------------------ lines of list items

  @Test
  void shouldNameTheLineOfABadIncOperationOrDatatype() {
    String fabric = "topology { hosts = 8, hosts-per-tor = 2, spines = 2 }\ndevices.inc {\n  enabled = true\n";
    assertError(fabric + "  tor.operations = [\n    sum,\n    summ\n  ]\n}\n").hasMessage("x.conf:6: "
        + "devices.inc.tor.operations[1]: 'summ' is not one of sum, prod, max, min, land, lor, lxor, band, bor, "
        + "bxor, maxloc, minloc (did you mean 'sum'?)");
    assertError(fabric + "  spine.datatypes = [\n    float32,\n    flaot64\n  ]\n}\n")
        .hasMessageStartingWith("x.conf:6: devices.inc.spine.datatypes[1]: 'flaot64' is not one of");
  }
}
