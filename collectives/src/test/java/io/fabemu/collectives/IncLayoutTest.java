package io.fabemu.collectives;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.function.IntPredicate;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class IncLayoutTest {

  /** The INC paper, figure 8: N = 2 CPUs per node, S = 9 nodes, P = 4 processes per CPU, 3 nodes per TOR. */
  private static IncLayout figure8() {
    return IncLayout.of(IncMode.SOCKET, 9, 8, 2, 3);
  }

  /** The INC paper, figure 6: 4 nodes of 8 ranks, 2 nodes per TOR, Node mode. */
  private static IncLayout figure6() {
    return IncLayout.of(IncMode.NODE, 4, 8, 2, 2);
  }

  private static int[] ranksWhere(IncLayout layout, IntPredicate role) {
    return IntStream.range(0, layout.rankCount()).filter(role).toArray();
  }

  @Test
  void shouldNameModesAsScenariosDo() {
    assertThat(IncMode.NODE.configName()).isEqualTo("inc-node");
    assertThat(IncMode.SOCKET.configName()).isEqualTo("inc-socket");
    assertThat(IncMode.fromConfigName("inc-socket")).isEqualTo(IncMode.SOCKET);
    assertThat(IncMode.fromConfigName("inc-node")).isEqualTo(IncMode.NODE);
    assertThat(IncMode.fromConfigName("socket")).isNull();
  }

  @Test
  void shouldFindFigure8MrrNmrrAndSrWhenSocketMode() {
    IncLayout l = figure8();
    assertThat(l.rankCount()).isEqualTo(72);
    assertThat(l.groupCount()).isEqualTo(2);
    assertThat(l.ranksPerLeader()).isEqualTo(4);
    assertThat(ranksWhere(l, l::isMrr)).containsExactly(0, 4);
    assertThat(ranksWhere(l, l::isNmrr))
        .containsExactly(8, 12, 16, 20, 24, 28, 32, 36, 40, 44, 48, 52, 56, 60, 64, 68);
    assertThat(ranksWhere(l, l::isLeader)).hasSize(18);
    // SRs are the 72 - 18 others, each led by the lowest rank of its socket.
    assertThat(ranksWhere(l, r -> !l.isLeader(r))).hasSize(54);
    assertThat(l.leaderOf(7)).isEqualTo(4);
    assertThat(l.leaderOf(13)).isEqualTo(12);
    assertThat(l.ledBy(4)).isEqualTo(new IncLayout.Block(4, 4));
    assertThat(l.hostOf(13)).isEqualTo(1);
  }

  @Test
  void shouldGroupFigure8ControlPlaneBySocketWhenSocketMode() {
    IncLayout l = figure8();
    assertThat(l.mrrOf(0)).isZero();
    assertThat(l.mrrOf(1)).isEqualTo(4);
    assertThat(l.leaders(0)).containsExactly(0, 8, 16, 24, 32, 40, 48, 56, 64);
    assertThat(l.leaders(1)).containsExactly(4, 12, 20, 28, 36, 44, 52, 60, 68);
    // Formula (4): MRR 0 notifies the first NMRR group, MRR 4 the second.
    assertThat(l.notifyTargets(0)).containsExactly(8, 16, 24, 32, 40, 48, 56, 64);
    assertThat(l.notifyTargets(4)).containsExactly(12, 20, 28, 36, 44, 52, 60, 68);
    // Formula (3): each NMRR queries the MRR of its group.
    for (int nmrr : new int[] {8, 16, 24, 32, 40, 48, 56, 64}) {
      assertThat(l.queryTarget(nmrr)).as("NMRR %d", nmrr).isZero();
      assertThat(l.groupOf(nmrr)).isZero();
    }
    for (int nmrr : new int[] {12, 20, 28, 36, 44, 52, 60, 68}) {
      assertThat(l.queryTarget(nmrr)).as("NMRR %d", nmrr).isEqualTo(4);
      assertThat(l.groupOf(nmrr)).isEqualTo(1);
    }
  }

  @Test
  void shouldRingFigure8FirstTorBySocketWhenSocketMode() {
    IncLayout l = figure8();
    assertThat(l.torCount()).isEqualTo(3);
    assertThat(l.torsOfGroup(0)).isEqualTo(3);
    assertThat(l.leadersUnderTor(0, 0)).isEqualTo(3);
    // SRR' of the first TOR = {0, 4, 8, 12, 16, 20}.
    assertThat(ranksWhere(l, r -> l.isLeader(r) && l.torOfLeader(r) == 0)).containsExactly(0, 4, 8, 12, 16, 20);
    assertThat(l.ringSuccessor(0)).isEqualTo(8);
    assertThat(l.ringSuccessor(8)).isEqualTo(16);
    assertThat(l.ringSuccessor(16)).isZero();
    assertThat(l.ringSuccessor(4)).isEqualTo(12);
    assertThat(l.ringSuccessor(12)).isEqualTo(20);
    assertThat(l.ringSuccessor(20)).isEqualTo(4);
    assertThat(l.ringPredecessor(0)).isEqualTo(16);
    assertThat(l.ringPredecessor(12)).isEqualTo(4);
    // The other TORs likewise: the second holds nodes 3..5, ranks 24..47.
    assertThat(l.torOfLeader(28)).isEqualTo(1);
    assertThat(l.ringSuccessor(24)).isEqualTo(32);
    assertThat(l.ringSuccessor(40)).isEqualTo(24);
    assertThat(l.ringSuccessor(44)).isEqualTo(28);
  }

  @Test
  void shouldFindFigure6LeadersAndRingsWhenNodeMode() {
    IncLayout l = figure6();
    assertThat(l.groupCount()).isEqualTo(1);
    assertThat(l.leaders(0)).containsExactly(0, 8, 16, 24);
    assertThat(ranksWhere(l, l::isMrr)).containsExactly(0);
    assertThat(ranksWhere(l, l::isNmrr)).containsExactly(8, 16, 24);
    assertThat(l.mrrOf(0)).isZero();
    assertThat(l.notifyTargets(0)).containsExactly(8, 16, 24);
    assertThat(l.queryTarget(8)).isZero();
    assertThat(l.queryTarget(24)).isZero();
    // Sockets do not matter in Node mode: the node's lowest rank leads all 8.
    assertThat(l.ledBy(16)).isEqualTo(new IncLayout.Block(16, 8));
    assertThat(l.leaderOf(31)).isEqualTo(24);
    assertThat(l.isLeader(4)).isFalse();
    assertThat(l.groupOf(13)).isZero();
    // Rings {0, 8} and {16, 24}.
    assertThat(l.ringSuccessor(0)).isEqualTo(8);
    assertThat(l.ringSuccessor(8)).isZero();
    assertThat(l.ringSuccessor(16)).isEqualTo(24);
    assertThat(l.ringSuccessor(24)).isEqualTo(16);
    assertThat(l.torOfLeader(16)).isEqualTo(1);
    assertThat(l.leadersUnderTor(0, 1)).isEqualTo(2);
  }

  @Test
  void shouldRingOnlyTheHostsOfAPartialLastTor() {
    IncLayout l = IncLayout.of(IncMode.NODE, 5, 4, 1, 2);
    assertThat(l.torCount()).isEqualTo(3);
    assertThat(l.leadersUnderTor(0, 2)).isEqualTo(1);
    assertThat(l.ringSuccessor(16)).isEqualTo(16);
    assertThat(l.ringPredecessor(16)).isEqualTo(16);

    IncLayout s = IncLayout.of(IncMode.SOCKET, 5, 6, 3, 2);
    assertThat(s.ringSuccessor(24)).isEqualTo(24);
    assertThat(s.ringSuccessor(28)).isEqualTo(28);
    assertThat(s.ringSuccessor(12)).isEqualTo(18);
    assertThat(s.ringSuccessor(20)).isEqualTo(14);
  }

  @Test
  void shouldHaveNoNmrrWhenOneNode() {
    IncLayout l = IncLayout.of(IncMode.SOCKET, 1, 4, 2, 4);
    assertThat(l.notifyTargets(0)).isEmpty();
    assertThat(l.notifyTargets(2)).isEmpty();
    assertThat(l.isNmrr(2)).isFalse();
    assertThat(l.ringSuccessor(2)).isEqualTo(2);
  }

  @Test
  void shouldAnswerByArithmeticWhenAMillionRanks() {
    IncLayout l = IncLayout.of(IncMode.SOCKET, 16_384, 64, 2, 32);
    int last = l.rankCount() - 1;
    assertThat(l.rankCount()).isEqualTo(1 << 20);
    assertThat(l.leaderOf(last)).isEqualTo(last - 31);
    assertThat(l.groupOf(last)).isEqualTo(1);
    assertThat(l.queryTarget(last - 31)).isEqualTo(32);
    assertThat(l.torOfLeader(last - 31)).isEqualTo(511);
    assertThat(l.ringSuccessor(last - 31)).isEqualTo(511 * 32 * 64 + 32);
    assertThat(l.leaders(1)).hasSize(16_384);
    assertThat(l.notifyTargets(0)).hasSize(16_383);
    long leaders = IntStream.range(0, l.rankCount()).filter(l::isLeader).count();
    assertThat(leaders).isEqualTo(l.leaderCount()).isEqualTo(32_768);
  }

  @Test
  void shouldRefuseSocketModeWhenOneSocket() {
    assertThatThrownBy(() -> IncLayout.of(IncMode.SOCKET, 4, 8, 1, 2))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("inc-socket needs at least 2 sockets per node, got 1");
  }

  @Test
  void shouldRefuseSocketModeWhenRanksDoNotSplitEvenlyOverSockets() {
    assertThatThrownBy(() -> IncLayout.of(IncMode.SOCKET, 4, 6, 4, 2))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("inc-socket needs ppn divisible by sockets: ppn 6, sockets 4");
    assertThatThrownBy(() -> IncLayout.of(IncMode.SOCKET, 4, 1, 2, 2))
        .hasMessage("inc-socket needs ppn divisible by sockets: ppn 1, sockets 2");
  }

  @Test
  void shouldAcceptAnySocketCountWhenNodeMode() {
    IncLayout l = IncLayout.of(IncMode.NODE, 4, 6, 4, 2);
    assertThat(l.ledBy(6)).isEqualTo(new IncLayout.Block(6, 6));
    assertThat(IncLayout.of(IncMode.NODE, 1, 1, 1, 1).ringSuccessor(0)).isZero();
  }

  @Test
  void shouldRefuseCountsBelowOne() {
    assertThatThrownBy(() -> IncLayout.of(IncMode.NODE, 0, 8, 1, 2))
        .hasMessage("inc-node needs at least 1 node, got 0");
    assertThatThrownBy(() -> IncLayout.of(IncMode.NODE, 4, 0, 1, 2))
        .hasMessage("inc-node needs at least 1 rank per node (ppn), got 0");
    assertThatThrownBy(() -> IncLayout.of(IncMode.SOCKET, 4, 8, 0, 2))
        .hasMessage("inc-socket needs at least 1 socket per node, got 0");
    assertThatThrownBy(() -> IncLayout.of(IncMode.SOCKET, 4, 8, 2, -1))
        .hasMessage("inc-socket needs at least 1 host per TOR, got -1");
    assertThatThrownBy(() -> IncLayout.of(null, 4, 8, 2, 1))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("needs a mode");
  }

  @Test
  void shouldRefuseMoreRanksThanAnIntCounts() {
    assertThatThrownBy(() -> IncLayout.of(IncMode.NODE, 65_536, 32_768, 1, 32))
        .hasMessage("inc-node needs at most 2147483647 ranks: nodes 65536 x ppn 32768 = 2147483648");
  }

  @Test
  void shouldRefuseQueriesOnTheWrongRole() {
    IncLayout l = figure8();
    assertThatThrownBy(() -> l.ledBy(5)).hasMessage("rank 5 is no SRR (leader)");
    assertThatThrownBy(() -> l.ringSuccessor(5)).hasMessage("rank 5 is no SRR (leader)");
    assertThatThrownBy(() -> l.queryTarget(4)).hasMessage("rank 4 is no NMRR");
    assertThatThrownBy(() -> l.notifyTargets(8)).hasMessage("rank 8 is no MRR");
    assertThatThrownBy(() -> l.leaderOf(72)).hasMessage("rank 72 is outside 0..71");
    assertThatThrownBy(() -> l.isLeader(-1)).hasMessage("rank -1 is outside 0..71");
    assertThatThrownBy(() -> l.mrrOf(2)).hasMessage("INC group 2 is outside 0..1");
    assertThatThrownBy(() -> l.leadersUnderTor(0, 3)).hasMessage("TOR 3 is outside 0..2");
  }
}
