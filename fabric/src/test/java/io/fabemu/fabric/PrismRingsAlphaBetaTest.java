package io.fabemu.fabric;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.withinPercentage;

import io.fabemu.collectives.Algorithm;
import io.fabemu.collectives.Collective;
import io.fabemu.collectives.WorkloadSpec;
import io.fabemu.core.link.ForwardingMode;
import io.fabemu.core.rings.RingEmbedding;
import io.fabemu.core.time.Units;
import io.fabemu.core.topology.LinkSpec;
import io.fabemu.core.topology.PrismSpec;
import io.fabemu.fabric.result.CaseResult;
import io.fabemu.fabric.result.RunResult;
import io.fabemu.nic.NicSpec;
import io.fabemu.node.HostSpec;
import io.fabemu.switching.SwitchSpec;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The embedded-ring allreduce against the alpha-beta formula of a ring on an uncontended triangular prism of 4
 * layers (12 ranks): one ring (single-ring), a ring and its reverse (bidirectional-ring, R = 2) and the face
 * rule's 6 arc-disjoint directed rings (multi-ring, R = 6), each ring on links of its own (its lanes spread rings
 * that share a hop over the hop's parallel links). Reduction, memory copies and PCIe transfers are free; what is
 * left is the fixed cost of each message and its wire bytes on a 100 Gb/s link.
 */
class PrismRingsAlphaBetaTest {
  private static final long LINK_BPS = 100 * Units.GBPS;
  private static final long LINK_LATENCY_PS = 100_000L;
  private static final long SEND_OVERHEAD_PS = 100_000L;
  private static final long RECV_OVERHEAD_PS = 100_000L;
  private static final long PCIE_LATENCY_PS = 250_000L;
  /** At least the send and receive overheads, so that the NIC, not the CPU, paces a step's R messages. */
  private static final long NIC_OVERHEAD_PS = 200_000L;
  private static final int SEGMENT_BYTES = 4096;
  private static final int HEADER_BYTES = 64;
  /** 16 MiB of float32. */
  private static final long ELEMENTS = 4L << 20;
  /** Ranks: 3 per layer, 4 layers. */
  private static final int P = 12;
  private static final PrismSpec PRISM = new PrismSpec(3, 4, new LinkSpec(LINK_BPS, LINK_LATENCY_PS),
      new LinkSpec(LINK_BPS, LINK_LATENCY_PS));

  /**
   * The 16 MiB allreduce's time with {@code algorithm} on {@code rings}: one iteration, no warm-up, in a run of its
   * own, so that every rank starts at time 0 as the formula assumes (a later case of the same run would start after
   * a barrier, which ranks leave at different times: about 0.9 us later here).
   */
  private static double measuredPs(Algorithm algorithm, RingEmbedding rings) {
    HostSpec host = HostSpec.builder().sendOverheadPs(SEND_OVERHEAD_PS).recvOverheadPs(RECV_OVERHEAD_PS)
        .pcieLatencyPs(PCIE_LATENCY_PS).build();
    DeviceSpec devices = new DeviceSpec(host, new NicSpec(SEGMENT_BYTES, HEADER_BYTES, NIC_OVERHEAD_PS, 120_000L),
        new SwitchSpec(600_000L, ForwardingMode.CUT_THROUGH));
    WorkloadSpec workload = WorkloadSpec.builder(Collective.ALLREDUCE, List.of(algorithm), List.of(4 * ELEMENTS))
        .build();
    RunResult result = Fabric.build(ScenarioSpec.builder("prism-alpha-beta", "test", 3, PRISM, devices, workload)
        .rings(rings).build()).runOnPlainEngine();
    assertThat(result.complete()).as(result.incompleteReason()).isTrue();
    CaseResult c = result.cases().get(0);
    assertThat(c.wrongElements()).isZero();
    return c.maxLatencyPs();
  }

