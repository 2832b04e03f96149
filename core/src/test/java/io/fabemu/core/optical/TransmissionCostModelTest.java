package io.fabemu.core.optical;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

class TransmissionCostModelTest {

  private static final long US = 1_000_000L;
  private static final List<Integer> ALL_EIGHT = List.of(0, 1, 2, 3, 4, 5, 6, 7);
  /** 400 Gbps inside a server, 100 Gbps across, 2 us to read and 3 us to write a neighbour's memory. */
  private static final TransmissionCosts P2P = new TransmissionCosts(400_000_000_000L, 100_000_000_000L, 2 * US,
      3 * US, true);
  private static final TransmissionCosts NO_P2P = new TransmissionCosts(400_000_000_000L, 100_000_000_000L, 2 * US,
      3 * US, false);

  /** FIG. 14-16 ([0150], [0156], [0161]): stage 0 on server 0 to stage 1 on server 1, eight NPUs each, via NPU 1. */
  private static StageTransfer figureTransfer(long sizeBytes, boolean replicated) {
    ConnectionPolicy policy = ConnectionPolicy.byFormula(8, 8, ConnectionFormula.FORMULA_1);
    return StageTransfer.over(policy, sizeBytes, replicated, 0, ALL_EIGHT, 1, ALL_EIGHT);
  }

  @Test
  void shouldCrossThroughNpuOneAsInTheFigures() {
    // Formula 1 joins servers 0 and 1 on plane (0 + 1) mod 8 = 1: the NPU 1 of FIG. 14-16.
    StageTransfer t = figureTransfer(1_000_000, false);
    assertThat(t.gatewayNpu()).isEqualTo(1);
    assertThat(t.sourceOthers()).isEqualTo(7);
    assertThat(t.targetOthers()).isEqualTo(7);
    assertThat(t.totalBytes()).isEqualTo(8_000_000);
  }

  @Test
  void shouldCostEachMethodByTheSeedsFormulasOnTheFigures() {
    // D = 1 MB per NPU: D / B_inter = 80 us, D / B_intra = 20 us; T = 8 MB: 640 us across, 160 us inside.
    TransmissionCostModel model = new TransmissionCostModel(P2P);
    StageTransfer replicated = figureTransfer(1_000_000, true);
    TransmissionChoice c = model.choose(replicated);
    // [0169]: send D across, broadcast D inside the target server.
    assertThat(c.cost(TransmissionMethod.SEND_BROADCAST).stepsPs()).containsExactly(0L, 80 * US, 20 * US);
    // [0170]: read delay, T across, write delay.
    assertThat(c.cost(TransmissionMethod.P2P_BUS).stepsPs()).containsExactly(2 * US, 640 * US, 3 * US);
    // [0171]: the spliced T gathered, sent, scattered.
    assertThat(c.cost(TransmissionMethod.ALLGATHER_SEND_SCATTER).stepsPs())
        .containsExactly(160 * US, 640 * US, 160 * US);
    // [0172]: seven NPUs' D to the gateway, T across, seven eighths of T on.
    assertThat(c.cost(TransmissionMethod.SWITCH_SEND).stepsPs()).containsExactly(140 * US, 640 * US, 140 * US);
    assertThat(c.costs()).extracting(MethodCost::totalPs).containsExactly(100 * US, 645 * US, 960 * US, 920 * US);
    assertThat(c.chosen()).isEqualTo(TransmissionMethod.SEND_BROADCAST);
    assertThat(c.chosenPs()).isEqualTo(100 * US);
  }

  @Test
  void shouldChooseAsTheFlowchartDoesOnTheFigures() {
    TransmissionCostModel p2p = new TransmissionCostModel(P2P);
    TransmissionCostModel noP2p = new TransmissionCostModel(NO_P2P);
    StageTransfer replicated = figureTransfer(1_000_000, true);
    StageTransfer distinct = figureTransfer(1_000_000, false);
    // S1801-S1802: all-reduce -> method 1; S1803-S1804: peer-to-peer -> method 2; S1805-S1807: 3 against 4.
    assertThat(p2p.choose(replicated).chosen()).isEqualTo(TransmissionMethod.SEND_BROADCAST);
    assertThat(p2p.seedFlowchart(replicated)).isEqualTo(TransmissionMethod.SEND_BROADCAST);
    assertThat(p2p.choose(distinct).chosen()).isEqualTo(TransmissionMethod.P2P_BUS);
    assertThat(p2p.seedFlowchart(distinct)).isEqualTo(TransmissionMethod.P2P_BUS);
    assertThat(noP2p.choose(distinct).chosen()).isEqualTo(TransmissionMethod.SWITCH_SEND);
    assertThat(noP2p.seedFlowchart(distinct)).isEqualTo(TransmissionMethod.SWITCH_SEND);
    assertThat(noP2p.choose(replicated).chosen()).isEqualTo(TransmissionMethod.SEND_BROADCAST);
  }

