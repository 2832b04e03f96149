package io.fabemu.app.sweep;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

class SweepPlanTest {

  @Test
  void shouldSplitOnlyAtCommasOutsideBracketsBracesParenthesesAndQuotes() {
    assertThat(SweepPlan.splitTopLevel("8,16")).containsExactly("8", "16");
    assertThat(SweepPlan.splitTopLevel("[4 B, 1 MiB],[64 B]")).containsExactly("[4 B, 1 MiB]", "[64 B]");
    assertThat(SweepPlan.splitTopLevel("{ a = 1, b = [2, 3] }, {a = 4}")).containsExactly("{ a = 1, b = [2, 3] }",
        " {a = 4}");
    assertThat(SweepPlan.splitTopLevel("\"x, y\",\"say \\\"a, b\\\"\",z")).containsExactly("\"x, y\"",
        "\"say \\\"a, b\\\"\"", "z");
    assertThatThrownBy(() -> SweepPlan.splitTopLevel("[1, 2")).hasMessage("'[' is not closed");
    assertThatThrownBy(() -> SweepPlan.splitTopLevel("1]")).hasMessage("unbalanced ']'");
    assertThatThrownBy(() -> SweepPlan.splitTopLevel("[1}")).hasMessage("unbalanced '}'");
    assertThatThrownBy(() -> SweepPlan.splitTopLevel("\"open")).hasMessage("a quote is not closed");
  }

  @Test
  void shouldParseEachValueAsHocon() {
    SweepPlan.Variation v = SweepPlan.parse("workload.sizes = [4 B, 1 MiB], [64 B]");

    assertThat(v.keyPath()).isEqualTo("workload.sizes");
    assertThat(v.values()).extracting(SweepPlan.Value::text).containsExactly("[4 B, 1 MiB]", "[64 B]");
    assertThat(v.values().get(0).value().unwrapped()).isEqualTo(List.of("4 B", "1 MiB"));
    assertThat(SweepPlan.parse("topology.hosts=8,16").values().get(1).value().unwrapped()).isEqualTo(16);
  }

  @Test
  void shouldNameTheVaryInEveryErrorOnOneLine() {
    assertThatThrownBy(() -> SweepPlan.parse("topology.hosts")).hasMessage("--vary 'topology.hosts': expected "
        + "KEY.PATH=V1,V2,..., e.g. topology.hosts=8,16");
    assertThatThrownBy(() -> SweepPlan.parse("9hosts=1")).hasMessage("--vary '9hosts=1': '9hosts' is not a key "
        + "path such as topology.hosts");
    assertThatThrownBy(() -> SweepPlan.parse("topology.hosts=")).hasMessage("--vary 'topology.hosts=': no value "
        + "after '='");
    assertThatThrownBy(() -> SweepPlan.parse("topology.hosts=8,,16")).hasMessage("--vary 'topology.hosts=8,,16': "
        + "value 2 is empty");
    assertThatThrownBy(() -> SweepPlan.parse("topology.hosts=8,16,8")).hasMessage("--vary 'topology.hosts=8,16,8': "
        + "'8' is given twice");
    assertThatThrownBy(() -> SweepPlan.parse("workload.sizes=[4 B")).hasMessage("--vary 'workload.sizes=[4 B': "
        + "'[' is not closed");
    assertThatThrownBy(() -> SweepPlan.parse("seed=1,2\nname = x")).hasMessageStartingWith("--vary 'seed=1,2\nname "
        + "= x': '2\nname = x': ");
  }

  @Test
  void shouldRefuseAKeyVariedTwiceOrInsideAnotherAndTooManyPoints() {
    assertThatThrownBy(() -> SweepPlan.of(List.of("topology.hosts=8,16", "topology.hosts=4")))
        .hasMessage("--vary 'topology.hosts=4': topology.hosts is already varied by --vary 'topology.hosts=8,16'");
    assertThatThrownBy(() -> SweepPlan.of(List.of("topology={ hosts = 4 }", "topology.hosts=4")))
        .hasMessage("--vary 'topology.hosts=4': topology.hosts overlaps topology, which is already varied by --vary "
            + "'topology={ hosts = 4 }'");
    String thirtyTwo = String.join(",", java.util.stream.IntStream.rangeClosed(1, 32).mapToObj(Integer::toString)
        .toList());
    assertThatThrownBy(() -> SweepPlan.of(List.of("seed=" + thirtyTwo, "workload.iterations=" + thirtyTwo)))
        .hasMessage("--vary: the sweep has more than 1000 points (32 x 32)");
    assertThat(SweepPlan.of(List.of("seed=" + thirtyTwo, "workload.iterations=" + thirtyTwo.substring(0,
        thirtyTwo.indexOf(",31"))))).extracting(p -> p.points().size()).isEqualTo(960);
  }

  @Test
  void shouldOrderThePointsAsNestedLoopsWithTheLastVaryFastest() {
    SweepPlan plan = SweepPlan.of(List.of("topology.hosts=8,16", "workload.algorithms=[ring],[ring, rabenseifner]",
        "seed=1,2"));

    assertThat(plan.points()).hasSize(8);
    assertThat(plan.points()).extracting(SweepPlan.Point::label).startsWith(
        "topology.hosts=8, workload.algorithms=[ring], seed=1",
        "topology.hosts=8, workload.algorithms=[ring], seed=2",
        "topology.hosts=8, workload.algorithms=[ring, rabenseifner], seed=1");
    assertThat(plan.points().get(7).label())
        .isEqualTo("topology.hosts=16, workload.algorithms=[ring, rabenseifner], seed=2");
    assertThat(plan.points()).extracting(SweepPlan.Point::number).containsExactly(1, 2, 3, 4, 5, 6, 7, 8);
    assertThat(plan.keys()).containsExactly("topology.hosts", "workload.algorithms", "seed");
    assertThat(plan.points().get(3).config().getStringList("workload.algorithms"))
        .containsExactly("ring", "rabenseifner");
    assertThat(plan.points().get(3).config().getInt("topology.hosts")).isEqualTo(8);
    assertThat(plan.points().get(3).config().getValue("topology.hosts").origin().description())
        .contains("--vary topology.hosts=8");
  }

  @Test
  void shouldNameFoldersByNumberAndAssignmentsWithUnsafeCharactersReplaced() {
    SweepPlan plan = SweepPlan.of(List.of("topology.hosts=8,16", "workload.sizes=[4 B, 1 MiB],\"a/b\""));

    assertThat(plan.numberDigits()).isEqualTo(1);
    assertThat(plan.points().get(0).folderName(2)).isEqualTo("01-topology.hosts=8,workload.sizes=_4_B__1_MiB_");
    assertThat(plan.points().get(1).folderName(1)).isEqualTo("2-topology.hosts=8,workload.sizes=_a_b_");
    SweepPlan longValues = SweepPlan.of(List.of("name=\"" + "x".repeat(200) + "\""));
    assertThat(longValues.points().get(0).folderName(1)).hasSize(SweepPlan.MAX_FOLDER_CHARS).startsWith("1-name=_x");
  }
}
