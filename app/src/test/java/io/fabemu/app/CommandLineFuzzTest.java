package io.fabemu.app;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;

/**
 * Command-line fuzzing (the short part): argument lists for {@code fabemu validate},
 * built from real options, mutated values and random text, keep the promise of {@link ScenarioFuzzTest}: exit 0,
 * or exit 2 with one line on stderr and no stack trace, within the per-case time guard. Only {@code validate} and
 * {@code --help}-like arguments are used, so no emulation runs. Tries as in {@link ScenarioFuzzTest}.
 */
class CommandLineFuzzTest {
  private static final String EXAMPLE = "../examples/quickstart.conf";
  private static final String[] TOKENS = {"validate", EXAMPLE, "../examples/pt2pt.conf", "--set", "--fault",
      "--verbose", "--help", "-h", "--", "-", "", " ", "=", "topology.hosts=8", "topology.hosts=", "=8",
      "topology.hosts=\u0663\u0662", "workload.sizes=[4 B, 1 MiB]", "workload.sizes=[", "name=\"x", "a.b.c=1",
      "topology.hosts=99999999999999999999", "topology={ hosts = 4 }", "seed=${HOME}", "seed=${?NOPE}",
      "switch spine0 down at 1 us", "at=1us", "link tor0-spine0 down at 5 us for 1 us", "/dev/zero", "/dev/null",
      "/", "..", "no-such.conf", "x\ny=1", "\u0000", "--set=topology.hosts=4", "--unknown", "validate validate"};

  @Provide
  Arbitrary<List<String>> arguments() {
    Arbitrary<String> token = Arbitraries.frequencyOf(
        Tuple.of(6, Arbitraries.of(TOKENS)),
        Tuple.of(1, Arbitraries.strings().ofMaxLength(30)),
        Tuple.of(1, Arbitraries.integers().between(1, 3000).map(n -> "workload.sizes=" + "[".repeat(n)
            + "1" + "]".repeat(n / 2))),
        Tuple.of(1, Arbitraries.integers().between(1, 3000).map(n -> "{".repeat(n))));
    return token.list().ofMinSize(0).ofMaxSize(6).map(rest -> {
      // Always the validate command: the others could start an emulation.
      List<String> args = new ArrayList<>();
      args.add("validate");
      args.addAll(rest);
      return args;
    });
  }

  /** Found by this fuzz: a file name holding a line break made the message two lines. */
  @Example
  void shouldKeepOneLineForAFileNameWithALineBreak() {
    ScenarioFuzzTest.assertPromise("file name with a line break", "validate", "x\ny=1");
  }

  /** Found by this fuzz: a NUL in the file name was refused quoting java.nio.file.InvalidPathException. */
  @Example
  void shouldRefuseANulInTheFileNameInASentence() {
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int code = Main.execute(new String[] {"validate", "a\0b"}, new PrintStream(new ByteArrayOutputStream()),
        new PrintStream(err, true, StandardCharsets.UTF_8));
    assertThat(code).isEqualTo(ExitCodes.BAD_INPUT);
    assertThat(err.toString(StandardCharsets.UTF_8)).isEqualTo(
        "fabemu validate: Invalid value for positional parameter at index 0 (SCENARIO): 'a\\0b' is not a file name "
        + "(Nul character not allowed) (see 'fabemu validate --help')" + System.lineSeparator());
  }

  /** Every command's path arguments, not only validate's: run's SCENARIO and osu-allreduce's --profile. */
  @Example
  void shouldRefuseANulInAnyPathArgumentInASentence() {
    // Each case: where picocli says the value was, then the arguments.
    String[][] cases = {{"positional parameter at index 0 (SCENARIO)", "run", "a\0b"},
        {"option '--profile'", "osu-allreduce", "--profile", "a\0b", "--nodes", "2", "--ppn", "1", "--mode", "host"},
        {"option '--out'", "traffic", "x.conf", "--out", "a\0b"}};
    for (String[] c : cases) {
      ByteArrayOutputStream err = new ByteArrayOutputStream();
      int code = Main.execute(Arrays.copyOfRange(c, 1, c.length), new PrintStream(new ByteArrayOutputStream()),
          new PrintStream(err, true, StandardCharsets.UTF_8));
      assertThat(code).isEqualTo(ExitCodes.BAD_INPUT);
      assertThat(err.toString(StandardCharsets.UTF_8)).isEqualTo("fabemu " + c[1] + ": Invalid value for " + c[0]
          + ": 'a\\0b' is not a file name (Nul character not allowed) (see 'fabemu " + c[1] + " --help')"
          + System.lineSeparator());
    }
  }

  /** A --set value nested 3,000 levels deep overflowed the HOCON parser's stack (exit 1 with a trace). */
  @Example
  void shouldRefuseADeeplyNestedSetValueInOneLine() {
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int code = Main.execute(new String[] {"validate", "../examples/quickstart.conf", "--set",
        "workload.sizes=" + "[".repeat(3000)}, new PrintStream(new ByteArrayOutputStream()),
        new PrintStream(err, true, StandardCharsets.UTF_8));
    assertThat(code).isEqualTo(ExitCodes.BAD_INPUT);
    assertThat(err.toString(StandardCharsets.UTF_8)).startsWith("fabemu validate: --set 'workload.sizes=[[[")
        .contains("[': nesting deeper than 64 levels").hasLineCount(1);
  }

  /** Found by this fuzz (2,000 tries): a substitution in a --set value escaped unresolved (exit 1). */
  @Example
  void shouldResolveOrRefuseASubstitutionInASetValue() {
    ScenarioFuzzTest.assertPromise("--set seed=${HOME}", "validate", "../examples/quickstart.conf", "--set",
        "seed=${HOME}");
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int code = Main.execute(new String[] {"validate", "../examples/quickstart.conf", "--set", "seed=${NO_SUCH_VAR_X}"},
        new PrintStream(new ByteArrayOutputStream()), new PrintStream(err, true, StandardCharsets.UTF_8));
    assertThat(code).isEqualTo(ExitCodes.BAD_INPUT);
    assertThat(err.toString(StandardCharsets.UTF_8)).startsWith("fabemu validate: --set 'seed=${NO_SUCH_VAR_X}': ")
        .contains("NO_SUCH_VAR_X").hasLineCount(1);
    ScenarioFuzzTest.assertPromise("--set seed=${?NOPE_X}", "validate", "../examples/quickstart.conf", "--set",
        "seed=${?NOPE_X}");
  }

  @Property(seed = "20170117")
  void validateKeepsItsPromiseOnMutatedArguments(@ForAll("arguments") List<String> args) {
    ScenarioFuzzTest.assertPromise(args.toString(), args.toArray(String[]::new));
  }
}