  @Test
  void shouldTakeWholeServersBetweenStagesAndSummarizeTheChoiceInOneLine() {
    StageTransfer t = StageTransfer.betweenServers(ConnectionPolicy.byFormula(8, 8, ConnectionFormula.FORMULA_1),
        1_000_000, false, 0, 1);
    assertThat(t).isEqualTo(figureTransfer(1_000_000, false));
    assertThat(new TransmissionCostModel(NO_P2P).choose(t).summary()).isEqualTo("switch-send (920 us); "
        + "send-broadcast: not possible (the source NPUs hold different data (not the result of an all-reduce)), "
        + "p2p-bus: not possible (the servers have no peer-to-peer capability), allgather-send-scatter: 960 us, "
        + "switch-send: 920 us");
    assertThat(new TransmissionCostModel(P2P).choose(figureTransfer(1_000_000, true)).summary())
        .isEqualTo("send-broadcast (100 us); send-broadcast: 100 us, p2p-bus: 645 us, allgather-send-scatter: 960 us, "
            + "switch-send: 920 us");
  }

  @Test
  void shouldRefuseMethodOneForDistinctDataAndMethodTwoWithoutPeerToPeer() {
    TransmissionChoice c = new TransmissionCostModel(NO_P2P).choose(figureTransfer(1_000_000, false));
    assertThat(c.cost(TransmissionMethod.SEND_BROADCAST).possible()).isFalse();
    assertThat(c.cost(TransmissionMethod.SEND_BROADCAST).reason())
        .isEqualTo("the source NPUs hold different data (not the result of an all-reduce)");
    assertThat(c.cost(TransmissionMethod.P2P_BUS).possible()).isFalse();
    assertThat(c.cost(TransmissionMethod.P2P_BUS).reason()).isEqualTo("the servers have no peer-to-peer capability");
    assertThat(c.cost(TransmissionMethod.P2P_BUS).totalPs()).isZero();
  }

  @Test
  void shouldPreferTheBusWhenTheIntraServerBandwidthIsLowAndTheDataReplicated() {
    // B_intra = 1 Gbps: broadcasting 1 KB inside costs 8 us, the bus's delays 0.5 us; the flowchart still says 1.
    TransmissionCosts slowInside = new TransmissionCosts(1_000_000_000L, 100_000_000_000L, US / 4, US / 4, true);
    TransmissionCostModel model = new TransmissionCostModel(slowInside);
    StageTransfer t = StageTransfer.over(ConnectionPolicy.byFormula(8, 8, ConnectionFormula.FORMULA_1), 1_000,
        true, 0, List.of(0, 1), 1, ALL_EIGHT);
    TransmissionChoice c = model.choose(t);
    // Method 1: 80 ns across + 8 us broadcast; method 2: 250 ns + 2 KB across (160 ns) + 250 ns.
    assertThat(c.cost(TransmissionMethod.SEND_BROADCAST).totalPs()).isEqualTo(80_000 + 8 * US);
    assertThat(c.cost(TransmissionMethod.P2P_BUS).totalPs()).isEqualTo(US / 4 + 160_000 + US / 4);
    assertThat(c.chosen()).isEqualTo(TransmissionMethod.P2P_BUS);
    assertThat(model.seedFlowchart(t)).isEqualTo(TransmissionMethod.SEND_BROADCAST);
  }

  @Test
  void shouldSkipIntraServerStepsWhenAStageIsTheGatewayAlone() {
    TransmissionCostModel model = new TransmissionCostModel(P2P);
    StageTransfer t = new StageTransfer(1_000_000, false, 0, List.of(3), 5, List.of(3), 3);
    TransmissionChoice c = model.choose(t);
    assertThat(c.cost(TransmissionMethod.P2P_BUS).stepsPs()).containsExactly(0L, 80 * US, 0L);
    assertThat(c.cost(TransmissionMethod.ALLGATHER_SEND_SCATTER).stepsPs()).containsExactly(0L, 80 * US, 0L);
    assertThat(c.cost(TransmissionMethod.SWITCH_SEND).stepsPs()).containsExactly(0L, 80 * US, 0L);
    // Methods 2, 3, 4 tie at 80 us: the lowest number wins.
    assertThat(c.chosen()).isEqualTo(TransmissionMethod.P2P_BUS);
    assertThat(new TransmissionCostModel(NO_P2P).choose(t).chosen())
        .isEqualTo(TransmissionMethod.ALLGATHER_SEND_SCATTER);
    assertThat(new TransmissionCostModel(NO_P2P).seedFlowchart(t)).isEqualTo(TransmissionMethod.ALLGATHER_SEND_SCATTER);
  }

