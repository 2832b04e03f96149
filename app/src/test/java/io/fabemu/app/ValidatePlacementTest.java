package io.fabemu.app;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** {@code fabemu validate FILE --members N}: what the placement on N members cuts, after the estimate. */
class ValidatePlacementTest extends CliTestBase {

  private static final String TORUS = "../examples/torus-allreduce.conf";
  private static final String PLACED = "../examples/placement-override.conf";

  @Override
  protected ScenarioExecutor executor() {
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
    assertThat(stdout.lines().toList().get(stdout.lines().toList().size() - 4)).isEqualTo("placement: automatic");
    assertThat(stdout.lines().toList().get(stdout.lines().toList().size() - 5)).startsWith("# Estimate: ");
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

  @Test
  void shouldSayThePlacementComesFromTheScenarioAndReportItsCut() {
    assertThat(fabemu("validate", PLACED, "--members", "2")).isZero();
    // tor0..tor3 with spine0 and the automatic plan's pick for spine2 (the member with fewer devices, member 0 by the
    // tie) on member 0; tor4..tor7, spine1 and spine3 on member 1: each TOR's links to the other member's 2 spines.
    assertThat(stdout.lines().toList()).endsWith(
        "placement: from cluster.placement (../examples/placement-override.conf:28)",
        "member 0: 38 devices, 32 cut links, cut lookahead 1100 ns",
        "member 1: 38 devices, 32 cut links, cut lookahead 1100 ns",
        "total: 32 of 128 links cut, cut lookahead 1100 ns");
    assertThat(stderr).isEmpty();
  }

  @Test
  void shouldRefuseInOneLineAMemberCountOtherThanThePlacementsNamingBoth() {
    assertThat(fabemu("validate", PLACED, "--members", "3")).isEqualTo(2);
    assertThat(stdout).isEmpty();
    assertThat(stderr.lines().toList()).containsExactly("../examples/placement-override.conf:28: cluster.placement: "
        + "lists 2 members, but the run is on 3 (--members 3); list one per member, or run on 2");
  }

  @Test
  void shouldWarnThatOneMemberHostsEverythingWhenThePlacementListsSeveral() {
    assertThat(fabemu("validate", PLACED)).isZero();
    assertThat(stderr.lines().toList()).containsExactly("fabemu: warning: cluster.placement lists 2 members; this "
        + "run is on one, which hosts every device (the placement applies to --members 2)");
    assertThat(stdout).doesNotContain("placement:");
  }
}
