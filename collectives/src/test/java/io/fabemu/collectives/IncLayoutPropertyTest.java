package io.fabemu.collectives;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;

class IncLayoutPropertyTest {

  @Property(tries = 300)
  void shouldHoldEveryRoleInvariantWhenSocketMode(
      @ForAll @IntRange(min = 1, max = 40) int nodes, @ForAll @IntRange(min = 1, max = 12) int ranksPerSocket,
      @ForAll @IntRange(min = 2, max = 6) int sockets, @ForAll @IntRange(min = 1, max = 12) int hostsPerTor) {
    IncLayout l = IncLayout.of(IncMode.SOCKET, nodes, ranksPerSocket * sockets, sockets, hostsPerTor);
    assertThat(l.groupCount()).isEqualTo(sockets);
    assertThat(l.ranksPerLeader()).isEqualTo(ranksPerSocket);
    assertInvariants(l);
    // A socket's leader leads exactly that socket: its block stays inside one host.
    for (int g = 0; g < l.groupCount(); g++) {
      for (int leader : l.leaders(g)) {
        IncLayout.Block b = l.ledBy(leader);
        assertThat(l.hostOf(b.end() - 1)).isEqualTo(l.hostOf(b.first()));
        assertThat((leader % l.ppn()) / ranksPerSocket).as("socket of %d", leader).isEqualTo(g);
      }
    }
  }

  @Property(tries = 300)
  void shouldHoldEveryRoleInvariantWhenNodeMode(
      @ForAll @IntRange(min = 1, max = 40) int nodes, @ForAll @IntRange(min = 1, max = 48) int ppn,
      @ForAll @IntRange(min = 1, max = 6) int sockets, @ForAll @IntRange(min = 1, max = 12) int hostsPerTor) {
    IncLayout l = IncLayout.of(IncMode.NODE, nodes, ppn, sockets, hostsPerTor);
    assertThat(l.groupCount()).isEqualTo(1);
    assertThat(l.leaders(0)).containsExactly(IntStream.range(0, nodes).map(n -> n * ppn).toArray());
    assertInvariants(l);
  }

  private static void assertInvariants(IncLayout l) {
    int ranks = l.rankCount();

    // Every rank has exactly one leader, and the leaders' blocks partition the ranks in rank order.
    int[] allLeaders = IntStream.range(0, ranks).filter(l::isLeader).toArray();
    assertThat(allLeaders).hasSize(l.leaderCount());
    int expectedFirst = 0;
    for (int leader : allLeaders) {
      IncLayout.Block b = l.ledBy(leader);
      assertThat(b.first()).isEqualTo(leader).isEqualTo(expectedFirst);
      for (int r = b.first(); r < b.end(); r++) {
        assertThat(l.leaderOf(r)).isEqualTo(leader);
        assertThat(l.groupOf(r)).isEqualTo(l.groupOf(leader));
        assertThat(l.hostOf(r)).isEqualTo(r / l.ppn());
      }
      expectedFirst = b.end();
    }
    assertThat(expectedFirst).isEqualTo(ranks);

    // The groups partition the leaders; each group's lowest leader is its MRR, the only one on node 0.
    List<Integer> seen = new ArrayList<>();
    int nmrrs = 0;
    for (int g = 0; g < l.groupCount(); g++) {
      int[] group = l.leaders(g);
      assertThat(group).isSorted().hasSize(l.nodes());
      assertThat(group[0]).isEqualTo(l.mrrOf(g));
      for (int leader : group) {
        assertThat(l.groupOf(leader)).isEqualTo(g);
        assertThat(l.isMrr(leader)).isEqualTo(leader == l.mrrOf(g));
        assertThat(l.isNmrr(leader)).isEqualTo(leader != l.mrrOf(g));
        seen.add(leader);
      }
      nmrrs += group.length - 1;
    }
    assertThat(seen).containsExactlyInAnyOrder(IntStream.of(allLeaders).boxed().toArray(Integer[]::new));

    // Formula (3): every NMRR queries its own group's MRR.
    for (int leader : allLeaders) {
      if (l.isNmrr(leader)) {
        assertThat(l.queryTarget(leader)).as("query of NMRR %d", leader).isEqualTo(l.mrrOf(l.groupOf(leader)));
      }
    }

    // Formula (4): the MRRs' notify targets partition the NMRRs, each MRR notifying its own group, in rank order.
    List<Integer> notified = new ArrayList<>();
    for (int g = 0; g < l.groupCount(); g++) {
      int[] targets = l.notifyTargets(l.mrrOf(g));
      assertThat(targets).isSorted();
      for (int t : targets) {
        assertThat(l.isNmrr(t)).isTrue();
        assertThat(l.groupOf(t)).isEqualTo(g);
        notified.add(t);
      }
    }
    assertThat(notified).doesNotHaveDuplicates().hasSize(nmrrs);

    // Formulas (5), (6): for every group and TOR, one closed ring over exactly that group's leaders under the TOR,
    // in rank order, the predecessor undoing the successor.
    for (int g = 0; g < l.groupCount(); g++) {
      int[] group = l.leaders(g);
      int torsSeen = 0;
      for (int tor = 0; tor < l.torCount(); tor++) {
        final int t = tor;
        int[] underTor = IntStream.of(group).filter(r -> l.torOfLeader(r) == t).toArray();
        assertThat(underTor).hasSize(l.leadersUnderTor(g, tor));
        if (underTor.length > 0) torsSeen++;
        int[] walked = new int[underTor.length];
        int at = underTor[0];
        for (int k = 0; k < underTor.length; k++) {
          walked[k] = at;
          int next = l.ringSuccessor(at);
          assertThat(l.ringPredecessor(next)).isEqualTo(at);
          at = next;
        }
        assertThat(at).as("ring of group %d under TOR %d closes", g, tor).isEqualTo(underTor[0]);
        assertThat(walked).containsExactly(underTor);
      }
      assertThat(l.torsOfGroup(g)).isEqualTo(torsSeen);
    }
  }
}
