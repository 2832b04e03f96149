package io.fabemu.app;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/** What {@code validate} and {@code run} say of a scenario's ring embedding: its summary, and its warnings once. */
class RingsCliTest extends CliTestBase {

  private final Fixtures.FakeExecutor executor = new Fixtures.FakeExecutor();

  /** The two warnings of three copies of one ring on the triangular prism of two layers. */
  private static final List<String> SHARED_WARNINGS = List.of(
      "fabemu: warning: rings: host 2 -> host 5 is used by 3 rings [0, 1, 2] but has 2 links: up to 2 rings share "
          + "one link's bandwidth",
      "fabemu: warning: rings: host 3 -> host 0 is used by 3 rings [0, 1, 2] but has 2 links: up to 2 rings share "
          + "one link's bandwidth",
      "fabemu: warning: rings: 2 hops carry more rings than links; the worst link carries 2 rings, each at 1/2 of "
          + "its rate there");

  @Override
  protected ScenarioExecutor executor() {
    return executor;
  }

  private static List<String> lines(String text) {
    return text.lines().toList();
  }

  private Path scenario(String rings) throws IOException {
    Path file = dir.resolve("prism.conf");
    Files.writeString(file, """
        name = prism
        topology { kind = prism, layers = 2 }
        workload { algorithms = [multi-ring, ring], sizes = [4 KiB], iterations = 2, warmup = 1 }
        """ + rings);
    return file;
  }

  private Path faceRule() throws IOException {
    return scenario("");
  }

  private Path shared() throws IOException {
    return scenario("rings { source = listed, listed = [[0, 1, 2, 5, 4, 3], [0, 1, 2, 5, 4, 3], "
        + "[0, 1, 2, 5, 4, 3]] }\n");
  }

  // ------------------------------------------------------------------------------ validate

  @Test
  void validateShouldPrintTheRingSummaryAfterTheOkLine() throws Exception {
    Path file = faceRule();
    assertThat(fabemu("validate", file.toString())).isZero();
    assertThat(lines(withoutEstimate(stdout))).containsExactly(
        "OK: " + file + ": prism: 2 layers of 3 (6 hosts), 6 ranks, 2 cases",
        "cases: allreduce multi-ring, ring: 4 KiB (1 size)",
        "rings: 6 directed rings of 6 hosts from the face rule, arc-disjoint");
    assertThat(stderr).isEmpty();
  }

  @Test
  void validateShouldPrintEachWarningOnStderrWhenRingsShareLinks() throws Exception {
    assertThat(fabemu("validate", shared().toString())).isZero();
    assertThat(lines(withoutEstimate(stdout))).hasSize(3)
        .last().isEqualTo("rings: 3 directed rings of 6 hosts from the scenario's list, sharing links");
    assertThat(lines(stderr)).isEqualTo(SHARED_WARNINGS);
  }

  @Test
  void validateShouldSayNothingOfRingsWhenTheScenarioHasNone() throws Exception {
    assertThat(fabemu("validate", tinyScenario().toString())).isZero();
    assertThat(stdout).doesNotContain("rings");
    assertThat(stderr).isEmpty();
  }

  @Test
  void validateShouldExitTwoWithOneLineWhenTheRingsCannotBeUsed() throws Exception {
    Path file = scenario("rings { source = listed, listed = [[0, 1, 2, 3, 4, 5]] }\n");
    assertThat(fabemu("validate", file.toString())).isEqualTo(2);
    assertThat(lines(stderr)).containsExactly(file + ":4: rings.listed: ring 0 hops from host 2 to host 3, which "
        + "no link joins");
    assertThat(stdout).isEmpty();
  }

  // ------------------------------------------------------------------------------ run

  @Test
  void runShouldPrintTheRingSummaryInTheHeader() throws Exception {
    assertThat(fabemu("run", faceRule().toString(), "--no-progress")).isZero();
    List<String> header = lines(stdout).subList(0, 5);
    assertThat(header.get(0)).startsWith("# fabemu run: prism (");
    assertThat(header.get(3)).startsWith("# Workload: allreduce float32 sum, 2 algorithms x 1 size");
    assertThat(header.get(4)).isEqualTo("# Rings: 6 directed rings of 6 hosts from the face rule, arc-disjoint");
    assertThat(stdout.split("# Rings: ", -1)).hasSize(2);
    assertThat(stderr).isEmpty();
    assertThat(executor.ranSpec.rings().rings()).hasSize(6);
  }

  @Test
  void runShouldPrintEachWarningOnceBeforeTheRun() throws Exception {
    assertThat(fabemu("run", shared().toString(), "--no-progress")).isZero();
    assertThat(lines(stdout)).contains("# Rings: 3 directed rings of 6 hosts from the scenario's list, sharing "
        + "links");
    assertThat(lines(stderr)).isEqualTo(SHARED_WARNINGS);
  }

  @Test
  void runShouldSayNothingOfRingsWhenTheScenarioHasNone() throws Exception {
    assertThat(fabemu("run", tinyScenario().toString(), "--no-progress")).isZero();
    assertThat(stdout).doesNotContain("# Rings");
    assertThat(stderr).isEmpty();
  }

  @Test
  void runShouldPrintTheWarningsBeforeTheRunStarts() throws Exception {
    // The executor fails the run: the warnings came first, once, and the failure after them.
    executor.failure = new IllegalStateException("device error");
    fabemu("run", shared().toString(), "--no-progress");
    assertThat(lines(stderr).subList(0, 3)).isEqualTo(SHARED_WARNINGS);
    assertThat(stderr.split("2 hops carry", -1)).hasSize(2);
  }
}
