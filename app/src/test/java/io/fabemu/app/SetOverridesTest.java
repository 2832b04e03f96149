package io.fabemu.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import io.fabemu.app.sweep.SweepPlan;
import io.fabemu.collectives.Algorithm;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** {@code --set KEY.PATH=VALUE} on run, validate and osu-allreduce: laid over the file, checked like it. */
class SetOverridesTest extends CliTestBase {

  private final Fixtures.FakeExecutor executor = new Fixtures.FakeExecutor();

  @Override
  protected ScenarioExecutor executor() {
    return executor;
  }

  @Test
  void shouldLaySetValuesOverTheScenarioFileWhenRunning() throws Exception {
    assertThat(fabemu("run", tinyScenario().toString(), "--no-progress", "--set", "workload.iterations=5",
        "--set", "workload.algorithms=[rabenseifner]", "--set", "topology.hosts=4",
        "--set", "topology.hosts-per-tor=4")).isZero();

    assertThat(executor.ranSpec.workload().iterations()).isEqualTo(5);
    assertThat(executor.ranSpec.workload().algorithms()).containsExactly(Algorithm.RABENSEIFNER);
    assertThat(executor.ranSpec.topology().hosts()).isEqualTo(4);
  }

  @Test
  void shouldLetTheLastSetOfAKeyWin() throws Exception {
    assertThat(fabemu("validate", tinyScenario().toString(), "--set", "topology.hosts=4", "--set",
        "topology.hosts=2")).isZero();
    assertThat(stdout).contains("2 ranks");
  }

  @Test
  void shouldTakeQuotedAndUnitValuesAsTheFileDoes() throws Exception {
    assertThat(fabemu("run", tinyScenario().toString(), "--no-progress", "--set", "workload.sizes=[8 B, \"1 KiB\"]"))
        .isZero();
    assertThat(executor.ranSpec.workload().sizesBytes()).containsExactly(8L, 1024L);
  }

  @Test
  void shouldReplaceTheRangeOfAnIncludedFileWithAListAndTheReverse() throws Exception {
    java.nio.file.Files.writeString(dir.resolve("base.conf"), Fixtures.TINY_SCENARIO.replace("sizes = [4 B, 64 B]",
        "min-size = 4 B, max-size = 1MB"));
    java.nio.file.Path ranged = dir.resolve("ranged.conf");
    java.nio.file.Files.writeString(ranged, "include \"base.conf\"\nname = ranged\n");
    assertThat(fabemu("validate", ranged.toString())).as(stderr).isZero();
    // 1MB is 10^6 B: the doublings stop at 512 KiB, and validate says so.
    assertThat(stdout).contains("cases: allreduce ring, recursive-doubling: 4 B, 8 B, ..., 512 KiB (18 sizes, x2 "
        + "each)");

    assertThat(fabemu("validate", ranged.toString(), "--set", "workload.sizes=[8,16]")).as(stderr).isZero();
    assertThat(stdout).contains("cases: allreduce ring, recursive-doubling: 8 B, 16 B (2 sizes)");
    assertThat(fabemu("validate", tinyScenario().toString(), "--set", "workload.max-size=16 B")).as(stderr).isZero();
    assertThat(stdout).contains("cases: allreduce ring, recursive-doubling: 4 B, 8 B, 16 B (3 sizes)");
    // Both forms on the command line: one line naming the assignment, exit 2.
    assertThat(fabemu("validate", tinyScenario().toString(), "--set", "workload.sizes=[8]", "--set",
        "workload.max-size=16 B")).isEqualTo(2);
    assertThat(stderr.lines().toList()).containsExactly("fabemu validate: --set workload.sizes=[8]: give either sizes "
        + "or min-size/max-size, not both (see 'fabemu validate --help')");
  }

  @Test
  void shouldNameTheAssignmentWhenTheLoaderRefusesItsValue() throws Exception {
    assertThat(fabemu("validate", tinyScenario().toString(), "--set", "workload.iterations=-3")).isEqualTo(2);
    assertThat(stderr.lines().toList()).hasSize(1);
    assertThat(stderr).startsWith("fabemu validate: --set workload.iterations=-3: ");
  }

