package io.fabemu.cluster.scenario;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabemu.core.optical.ConnectionFormula;
import io.fabemu.core.optical.ConnectionPolicy;
import io.fabemu.core.optical.StageTransfer;
import io.fabemu.core.optical.TransmissionCostModel;
import io.fabemu.core.optical.TransmissionCosts;
import io.fabemu.core.optical.TransmissionMethod;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.assertj.core.api.AbstractThrowableAssert;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The cost model's configuration file (the optical patent, [0173]) and its one-line errors. */
class OpticalCostsLoaderTest {

  private static final long US = 1_000_000L;

  private static AbstractThrowableAssert<?, ? extends Throwable> assertError(String text) {
    return assertThatThrownBy(() -> OpticalCostsLoader.parse(text, "c.conf")).isInstanceOf(ScenarioException.class)
        .satisfies(e -> assertThat(e.getMessage()).doesNotContain("\n"));
  }

  @Test
  void shouldDefaultEveryKey() {
    assertThat(OpticalCostsLoader.parse("", "c.conf"))
        .isEqualTo(new TransmissionCosts(400_000_000_000L, 100_000_000_000L, US, US, false));
  }

  @Test
  void shouldReadTheExampleAndChooseByIt() {
    TransmissionCosts costs = OpticalCostsLoader.load(Path.of("../examples/optical-costs.conf"));
    assertThat(costs).isEqualTo(new TransmissionCosts(400_000_000_000L, 100_000_000_000L, 2 * US, 2 * US, true));
    ConnectionPolicy policy = ConnectionPolicy.byFormula(8, 8, ConnectionFormula.FORMULA_3);
    List<Integer> all = List.of(0, 1, 2, 3, 4, 5, 6, 7);
    StageTransfer t = StageTransfer.over(policy, 1_000_000, false, 0, all, 1, all);
    // 2 us + 8 MB at 100 Gbps (640 us) + 2 us.
    assertThat(new TransmissionCostModel(costs).choose(t).chosen()).isEqualTo(TransmissionMethod.P2P_BUS);
    assertThat(new TransmissionCostModel(costs).choose(t).chosenPs()).isEqualTo(644 * US);
  }

  @Test
  void shouldReadEveryKeyWithItsUnits() {
    TransmissionCosts c = OpticalCostsLoader.parse("optical-costs {\n intra-server-bandwidth = 1.6 Tbps\n"
        + " inter-server-bandwidth = 200 Gbps\n p2p-read-delay = 500 ns\n p2p-write-delay = 0 ns\n"
        + " peer-to-peer = yes\n}\n", "c.conf");
    assertThat(c).isEqualTo(new TransmissionCosts(1_600_000_000_000L, 200_000_000_000L, 500_000, 0, true));
    assertThat(OpticalCostsLoader.parse("optical-costs.peer-to-peer = off", "c.conf").peerToPeer()).isFalse();
  }

  @Test
  void shouldRefuseUnknownKeysWithTheClosestKnownOne() {
    assertError("optical-costs {\n  inter-server-bandwith = 100 Gbps\n}")
        .hasMessage("c.conf:2: optical-costs.inter-server-bandwith: unknown key (did you mean "
            + "'inter-server-bandwidth'?)");
    assertError("optical-cost.peer-to-peer = true")
        .hasMessage("c.conf:1: optical-cost: unknown key (did you mean 'optical-costs'?)");
    assertError("\n\ntopology.kind = optical")
        .hasMessage("c.conf:3: topology: unknown key (known keys: optical-costs)");
    assertError("optical-costs = 3").hasMessage("c.conf:1: optical-costs: expected an object { ... }, got 3");
    assertError("optical-costs.p2p-read-delay { a = 1 }")
        .hasMessage("c.conf:1: optical-costs.p2p-read-delay: expected a value, got an object");
  }

  @Test
  void shouldRefuseBadValuesAtTheirLine() {
    assertError("optical-costs {\n intra-server-bandwidth = 0 Gbps\n}")
        .hasMessage("c.conf:2: optical-costs.intra-server-bandwidth: must be greater than 0");
    assertError("optical-costs.inter-server-bandwidth = fast")
        .hasMessageStartingWith("c.conf:1: optical-costs.inter-server-bandwidth: ");
    assertError("optical-costs.p2p-write-delay = 2 s")
        .hasMessage("c.conf:1: optical-costs.p2p-write-delay: '2 s' is above the limit of 1 s (every duration is at "
            + "most 1 s)");
    assertError("optical-costs.peer-to-peer = maybe")
        .hasMessage("c.conf:1: optical-costs.peer-to-peer: expected true or false, got 'maybe'");
    assertError("optical-costs {\n p2p-read-delay = [1]\n}")
        .hasMessageStartingWith("c.conf:2: optical-costs.p2p-read-delay: ");
  }

  @Test
  void shouldRefuseSyntaxErrorsAndMissingFiles(@TempDir Path dir) throws Exception {
    assertError("optical-costs {\n peer-to-peer = true\n").hasMessageStartingWith("c.conf:");
    Path missing = dir.resolve("none.conf");
    assertThatThrownBy(() -> OpticalCostsLoader.load(missing)).hasMessage(missing + ": no such file");
    Path bad = dir.resolve("bad.conf");
    Files.writeString(bad, "optical-costs {\n\n  p2p-read-delay = 3 parsecs\n}\n");
    assertThatThrownBy(() -> OpticalCostsLoader.load(bad)).isInstanceOf(ScenarioException.class)
        .hasMessageStartingWith(bad + ":3: optical-costs.p2p-read-delay: ");
    assertThatThrownBy(() -> OpticalCostsLoader.load(dir)).hasMessage(dir + ": is a directory, not a file");
  }
}
