package io.fabemu.cluster.scenario;

import static io.fabemu.cluster.scenario.DocTableBounds.bytesRange;
import static io.fabemu.cluster.scenario.DocTableBounds.count;
import static io.fabemu.cluster.scenario.DocTableBounds.powerOfTen;
import static io.fabemu.cluster.scenario.DocTableBounds.problems;
import static io.fabemu.cluster.scenario.DocTableBounds.range;
import static io.fabemu.cluster.scenario.DocTableBounds.rate;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabemu.cluster.scenario.DocTableBounds.Bound;
import java.util.List;
import org.junit.jupiter.api.Test;

/** {@link DocTableBounds} finds a bound a page's table lacks, so {@link DocumentedLimitsTest} can fail. */
class DocTableBoundsTest {
  private static final String LIMITS = "## Limits";

  @Test
  void shouldReportARowWhenItStatesAnotherBound() {
    String fixture = """
        ## Limits

        | What | Limit | Why |
        |---|---|---|
        | `topology.hosts` | 1,048,576 | devices and their state are in memory |
        | `workload.window` | 65,536 | |
        | `ethernet.traffic.inbound-frames` | 0..1,000,000 | |
        """;
    assertThat(problems(fixture, List.of(new Bound("fixture", LIMITS, "`topology.hosts`", count(1 << 20)),
        new Bound("fixture", LIMITS, "`workload.window`", count(65_536))))).isEmpty();
    // A deliberately wrong bound: the row says 65,536.
    assertThat(problems(fixture, List.of(new Bound("ScenarioLoader.MAX_WINDOW", LIMITS, "`workload.window`",
        count(65_537))))).singleElement().asString()
        .contains("does not state '65,537' (ScenarioLoader.MAX_WINDOW)", "| `workload.window` | 65,536 |");
  }

  @Test
  void shouldReportABoundWhenItIsOnlyPartOfALargerNumber() {
    String fixture = """
        ## Limits

        | What | Limit | Why |
        |---|---|---|
        | `ethernet.traffic.inbound-frames` | 0..1,000,000 | |
        | `rings.search-steps` | 10⁹⁰ | |
        """;
    assertThat(problems(fixture, List.of(
        new Bound("a", LIMITS, "`ethernet.traffic.inbound-frames`", "0..1,000"),
        new Bound("b", LIMITS, "`ethernet.traffic.inbound-frames`", "000,000"),
        new Bound("c", LIMITS, "`rings.search-steps`", powerOfTen(1_000_000_000L))))).hasSize(3);
  }

  @Test
  void shouldReportAMissingRowOrHeadingWhenTheDocsLackThem() {
    String fixture = """
        ## `ethernet`

        | key | default | meaning |
        |---|---|---|
        | `external-hosts` | `4` | hosts on the Ethernet side, 1..65,536 |

        ```
        ## `ethernet` inside a code block is no heading
        | `traffic.inbound-frames` | `20` | 0..1,000,000 |
        ```
        """;
    assertThat(problems(fixture, List.of(new Bound("a", "## `ethernet`", "`external-hosts`", "1..65,536"))))
        .isEmpty();
    assertThat(problems(fixture, List.of(new Bound("a", "## `ethernet`", "`traffic.inbound-frames`", "0..1,000,000"),
        new Bound("b", "## `rings`", "`max-rings`", "0..1,024")))).hasSize(2);
  }

  @Test
  void shouldFormatNumbersAsTheDocsWriteThem() {
    assertThat(count(1_048_576)).isEqualTo("1,048,576");
    assertThat(count(64)).isEqualTo("64");
    assertThat(range(1, 65_536)).isEqualTo("1..65,536");
    assertThat(bytesRange(1, 64 << 10)).isEqualTo("1 B..64 KiB");
    assertThat(powerOfTen(1_000_000_000L)).isEqualTo("10⁹");
    assertThat(rate(10_000_000_000_000L)).isEqualTo("10 Tbps");
  }

  @Test
  void shouldRefuseANumberTheDocsWouldNotWriteThatWay() {
    assertThatThrownBy(() -> powerOfTen(2_000_000_000L)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> rate(2_500_000_000L)).isInstanceOf(IllegalArgumentException.class);
  }
}