  @Test
  void shouldSuggestTheKeyWhenASetKeyIsMisspelt() throws Exception {
    assertThat(fabemu("run", tinyScenario().toString(), "--set", "workload.iteratons=2")).isEqualTo(2);
    assertThat(stderr.lines().toList()).hasSize(1);
    assertThat(stderr).contains("--set workload.iteratons=2").contains("iterations");
    assertThat(executor.ranSpec).isNull();
  }

  @Test
  void shouldRefuseMalformedAssignmentsInOneLine() throws Exception {
    for (List<String> args : List.of(List.of("--set", "workload.iterations"), List.of("--set", "=3"),
        List.of("--set", "workload..x=1"), List.of("--set", "workload.iterations="),
        List.of("--set", "workload.iterations=[1"), List.of("--set", "workload.iterations=2\nworkload.warmup = 0"))) {
      String[] line = List.of(List.of("validate", tinyScenario().toString()), args).stream()
          .flatMap(List::stream).toArray(String[]::new);
      assertThat(fabemu(line)).as(String.join(" ", args)).isEqualTo(2);
      assertThat(stderr.lines().toList()).as(stderr).hasSize(1);
      assertThat(stderr).startsWith("fabemu validate: --set '");
    }
  }

  @Test
  void shouldSetNothingWhenAValueIsAnUnsetOptionalSubstitution() throws Exception {
    // As 'seed = ${?FABEMU_UNSET_X}' in the file: the key keeps its value. It was refused, "one HOCON value".
    assertThat(fabemu("run", tinyScenario().toString(), "--no-progress", "--set", "seed=${?FABEMU_UNSET_X}"))
        .as(stderr).isZero();
    assertThat(executor.ranSpec.seed()).isEqualTo(42);
    assertThat(fabemu("run", tinyScenario().toString(), "--no-progress", "--set", "seed=7", "--set",
        "seed=${?FABEMU_UNSET_X}")).as(stderr).isZero();
    assertThat(executor.ranSpec.seed()).isEqualTo(7);
    // A sweep point needs a value.
    assertThatThrownBy(() -> SweepPlan.parse("seed=1,${?FABEMU_UNSET_X}")).hasMessage("--vary "
        + "'seed=1,${?FABEMU_UNSET_X}': '${?FABEMU_UNSET_X}': it gives no value: its optional substitutions (${?NAME}) "
        + "name no environment variable that is set");
  }

  @Test
  void shouldRefuseASetValueWhoseSubstitutionsExpandExponentially() {
    // Resolved, the value of a30 is 4 GiB of text: the library ran out of memory.
    StringBuilder value = new StringBuilder("name={a0 = xxxx");
    for (int i = 1; i <= 30; i++) value.append(", a").append(i).append(" = ${v.a").append(i - 1).append("}${v.a")
        .append(i - 1).append("}");
    value.append("}");
    assertThat(assertTimeoutPreemptively(Duration.ofSeconds(10), () -> fabemu("validate", tinyScenario().toString(),
        "--set", value.toString()))).isEqualTo(2);
    assertThat(stderr).isEqualTo("fabemu validate: --set '" + value + "': with it, the substitutions of the scenario "
        + "expand to more than 4194304 characters in all (the limit of a scenario file) (see 'fabemu validate "
        + "--help')" + System.lineSeparator());
  }

  @Test
  void shouldLetOsuAllreduceOptionsWinOverSet() throws Exception {
    assertThat(fabemu("osu-allreduce", "--profile", tinyProfile().toString(), "--nodes", "2", "--ppn", "1",
        "--mode", "host", "-m", "4:8", "--no-progress", "--set", "topology.hosts=4",
        "--set", "devices.switch.pipeline-latency=700 ns")).isZero();
    assertThat(executor.ranSpec.topology().hosts()).isEqualTo(2);
    assertThat(executor.ranSpec.devices().switchSpec().pipelineLatencyPs()).isEqualTo(700_000L);
  }
}
