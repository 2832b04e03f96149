package io.fabemu.app;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabemu.cluster.scenario.OpticalCostsLoader;
import io.fabemu.cluster.scenario.ResourceEstimate;
import io.fabemu.cluster.scenario.ScenarioLoader;
import io.fabemu.fabric.ScenarioSpec;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Every file in {@code examples/} is what its header says: each scenario validates (one OK line, exit 0), each
 * {@code bad-*} example is refused in one line (exit 2), every example runs on a laptop's heap as the CLI runs it and
 * its header says which heap checks every size when real data at every size does not fit, and the cost-model configuration loads as one. An example that drifts from the
 * scenario format fails here, not in a user's hands.
 */
class ExamplesValidateTest extends CliTestBase {
  private static final Path EXAMPLES = Path.of("..", "examples");
  /** Not a scenario: the transmission methods' cost configuration (docs/optical.md). */
  private static final String COSTS = "optical-costs.conf";
  /** The JVM's default maximum heap on a 16 GiB machine: a quarter of its memory. */
  private static final long LAPTOP_HEAP_BYTES = 4L << 30;
  /** An example's header stating the heap its run needs, as {@code FABEMU_JAVA_OPTS=-Xmx8g}. */
  private static final Pattern STATED_HEAP = Pattern.compile("(?m)^#.*FABEMU_JAVA_OPTS=-Xmx(\\d+)g\\b");

  private static List<Path> examples() throws IOException {
    try (Stream<Path> files = Files.list(EXAMPLES)) {
      return files.filter(f -> f.getFileName().toString().endsWith(".conf")).sorted().toList();
    }
  }

  /** Validation runs nothing. */
  @Override
  protected ScenarioExecutor executor() {
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
      // The heap check depends on the machine's memory: held below, to a fixed budget, instead.
      int code = fabemu("validate", example.toString(), "--skip-estimate");
      if (name.startsWith("bad-")) {
        assertThat(code).as("%s: %s", name, stderr).isEqualTo(2);
        assertThat(lines(stderr)).as(name).hasSize(1);
      } else {
        assertThat(code).as("%s: %s", name, stderr).isZero();
        assertThat(stdout).as(name).startsWith("OK: " + example);
      }
    }
  }

  /**
   * Every example runs on the default heap of a 16 GiB machine (a quarter of it) as the CLI runs it (real data as far
   * as that heap holds it, sizes only beyond: {@link PayloadFit}), so the documented command is never refused; one
   * whose header says which -Xmx checks every size on real data needs it and is enough by the pre-flight estimate.
   */
  @Test
  void shouldRunEveryExampleInALaptopsHeapAndNeedTheHeapItsHeaderStatesForRealDataAtEverySize() throws IOException {
    for (Path example : examples()) {
      String name = example.getFileName().toString();
      if (name.equals(COSTS) || name.startsWith("bad-")) continue;
      ScenarioSpec spec = ScenarioLoader.load(example).spec();
      ScenarioSpec asRun = PayloadFit.fit(spec, 1, false, LAPTOP_HEAP_BYTES, LAPTOP_HEAP_BYTES).spec();
      assertThat(ResourceEstimate.of(asRun).heapBytes())
          .as("%s: the estimate of the run as the CLI runs it against a 16 GiB machine's default heap", name)
          .isLessThanOrEqualTo(LAPTOP_HEAP_BYTES);
      long heap = ResourceEstimate.of(spec).heapBytes();
      Matcher stated = STATED_HEAP.matcher(Files.readString(example));
      if (stated.find()) {
        long statedBytes = Long.parseLong(stated.group(1)) << 30;
        assertThat(heap).as("%s: the estimate against the -Xmx its header states", name).isLessThan(statedBytes);
        assertThat(heap).as("%s: states an -Xmx it does not need", name).isGreaterThan(LAPTOP_HEAP_BYTES);
      } else {
        assertThat(heap).as("%s: real data at every size above a 16 GiB machine's default heap; state the -Xmx that "
            + "checks every size in its header", name).isLessThanOrEqualTo(LAPTOP_HEAP_BYTES);
      }
    }
  }

  @Test
  void shouldLoadTheCostConfigurationExampleAsOne() {
    assertThat(OpticalCostsLoader.load(EXAMPLES.resolve(COSTS))).isNotNull();
  }
}
