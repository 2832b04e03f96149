package io.fabemu.switching.optical;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabemu.core.optical.Circuit;
import io.fabemu.core.optical.ConnectionFormula;
import io.fabemu.core.optical.ConnectionPolicy;
import io.fabemu.core.optical.OcsReport;
import io.fabemu.core.optical.OcsReport.ChangeCost;
import io.fabemu.core.optical.OcsSpec;
import io.fabemu.core.optical.OcsSpec.PolicyChange;
import io.fabemu.core.protocol.DeviceProtocol.CircuitDown;
import io.fabemu.core.protocol.DeviceProtocol.CircuitUp;
import io.fabemu.core.protocol.DeviceProtocol.StartWorkload;
import io.fabemu.core.sim.Event;
import io.fabemu.core.sim.RecordingOutbox;
import io.fabemu.core.sim.RecordingOutbox.Sent;
import io.fabemu.core.time.Units;
import io.fabemu.core.topology.LinkSpec;
import io.fabemu.core.topology.OpticalSpec;
import io.fabemu.core.topology.OpticalSpec.IntraServer;
import io.fabemu.core.topology.Topology;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The OCS controller's schedule, driven by hand (docs/optical.md, "The OCS controller"): at its start (time 0) it
 * sends every word of the run, each due at its time: the initial circuits up a delay later, then per policy change
 * the teardowns at the change and the new circuits up a delay after it, both ends each, nothing for a circuit in both
 * policies.
 */
class OcsControllerCoreTest {
  private static final LinkSpec INTRA = new LinkSpec(400 * Units.GBPS, 200_000L);
  private static final LinkSpec OPTICAL = new LinkSpec(100 * Units.GBPS, 1_000_000L);
  private static final long DELAY_PS = 10 * Units.PS_PER_US;

  private static OpticalSpec spec(int servers, int npus, ConnectionFormula initial, PolicyChange... changes) {
    return new OpticalSpec(servers, npus, IntraServer.FULL_MESH, INTRA, OPTICAL, initial,
        new OcsSpec(DELAY_PS, List.of(changes)));
  }

  private static OcsControllerCore controller(OpticalSpec spec) {
    Topology topology = spec.build();
    return new OcsControllerCore(topology.deviceCount(), spec.policies(), topology, spec.ocs());
  }

  /** The words for circuits joining host pairs {@code {a, b}}: to a about b, then to b about a, pair by pair. */
  private static List<Sent> words(int[][] pairs, long timePs, long requestedAtPs, boolean up) {
    List<Sent> out = new ArrayList<>();
    for (int[] pair : pairs) {
      out.add(new Sent(pair[0], timePs, up ? new CircuitUp(pair[1], requestedAtPs) : new CircuitDown(pair[1], timePs)));
      out.add(new Sent(pair[1], timePs, up ? new CircuitUp(pair[0], requestedAtPs) : new CircuitDown(pair[0], timePs)));
    }
    return out;
  }

  @Test
  void shouldSendTheWholeScheduleOfTeardownsAndSetUpsAtTheStart() {
    // M = 4, N = 4 (host = 4 x server + NPU). Formula 3 (by plane, then lower server): {0,1} and {2,3} on plane 0,
    // {0,2} and {1,3} on plane 1, {0,3} and {1,2} on plane 2. Formula 1, plane (a + b) mod 4: {1,3} on 0, {0,1} and
    // {2,3} on 1, {0,2} on 2, {0,3} and {1,2} on 3. No circuit in common.
    int[][] formula3 = {{0, 4}, {8, 12}, {1, 9}, {5, 13}, {2, 14}, {6, 10}};
    int[][] formula1 = {{4, 12}, {1, 5}, {9, 13}, {2, 10}, {3, 15}, {7, 11}};
    long firstPs = 20 * Units.PS_PER_US;
    long secondPs = 40 * Units.PS_PER_US;
    OcsControllerCore controller = controller(spec(4, 4, ConnectionFormula.FORMULA_3, new PolicyChange(firstPs,
        ConnectionFormula.FORMULA_1), new PolicyChange(secondPs, ConnectionFormula.FORMULA_3)));
    RecordingOutbox outbox = new RecordingOutbox();
    controller.onStartWorkload(StartWorkload.INSTANCE, outbox);

    List<Sent> expected = new ArrayList<>(words(formula3, DELAY_PS, 0L, true));
    expected.addAll(words(formula3, firstPs, firstPs, false));
    expected.addAll(words(formula1, firstPs + DELAY_PS, firstPs, true));
    expected.addAll(words(formula1, secondPs, secondPs, false));
    expected.addAll(words(formula3, secondPs + DELAY_PS, secondPs, true));
    assertThat(outbox.sent()).containsExactlyElementsOf(expected);
    assertThat(controller.report().part(OcsReport.class)).isEqualTo(new OcsReport(6, DELAY_PS, 0L, 0L, 0L, List.of(
        new ChangeCost(firstPs, 6, 6, firstPs + DELAY_PS, 0L, 0L, 0L),
        new ChangeCost(secondPs, 6, 6, secondPs + DELAY_PS, 0L, 0L, 0L))));
    assertThatThrownBy(() -> controller.onStartWorkload(StartWorkload.INSTANCE, outbox))
        .isInstanceOf(IllegalStateException.class).hasMessageContaining("started twice");
  }