  /**
   * The ring formula with R rings in lock-step: 2(p-1) steps, in each of which a rank sends one chunk on each of its
   * R rings and receives one from each. A step's last message (ring R-1's, sent last everywhere) costs
   * <pre>
   *   send overhead                      the CPU posts the R sends one after another; the NIC's work requests
   *   + PCIe latency                     take longer (NIC overhead &gt;= send overhead), so the NIC paces them:
   *   + R x NIC per-message overhead     the R-th starts R NIC overheads after the first send reached the NIC
   *   + wire bytes x 8 / link rate       chunk payload + one header per segment, on a link of its own
   *   + link latency
   *   + PCIe latency                     the receiving NIC's completion (DMA writes are free)
   *   + receive overhead                 the earlier rings' receives were applied while it travelled (their
   *                                      arrivals are a NIC overhead apart, at least a receive overhead)
   * </pre>
   * so alpha(R) = send + 2 PCIe + R NIC + link latency + receive, and beta's bytes are the wire bytes of the largest
   * chunk, ceil(ceil(n / R) / p) elements (the vector is cut into R fragments, each into p chunks).
   */
  private static double expectedPs(int rings, int p) {
    double alphaPs = SEND_OVERHEAD_PS + 2 * PCIE_LATENCY_PS + (double) rings * NIC_OVERHEAD_PS + LINK_LATENCY_PS
        + RECV_OVERHEAD_PS;
    long fragment = (ELEMENTS + rings - 1) / rings;
    long chunkBytes = 4 * ((fragment + p - 1) / p);
    long segments = (chunkBytes + SEGMENT_BYTES - 1) / SEGMENT_BYTES;
    long wireBytes = chunkBytes + segments * HEADER_BYTES;
    double betaPs = wireBytes * 8.0 * Units.PS_PER_S / LINK_BPS;
    return 2.0 * (p - 1) * (alphaPs + betaPs);
  }

  @Test
  void shouldMatchTheRingFormulaWhenSingleRingAllreduceRunsOnAPrism() {
    assertThat(measuredPs(Algorithm.SINGLE_RING, faceRule())).isCloseTo(expectedPs(1, P), withinPercentage(2));
  }

  @Test
  void shouldMatchTheFormulaOfTwoRingsWhenBidirectionalRingAllreduceRunsOnAPrism() {
    assertThat(measuredPs(Algorithm.BIDIRECTIONAL_RING, faceRule())).isCloseTo(expectedPs(2, P),
        withinPercentage(2));
  }

  @Test
  void shouldMatchTheFormulaOfSixRingsWhenMultiRingAllreduceRunsOnTheFaceRulesRings() {
    RingEmbedding rings = faceRule();
    assertThat(rings.rings()).hasSize(6);
    assertThat(measuredPs(Algorithm.MULTI_RING, rings)).isCloseTo(expectedPs(6, P), withinPercentage(2));
  }

  /**
   * Ring 0 listed twice: the copies share every hop, and every hop of the prism has at least two parallel links, so
   * their lanes (0 and 1) put them on different links and the pair is as fast as two disjoint rings. Were the lanes
   * not to spread them, both chunks would cross one link one after the other, nearly doubling beta.
   */
  @Test
  void shouldMatchTheFormulaOfTwoRingsWhenTwoCopiesOfARingShareEveryHopOverParallelLinks() {
    List<Integer> ring = faceRule().rings().get(0);
    RingEmbedding twice = RingEmbedding.resolve(PRISM, PRISM.build(), RingEmbedding.Source.LISTED,
        List.of(ring, ring), 0, 0);
    assertThat(twice.warnings()).isEmpty();
    assertThat(measuredPs(Algorithm.MULTI_RING, twice)).isCloseTo(expectedPs(2, P), withinPercentage(2));
  }

  private static RingEmbedding faceRule() {
    return RingEmbedding.resolve(PRISM, PRISM.build(), RingEmbedding.Source.FACE_RULE, List.of(), 0, 0);
  }
}
