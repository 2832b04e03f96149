package io.fabemu.app;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabemu.cluster.scenario.OpticalCostsLoader;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Every file in {@code examples/} is what its header says: each scenario validates (one OK line, exit 0), each
 * {@code bad-*} example is refused in one line (exit 2), and the cost-model configuration loads as one. An example
 * that drifts from the scenario format fails here, not in a user's hands.
 */
class ExamplesValidateTest extends CliTestBase {
  private static final Path EXAMPLES = Path.of("..", "examples");
  /** Not a scenario: the transmission methods' cost configuration (docs/optical.md). */
  private static final String COSTS = "optical-costs.conf";

  private static List<Path> examples() throws IOException {
    try (Stream<Path> files = Files.list(EXAMPLES)) {
      return files.filter(f -> f.getFileName().toString().endsWith(".conf")).sorted().toList();
    }
  }

  /** Validation runs nothing. */
  @Override
  Main.ScenarioExecutor executor() {
    return null;
  }

  private static List<String> lines(String text) {
    return text.lines().toList();
  }

  @Test
  void shouldValidateEveryExampleScenarioAndRefuseEveryBadOneInOneLine() throws IOException {
    List<Path> examples = examples();
    assertThat(examples).hasSizeGreaterThan(10);
    for (Path example : examples) {
      String name = example.getFileName().toString();
      if (name.equals(COSTS)) continue;
      int code = fabemu("validate", example.toString());
      if (name.startsWith("bad-")) {
        assertThat(code).as("%s: %s", name, stderr).isEqualTo(2);
        assertThat(lines(stderr)).as(name).hasSize(1);
      } else {
        assertThat(code).as("%s: %s", name, stderr).isZero();
        assertThat(stdout).as(name).startsWith("OK: " + example);
      }
    }
  }

  @Test
  void shouldLoadTheCostConfigurationExampleAsOne() {
    assertThat(OpticalCostsLoader.load(EXAMPLES.resolve(COSTS))).isNotNull();
  }
}
