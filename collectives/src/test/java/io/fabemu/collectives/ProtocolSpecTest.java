package io.fabemu.collectives;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabemu.core.time.Units;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The protocols' costs and the tuner's choice per size. */
class ProtocolSpecTest {
  /** 400 GB/s: 2.5 ps a byte on the wire. */
  private static final long TUNER_BPS = 3_200 * Units.GBPS;
  /** LL: no latency, an engine of 50 GB/s (20 ps a byte); LL128: 500 ns; Simple: 2 us; neither limited. */
  private static final ProtocolSpec AUTO = new ProtocolSpec(List.of(LineProtocol.values()),
      new ProtocolCost(2_000_000L, 0), new ProtocolCost(0, 400 * Units.GBPS), new ProtocolCost(500_000L, 0),
      TUNER_BPS);

  @Test
  void shouldFrameEachProtocolsPayloadItsWay() {
    assertThat(LineProtocol.SIMPLE.framing()).isNull();
    assertThat(LineProtocol.SIMPLE.wireBytes(1000)).isEqualTo(1000);
    assertThat(LineProtocol.LL.wireBytes(1000)).isEqualTo(2000);
    assertThat(LineProtocol.LL128.wireBytes(1200)).isEqualTo(1280);
    assertThat(LineProtocol.fromConfigName("ll128")).isEqualTo(LineProtocol.LL128);
    assertThat(LineProtocol.fromConfigName("LL")).isNull();
    assertThat(LineProtocol.configNames()).containsExactly("simple", "ll", "ll128");
  }

  @Test
  void shouldHoldTheEngineForThePayloadAtTheProtocolsRate() {
    assertThat(new ProtocolCost(0, 8 * Units.GBPS).enginePs(1000)).isEqualTo(1_000_000L);
    assertThat(ProtocolCost.NONE.enginePs(1 << 30)).isZero();
    assertThat(new ProtocolCost(5, 8 * Units.GBPS).enginePs(0)).isZero();
  }

  @Test
  void shouldRunTheOnlyCandidateAtEverySize() {
    ProtocolSpec ll = new ProtocolSpec(List.of(LineProtocol.LL), ProtocolCost.NONE, ProtocolCost.NONE,
        ProtocolCost.NONE, 1);
    assertThat(ll.chooses()).isFalse();
    assertThat(ll.choose(4, 8, 1)).isEqualTo(LineProtocol.LL);
    assertThat(ll.choose(1L << 30, 8, 16)).isEqualTo(LineProtocol.LL);
    assertThat(ProtocolSpec.SIMPLE_ONLY.choose(1L << 20, 8, 1)).isEqualTo(LineProtocol.SIMPLE);
  }

  @Test
  void shouldChooseTheLowLatencyProtocolForSmallSizesAndSimpleForLargeOnes() {
    // A step of p bytes (the size over 8 ranks and the channels) costs, in ps: LL 20 p (engine) + 2.5 x 2 p
    // (wire) = 25 p; LL128 500,000 + 2.5 x 128/120 p; Simple 2,000,000 + 2.5 p.
    assertThat(AUTO.choose(1024, 8, 1)).isEqualTo(LineProtocol.LL);
    // p = 8 KiB: LL 204,800, LL128 521,845.
    assertThat(AUTO.choose(64 * 1024, 8, 1)).isEqualTo(LineProtocol.LL);
    // p = 64 KiB: LL 1,638,400, LL128 674,780, Simple 2,163,840.
    assertThat(AUTO.choose(512 * 1024, 8, 1)).isEqualTo(LineProtocol.LL128);
    // p = 32 MiB: LL128 89,978,485, Simple 85,886,080 (Simple wins above p = 9 MB).
    assertThat(AUTO.choose(256L << 20, 8, 1)).isEqualTo(LineProtocol.SIMPLE);
    // The same size on 8 channels is 4 MiB a step: LL128 11,684,811, Simple 12,485,760.
    assertThat(AUTO.choose(256L << 20, 8, 8)).isEqualTo(LineProtocol.LL128);
  }

  @Test
  void shouldCostAnyOtherAlgorithmByTheMessagesOfItsRankZeroSchedule() {
    // Recursive doubling on 8 ranks: 3 steps of the whole vector. At 64 KiB a step of 64 KiB costs LL 1,638,400
    // (engine and wire), LL128 674,780 and Simple 2,163,840 ps: LL128, where the ring's 8 KiB steps took LL.
    Schedule doubling = Schedules.build(Collective.ALLREDUCE, Algorithm.RECURSIVE_DOUBLING, 0, 8, 16 * 1024, 0,
        false, 1);
    assertThat(AUTO.choose(doubling, 4)).isEqualTo(LineProtocol.LL128);
    assertThat(AUTO.choose(64 * 1024, 8, 1)).isEqualTo(LineProtocol.LL);
    WorkloadSpec w = WorkloadSpec.builder(Collective.ALLREDUCE, List.of(Algorithm.RECURSIVE_DOUBLING, Algorithm.RING),
        List.of(64L * 1024)).protocols(AUTO).build();
    assertThat(w.protocolOfCase(0, 8, 1)).isEqualTo(LineProtocol.LL128);
    assertThat(w.protocolOfCase(1, 8, 1)).isEqualTo(LineProtocol.LL);
    // The tree's chunks on 128 ranks, 8 to a server: large messages at 256 KiB, never LL's slow engine.
    WorkloadSpec tree = WorkloadSpec.builder(Collective.ALLREDUCE, List.of(Algorithm.TREE), List.of(256L * 1024))
        .protocols(AUTO).build();
    assertThat(tree.protocolOfCase(0, 128, 8)).isEqualTo(LineProtocol.LL128);
    // The ring allreduce's shape at that size: 2 KiB steps, LL.
    assertThat(AUTO.choose(256L * 1024, 128, 1)).isEqualTo(LineProtocol.LL);
  }

  @Test
  void shouldRefuseNoCandidateARepeatedOneAMissingCostAndNoRate() {
    ProtocolCost none = ProtocolCost.NONE;
    assertThatThrownBy(() -> new ProtocolSpec(List.of(), none, none, none, 1))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("at least one");
    assertThatThrownBy(() -> new ProtocolSpec(List.of(LineProtocol.LL, LineProtocol.LL), none, none, none, 1))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("each once");
    assertThatThrownBy(() -> new ProtocolSpec(List.of(LineProtocol.LL), none, null, none, 1))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("cost");
    assertThatThrownBy(() -> new ProtocolSpec(List.of(LineProtocol.LL), none, none, none, 0))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("rate");
    assertThatThrownBy(() -> new ProtocolCost(-1, 0)).isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void shouldRunAnInNetworkCaseBySimpleAndEveryOtherByTheTunersChoice() {
    WorkloadSpec w = WorkloadSpec.builder(Collective.ALLREDUCE, List.of(Algorithm.RING, Algorithm.INC_NODE),
        List.of(1024L, 256L << 20)).protocols(AUTO).build();
    assertThat(w.protocolOfCase(0, 8, 1)).isEqualTo(LineProtocol.LL);
    assertThat(w.protocolOfCase(1, 8, 1)).isEqualTo(LineProtocol.SIMPLE);
    // NCCL's CollNet and NVLS run Simple only.
    assertThat(w.protocolOfCase(2, 8, 1)).isEqualTo(LineProtocol.SIMPLE);
    assertThat(w.toBuilder().protocols(ProtocolSpec.SIMPLE_ONLY).build().protocolOfCase(0, 8, 1))
        .isEqualTo(LineProtocol.SIMPLE);
  }
}