  @Test
  void shouldLeaveTheCircuitsOfBothPoliciesUntouched() {
    // M = 8, N = 8, formula 3 then formula 1: six circuits are in both ({2,6} and {3,5} on plane 0, {3,6} and {4,5} on
    // 1, {4,6} on 2, {5,6} on 3: a + b - 1 = a + b modulo 7 and 8 for a + b = 8..11), so 22 go and 22 come.
    long atPs = 2 * Units.PS_PER_MS;
    OpticalSpec spec = spec(8, 8, ConnectionFormula.FORMULA_3, new PolicyChange(atPs, ConnectionFormula.FORMULA_1));
    OcsControllerCore controller = controller(spec);
    RecordingOutbox outbox = new RecordingOutbox();
    controller.onStartWorkload(StartWorkload.INSTANCE, outbox);

    List<Circuit> kept = List.of(new Circuit(2, 6, 0), new Circuit(3, 5, 0), new Circuit(3, 6, 1),
        new Circuit(4, 5, 1), new Circuit(4, 6, 2), new Circuit(5, 6, 3));
    List<Sent> downs = outbox.sent().stream().filter(s -> s.payload() instanceof CircuitDown).toList();
    List<Sent> laterUps = outbox.sent().stream().filter(s -> s.timePs() == atPs + DELAY_PS).toList();
    assertThat(downs).hasSize(44).allSatisfy(s -> assertThat(s.timePs()).isEqualTo(atPs));
    assertThat(laterUps).hasSize(44).allSatisfy(s -> assertThat(s.payload()).isEqualTo(
        new CircuitUp(((CircuitUp) s.payload()).peerHost(), atPs)));
    assertThat(outbox.sent()).hasSize(56 + 44 + 44);
    ConnectionPolicy formula3 = spec.policies().get(0);
    ConnectionPolicy formula1 = spec.policies().get(1);
    for (Circuit c : kept) {
      assertThat(formula3.circuits()).contains(c);
      assertThat(formula1.circuits()).contains(c);
      int hostA = c.serverA() * 8 + c.plane();
      int hostB = c.serverB() * 8 + c.plane();
      assertThat(outbox.sent()).filteredOn(s -> s.timePs() > DELAY_PS)
          .noneMatch(s -> s.targetDevice() == hostA || s.targetDevice() == hostB);
    }
    // Every torn-down circuit is formula 3's and not formula 1's; every new one formula 1's and not formula 3's.
    for (Sent s : downs) {
      Circuit c = new Circuit(s.targetDevice() / 8, ((CircuitDown) s.payload()).peerHost() / 8, s.targetDevice() % 8);
      assertThat(formula3.circuits()).contains(c);
      assertThat(formula1.circuits()).doesNotContain(c);
    }
    for (Sent s : laterUps) {
      Circuit c = new Circuit(s.targetDevice() / 8, ((CircuitUp) s.payload()).peerHost() / 8, s.targetDevice() % 8);
      assertThat(formula1.circuits()).contains(c);
      assertThat(formula3.circuits()).doesNotContain(c);
    }
    assertThat(controller.report().part(OcsReport.class).changes())
        .containsExactly(new ChangeCost(atPs, 22, 22, atPs + DELAY_PS, 0L, 0L, 0L));
  }

  @Test
  void shouldRefuseWhatItCannotReceiveAndPoliciesThatDoNotMatchTheChanges() {
    OpticalSpec spec = spec(4, 4, ConnectionFormula.FORMULA_3, new PolicyChange(DELAY_PS, ConnectionFormula.FORMULA_1));
    OcsControllerCore controller = controller(spec);
    assertThatThrownBy(() -> controller.onEvent(
        new Event(0L, 0, 0L, controller.deviceId(), new CircuitDown(1, 0L)), new RecordingOutbox()))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("cannot handle CircuitDown");
    Topology topology = spec.build();
    assertThatThrownBy(() -> new OcsControllerCore(99, spec.policies().subList(0, 1), topology, spec.ocs()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("an OCS controller needs the initial policy and one per change (2 in all), got 1");
  }
}