  @Test
  void shouldHandOneCopyToTheGatewayFirstWhenTheStageLacksIt() {
    // Source stage on NPUs 4 and 5 only, gateway 1: method 1 first moves D to NPU 1, method 4 moves both blocks.
    StageTransfer t = new StageTransfer(1_000_000, true, 0, List.of(5, 4), 1, List.of(1), 1);
    assertThat(t.sourceNpus()).containsExactly(4, 5);
    TransmissionChoice c = new TransmissionCostModel(NO_P2P).choose(t);
    assertThat(c.cost(TransmissionMethod.SEND_BROADCAST).stepsPs()).containsExactly(20 * US, 80 * US, 0L);
    assertThat(c.cost(TransmissionMethod.SWITCH_SEND).stepsPs()).containsExactly(40 * US, 160 * US, 0L);
    assertThat(c.cost(TransmissionMethod.ALLGATHER_SEND_SCATTER).stepsPs()).containsExactly(40 * US, 160 * US, 0L);
    assertThat(c.chosen()).isEqualTo(TransmissionMethod.SEND_BROADCAST);
  }

  @Test
  void shouldRoundTheScatteredShareUpAndEachStepUpToThePicosecond() {
    // T = 3 x 7 = 21 B to 2 target NPUs, one not the gateway: ceil(21 / 2) = 11 B inside.
    TransmissionCosts c = new TransmissionCosts(3_000_000_000L, 7_000_000_000L, 0, 0, false);
    StageTransfer t = new StageTransfer(7, false, 0, List.of(0, 1, 2), 1, List.of(0, 1), 0);
    MethodCost fourth = new TransmissionCostModel(c).cost(TransmissionMethod.SWITCH_SEND, t);
    // 14 B at 3 Gbps = 37,333.3 ps -> 37,334; 21 B at 7 Gbps = 24,000; 11 B at 3 Gbps = 29,333.3 -> 29,334.
    assertThat(fourth.stepsPs()).containsExactly(37_334L, 24_000L, 29_334L);
    assertThat(fourth.totalPs()).isEqualTo(90_668L);
  }

  @Test
  void shouldCostNothingButTheBusDelaysForAnEmptyTransfer() {
    StageTransfer t = figureTransfer(0, false);
    TransmissionChoice c = new TransmissionCostModel(P2P).choose(t);
    assertThat(c.costs()).extracting(MethodCost::totalPs).containsExactly(0L, 5 * US, 0L, 0L);
    assertThat(c.chosen()).isEqualTo(TransmissionMethod.ALLGATHER_SEND_SCATTER);
  }

  @Test
  void shouldRefuseBadTransfersAndCosts() {
    ConnectionPolicy policy = ConnectionPolicy.byFormula(8, 7, ConnectionFormula.FORMULA_3);
    assertThatThrownBy(() -> StageTransfer.over(policy, 1, false, 2, List.of(0), 2, List.of(0)))
        .hasMessage("no circuit joins servers 2 and 2");
    assertThatThrownBy(() -> StageTransfer.over(policy, 1, false, 0, List.of(7), 1, List.of(0)))
        .hasMessage("NPU 7 is out of range: servers have 7 NPUs");
    assertThatThrownBy(() -> new StageTransfer(-1, false, 0, List.of(0), 1, List.of(0), 0))
        .hasMessage("a transfer's size must not be negative, got -1");
    assertThatThrownBy(() -> new StageTransfer(1, false, 0, List.of(), 1, List.of(0), 0))
        .hasMessage("the source stage needs at least one NPU");
    assertThatThrownBy(() -> new StageTransfer(1, false, 0, List.of(0), 1, List.of(2, 2), 0))
        .hasMessage("the target stage names NPU 2 twice");
    assertThatThrownBy(() -> new StageTransfer(1, false, 0, List.of(0), 0, List.of(0), 0))
        .hasMessage("a transfer between stages joins two servers, not server 0 to itself");
    assertThatThrownBy(() -> new TransmissionCosts(0, 1, 0, 0, false))
        .hasMessage("bandwidths must be positive: intra-server 0 bps, inter-server 1 bps");
    assertThatThrownBy(() -> new TransmissionCosts(1, 1, -1, 0, false))
        .hasMessage("peer-to-peer delays must not be negative: read -1 ps, write 0 ps");
  }

  @Test
  void shouldNameTheMethodsAndFindThemByName() {
    assertThat(TransmissionMethod.values()).extracting(TransmissionMethod::configName)
        .containsExactly("send-broadcast", "p2p-bus", "allgather-send-scatter", "switch-send");
    assertThat(TransmissionMethod.values()).extracting(TransmissionMethod::number).containsExactly(1, 2, 3, 4);
    assertThat(TransmissionMethod.named("switch-send")).contains(TransmissionMethod.SWITCH_SEND);
    assertThat(TransmissionMethod.named("broadcast")).isEmpty();
  }
}
