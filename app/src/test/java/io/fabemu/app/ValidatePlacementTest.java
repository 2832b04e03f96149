package io.fabemu.app;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** {@code fabemu validate FILE --members N}: what the placement on N members cuts, after the estimate. */
class ValidatePlacementTest extends CliTestBase {

  private static final String TORUS = "../examples/torus-allreduce.conf";

  @Override
  Main.ScenarioExecutor executor() {
    return (spec, topology, listener) -> {
      throw new AssertionError("validate runs nothing");
    };
  }

  @Test
  void shouldPrintEachMembersDevicesCutLinksAndLookaheadThenTheTotalWhenTorusOnTwoMembers() {
    assertThat(fabemu("validate", TORUS, "--members", "2")).isZero();
    // 4x4x4 torus in slabs z = 0-1 | 2-3: 32 cables cut (16 between z = 1 and 2, 16 wrapping), 64 directed links of
    // 512 (64 host cables + 192 router cables); 96 devices each; the router fabric's lookahead, half a 1 GHz cycle.
    assertThat(stdout.lines().toList()).endsWith(
        "member 0: 96 devices, 64 cut links, cut lookahead 0.5 ns",
        "member 1: 96 devices, 64 cut links, cut lookahead 0.5 ns",
        "total: 64 of 512 links cut, cut lookahead 0.5 ns");
    assertThat(stdout.lines().toList().get(stdout.lines().toList().size() - 4)).startsWith("# Estimate: ");
  }

  @Test
  void shouldPrintNoPlacementWhenOneMember() {
    assertThat(fabemu("validate", TORUS)).isZero();
    assertThat(stdout).doesNotContain("cut links");
  }

  @Test
  void shouldRefuseInOneLineMoreMembersThanNodes() {
    assertThat(fabemu("validate", TORUS, "--members", "65")).isEqualTo(2);
    assertThat(stdout).isEmpty();
    assertThat(stderr.lines().toList()).hasSize(1).first().asString().startsWith("fabemu: --members 65: ")
        .contains("at most 64");
  }
}
