package io.fabemu.cluster.scenario;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.typesafe.config.ConfigRenderOptions;
import io.fabemu.core.placement.PlacementOverride;
import java.util.List;
import org.assertj.core.api.AbstractThrowableAssert;
import org.junit.jupiter.api.Test;

/** The {@code cluster} section: {@code cluster.placement} read into the spec, and its one-line refusals. */
class ScenarioLoaderClusterTest {
  /** 16 hosts under tor0..tor3, spines spine0 and spine1. */
  private static final String LEAF_SPINE = "topology { kind = leaf-spine, hosts = 16, hosts-per-tor = 4 }\n";

  private static LoadedScenario parse(String text) {
    return ScenarioLoader.parse(text, "x.conf");
  }

  /** An error, checked to be one line that starts with the file and a line. */
  private static AbstractThrowableAssert<?, ? extends Throwable> assertError(String text) {
    return assertThatThrownBy(() -> parse(text)).isInstanceOf(ScenarioException.class)
        .satisfies(e -> assertThat(e.getMessage()).doesNotContain("\n").startsWith("x.conf:"));
  }

  @Test
  void shouldHaveNoPlacementWhenTheScenarioWritesNone() {
    LoadedScenario loaded = parse(LEAF_SPINE);
    assertThat(loaded.spec().placement()).isNull();
    assertThat(loaded.config().hasPath("cluster")).as("left out of the echo").isFalse();
    assertThat(parse(LEAF_SPINE + "cluster.placement = []\n").spec().placement()).isNull();
  }

  @Test
  void shouldReadEachMembersNamesAndGlobsWithTheKeysLine() {
    PlacementOverride placement = parse(LEAF_SPINE + "cluster {\n  placement = [\n    [\"tor0\", \"tor1\", "
        + "\"spine0\"],\n    [\" tor2 \", \"tor3\", \"spine1*\"]\n  ]\n}\n").spec().placement();
    assertThat(placement.members()).containsExactly(List.of("tor0", "tor1", "spine0"),
        List.of("tor2", "tor3", "spine1*"));
    assertThat(placement.file()).isEqualTo("x.conf");
    assertThat(placement.line()).isEqualTo(3);
  }

  @Test
  void shouldEchoThePlacementSoThatTheEchoLoadsToAnEqualOne() {
    LoadedScenario loaded = parse(LEAF_SPINE + "cluster.placement = [[\"tor0\", \"tor1\"], [\"tor2\", \"tor3\"]]\n");
    String echoed = loaded.config().root().render(ConfigRenderOptions.concise());
    assertThat(ScenarioLoader.parse(echoed, "echo.conf").spec().placement()).isEqualTo(loaded.spec().placement());
  }

  @Test
  void shouldRefuseANameThatMatchesNoDeviceAtItsEntry() {
    assertError(LEAF_SPINE + "cluster.placement = [\n  [\"tor0\"],\n  [\"tor1\", \"tor7\"]\n]\n")
        .hasMessageStartingWith("x.conf:4: cluster.placement[1][1]: 'tor7' names no device of ");
  }

  @Test
  void shouldRefuseAGlobThatMatchesNothing() {
    assertError(LEAF_SPINE + "cluster.placement = [[\"leaf*\"], [\"tor1\"]]\n")
        .hasMessageStartingWith("x.conf:2: cluster.placement[0][0]: 'leaf*' names no device of ");
  }

  @Test
  void shouldRefuseAGroupNamedOnTwoMembers() {
    assertError(LEAF_SPINE + "cluster.placement = [\n  [\"tor*\"],\n  [\"host5\"]\n]\n")
        .hasMessage("x.conf:4: cluster.placement[1][0]: 'host5' names host5, whose placement group (tor1 and its 8 "
            + "other devices) member 0 already has (cluster.placement[0][0] 'tor*'); a group is never split");
  }

  @Test
  void shouldRefuseAnEmptyMember() {
    assertError(LEAF_SPINE + "cluster.placement = [\n  [\"tor0\"],\n  []\n]\n")
        .hasMessage("x.conf:4: cluster.placement[1]: member 1 lists no device; every member needs one (or list "
            + "fewer members)");
  }

  @Test
  void shouldRefuseSomethingOtherThanListsOfNames() {
    assertError(LEAF_SPINE + "cluster.placement = \"tor0\"\n")
        .hasMessageStartingWith("x.conf:2: cluster.placement: expected a list such as [[");
    assertError(LEAF_SPINE + "cluster.placement = [\"tor0\"]\n")
        .hasMessageStartingWith("x.conf:2: cluster.placement[0]: expected a member's list of device names");
    assertError(LEAF_SPINE + "cluster.placement = [[3]]\n")
        .hasMessageStartingWith("x.conf:2: cluster.placement[0][0]: expected a device name or glob");
    assertError(LEAF_SPINE + "cluster.placement = [[\" \"]]\n")
        .hasMessage("x.conf:2: cluster.placement[0][0]: a blank device name");
  }

  @Test
  void shouldRefuseAnUnknownKeyInTheSection() {
    assertError(LEAF_SPINE + "cluster.placment = []\n")
        .hasMessage("x.conf:2: cluster.placment: unknown key (did you mean 'placement'?)");
  }
}
