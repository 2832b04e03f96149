package io.fabemu.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabemu.cluster.scenario.MemberHeapEstimate;
import io.fabemu.cluster.scenario.ResourceEstimate;
import io.fabemu.cluster.scenario.ScenarioLoader;
import io.fabemu.fabric.ScenarioSpec;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The pre-flight estimate in the CLI: scenarios at the documented limits (4,194,304 ranks, {@code ppn = 4096}) are
 * refused by {@code run} and {@code sweep} with one line and exit code 2 before the output folder
 * exists, {@code validate} prints the estimate, and {@link RunSupport#checkEstimate} refuses, warns and skips as its
 * contract says.
 */
class PreflightEstimateTest extends CliTestBase {

  @Override
  protected ScenarioExecutor executor() {
    return (spec, topology, listener) -> {
      throw new AssertionError("a refused scenario must not run");
    };
  }

  /** The scenario at one of the documented limits, written into the test's folder. */
  private Path limitScenario(String which) throws IOException {
    String topology;
    String workload;
    switch (which) {
      case "ranks":
        topology = "kind = leaf-spine, hosts = 1048576, hosts-per-tor = 64, spines = 2";
        workload = "collective = allreduce, algorithms = [ring], sizes = [1 MiB], ppn = 4";
        break;
      default:
        topology = "kind = leaf-spine, hosts = 16, hosts-per-tor = 4, spines = 2";
        workload = "collective = allreduce, algorithms = [ring], sizes = [1 MiB], ppn = 4096";
    }
    Path file = dir.resolve(which + ".conf");
    Files.writeString(file, "name = limit-" + which + "\ntopology { " + topology + " }\nworkload { " + workload
        + " }\n");
    return file;
  }

  // 20,000 sizes on real data (the third documented limit) no longer need refusing: they run on sizes only from
  // the heap's budget (PayloadFitTest).
  @ParameterizedTest
  @ValueSource(strings = {"ranks", "ppn"})
  void runShouldRefuseALimitScenarioInOneLineBeforeMakingTheOutputFolder(String which) throws IOException {
    Path scenario = limitScenario(which);
    Path out = dir.resolve("out-" + which);

    assertThat(fabemu("run", scenario.toString(), "--out", out.toString(), "--no-progress")).isEqualTo(2);

    assertThat(stderr.lines().toList()).hasSize(1).first().asString()
        .startsWith("fabemu: " + scenario + ": needs about ")
        .contains(" of heap, this JVM has ")
        .endsWith("; raise -Xmx (FABEMU_JAVA_OPTS) or shrink ranks, sizes or iterations (--skip-estimate runs it "
            + "anyway)");
    assertThat(stdout).isEmpty();
    assertThat(out).doesNotExist();
  }

  @Test
  void sweepShouldRefuseALimitPointBeforeMakingTheOutputFolder() throws IOException {
    Path scenario = limitScenario("ppn");
    Path out = dir.resolve("sweep-out");

    assertThat(fabemu("sweep", scenario.toString(), "--vary", "workload.iterations=1,2", "--out", out.toString()))
        .isEqualTo(2);

    assertThat(stderr.lines().toList()).hasSize(1).first().asString()
        .startsWith("fabemu: " + scenario + ": needs about ");
    assertThat(out).doesNotExist();
  }

  @Test
  void validateShouldRefuseALimitScenarioInOneLineAndPrintItsEstimateWithSkipEstimate() throws IOException {
    Path scenario = limitScenario("ppn");

    assertThat(fabemu("validate", scenario.toString())).isEqualTo(2);
    assertThat(stderr.lines().toList()).hasSize(1).first().asString()
        .startsWith("fabemu: " + scenario + ": needs about ").contains(" of heap, this JVM has ");
    assertThat(stdout).isEmpty();

    // As `run --members N` would: each JVM's share.
    assertThat(fabemu("validate", scenario.toString(), "--members", "2")).isEqualTo(2);
    assertThat(stderr.lines().toList()).hasSize(1).first().asString().contains(" of heap per member on 2 members");
    assertThat(fabemu("validate", scenario.toString(), "--members", "0")).isEqualTo(2);
    assertThat(stderr.lines().toList()).containsExactly("fabemu: --members must be at least 1, not 0");

    assertThat(fabemu("validate", scenario.toString(), "--skip-estimate")).isZero();
    ScenarioSpec spec = ScenarioLoader.load(scenario).spec();
    assertThat(stdout.lines().toList()).containsExactly(
        "OK: " + scenario + ": leaf-spine: 16 hosts, 4 TORs (4 hosts each), 2 spines, 65536 ranks, 1 cases",
        "cases: allreduce ring: 1 MiB (1 size)",
        "# Estimate: " + ResourceEstimate.of(spec).summary() + "; this JVM has "
            + ResourceEstimate.formatBytes(Runtime.getRuntime().maxMemory()) + "; too large even for 4 members of "
            + ResourceEstimate.formatBytes(Runtime.getRuntime().maxMemory()) + " (the most its placement allows)");
  }

  @Test
  void shouldLetTheQuickstartThroughOnTheDefaultHeapOfASmallContainer() {
    // A 1 GiB container's default heap is 256 MiB; the quickstart runs under -Xmx160m.
    ScenarioSpec spec = ScenarioLoader.load(Path.of("..", "examples", "quickstart.conf")).spec();

    assertThat(RunSupport.checkEstimate(spec, 1, false, 256L << 20)).isEmpty();
  }

  private static ScenarioSpec tiny() {
    return ScenarioLoader.parse(Fixtures.TINY_SCENARIO, "tiny.conf").spec();
  }

  @Test
  void shouldRefuseAboveTheHeapWarnAboveFourFifthsAndStayQuietBelow() {
    ScenarioSpec spec = tiny();
    long heap = ResourceEstimate.of(spec).heapBytes();

    assertThatThrownBy(() -> RunSupport.checkEstimate(spec, 1, false, heap - 1))
        .isInstanceOf(BadInputException.class).hasMessageStartingWith("tiny.conf: needs about ");
    List<String> warned = RunSupport.checkEstimate(spec, 1, false, heap);
    assertThat(warned).hasSize(1).first().asString().startsWith("fabemu: warning: tiny.conf: needs about ")
        .contains(", 100 % of this JVM's ");
    assertThat(RunSupport.checkEstimate(spec, 1, false, heap * 2)).isEmpty();
    // --skip-estimate checks nothing, even with no heap at all.
    assertThat(RunSupport.checkEstimate(spec, 1, true, 1)).isEmpty();
  }

  @Test
  void shouldCompareAMembersShareWithTheHeapOnSeveralMembers() {
    ScenarioSpec spec = ScenarioLoader.parse("""
        name = shared
        topology { kind = leaf-spine, hosts = 64, hosts-per-tor = 8, spines = 2 }
        workload { collective = allreduce, algorithms = [recursive-doubling], sizes = [16 MiB], ppn = 4 }
        """, "shared.conf").spec();
    MemberHeapEstimate perMember = MemberHeapEstimate.of(spec);
    long whole = perMember.estimate().heapBytes();
    long between = (whole + perMember.coordinatorHeapBytes(4)) / 2;

    assertThatThrownBy(() -> RunSupport.checkEstimate(spec, 1, false, between, between))
        .isInstanceOf(BadInputException.class).hasMessageContaining("; fits on 2 members of ");
    assertThat(RunSupport.checkEstimate(spec, 4, false, between, between)).hasSizeLessThanOrEqualTo(1);
    assertThat(perMember.coordinatorHeapBytes(4)).isLessThan(whole / 2);
    // The members' own heap counts for their share, this JVM's for its share and the results.
    // 8 TORs: 2 each on 4 to 7 members, 1 on 8.
    assertThatThrownBy(() -> RunSupport.checkEstimate(spec, 4, false, perMember.coordinatorHeapBytes(4),
        perMember.memberHeapBytes(4) - 1)).isInstanceOf(BadInputException.class)
        .hasMessageContaining(" of heap per member on 4 members, the member JVMs have ")
        .hasMessageContaining("; fits on 8 members of ");
    assertThatThrownBy(() -> RunSupport.checkEstimate(spec, 4, false, perMember.coordinatorHeapBytes(4) - 1, whole))
        .isInstanceOf(BadInputException.class).hasMessageContaining(", this JVM has ");
    assertThat(RunSupport.checkEstimate(spec, 4, false, whole, perMember.memberHeapBytes(4))).first().asString()
        .contains(" of heap per member on 4 members, 100 % of the member JVMs' ");
  }

  @Test
  void shouldSayOnHowManyMembersOfTheHeapALargeRingFits() {
    // The large ring that was reported: 4,096 ranks of 1 MiB with real data, 128 TORs.
    ScenarioSpec spec = ScenarioLoader.parse("""
        name = ring-4096x1MiB
        topology { kind = leaf-spine, hosts = 4096, hosts-per-tor = 32, spines = 16 }
        workload { collective = allreduce, algorithms = [ring], sizes = [1 MiB], iterations = 1, warmup = 0, \
        payload = real }
        """, "ring.conf").spec();

    assertThatThrownBy(() -> RunSupport.checkEstimate(spec, 1, false, 6L << 30, 6L << 30))
        .hasMessage("ring.conf: needs about 26 GiB of heap, this JVM has 6.0 GiB; fits on 5 members of 6.0 GiB "
            + "(--members 5), or raise -Xmx (FABEMU_JAVA_OPTS) or shrink ranks, sizes or iterations (--skip-estimate "
            + "runs it anyway)");
    assertThatThrownBy(() -> RunSupport.checkEstimate(spec, 4, false, 8L << 30, 4L << 30))
        .hasMessage("ring.conf: needs about 6.6 GiB of heap per member on 4 members, the member JVMs have 4.0 GiB; "
            + "fits on 7 members of 4.0 GiB (--members 7), or raise -Xmx (FABEMU_MEMBER_JAVA_OPTS) or shrink ranks, "
            + "sizes or iterations (--skip-estimate runs it anyway)");
    assertThatThrownBy(() -> RunSupport.checkEstimate(spec, 4, false, 64L << 20, 64L << 20))
        .hasMessageContaining("; too large even for 128 members of 64 MiB (the most its placement allows); ");
    assertThat(RunSupport.checkEstimate(spec, 8, false, 8L << 30, 8L << 30)).isEmpty();

    // validate's estimate line ends with the same figures.
    MemberHeapEstimate perMember = MemberHeapEstimate.of(spec);
    assertThat(RunSupport.memberFigures(perMember, 1, 32L << 30, 32L << 30)).isEmpty();
    assertThat(RunSupport.memberFigures(perMember, 1, 6L << 30, 6L << 30))
        .isEqualTo("; fits on 5 members of 6.0 GiB (--members 5)");
    assertThat(RunSupport.memberFigures(perMember, 4, 8L << 30, 4L << 30)).isEqualTo("; on 4 members about 6.6 GiB "
        + "per member JVM, 6.6 GiB in this one; fits on 7 members of 4.0 GiB (--members 7)");
    assertThat(RunSupport.memberFigures(perMember, 8, 8L << 30, 8L << 30))
        .isEqualTo("; on 8 members about 3.3 GiB per member JVM, 3.3 GiB in this one");
  }

  @Test
  void shouldWarnOfALongRun() {
    ScenarioSpec spec = ScenarioLoader.parse("""
        name = long
        topology { kind = leaf-spine, hosts = 1024, hosts-per-tor = 32, spines = 4 }
        workload { collective = allreduce, algorithms = [ring], sizes = [4 KiB], iterations = 1000, warmup = 0 }
        """, "long.conf").spec();
    List<String> warnings = RunSupport.checkEstimate(spec, 1, false, Long.MAX_VALUE);

    assertThat(ResourceEstimate.of(spec).seconds()).isGreaterThan(RunSupport.LONG_RUN_SECONDS);
    assertThat(warnings).containsExactly(
        "fabemu: warning: long.conf: a long run: " + ResourceEstimate.of(spec).summary());
  }
}
