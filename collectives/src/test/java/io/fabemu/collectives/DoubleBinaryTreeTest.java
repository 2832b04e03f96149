package io.fabemu.collectives;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The trees as NCCL builds them (binary tree, its mirror or shift), the rank-level trees with their chains, and the
 * schedule: every send has exactly one receive (the pipeline finishing on every rank is tested end to end).
 */
class DoubleBinaryTreeTest {

  @Test
  void shouldBuildNcclsBinaryTreeOnEightServers() {
    // 0 is the root with one child, 4; 4 has 2 and 6; 2 has 1 and 3; 6 has 5 and 7.
    assertThat(DoubleBinaryTree.btree(8, 0)).isEqualTo(new DoubleBinaryTree.Links(-1, -1, 4));
    assertThat(DoubleBinaryTree.btree(8, 4)).isEqualTo(new DoubleBinaryTree.Links(0, 2, 6));
    assertThat(DoubleBinaryTree.btree(8, 2)).isEqualTo(new DoubleBinaryTree.Links(4, 1, 3));
    assertThat(DoubleBinaryTree.btree(8, 6)).isEqualTo(new DoubleBinaryTree.Links(4, 5, 7));
    assertThat(DoubleBinaryTree.btree(8, 7)).isEqualTo(new DoubleBinaryTree.Links(6, -1, -1));
    // Five servers: 4's second child would be 6, beyond the end: none.
    assertThat(DoubleBinaryTree.btree(5, 4)).isEqualTo(new DoubleBinaryTree.Links(0, 2, -1));
  }

  @Test
  void shouldMirrorTheTreeOnAnEvenCountAndShiftItOnAnOddCount() {
    // Even: tree 1 is tree 0 with every index i read as n-1-i; odd: as i+1.
    assertThat(DoubleBinaryTree.dtree(8, 7, 1)).isEqualTo(new DoubleBinaryTree.Links(-1, -1, 3));
    assertThat(DoubleBinaryTree.dtree(8, 3, 1)).isEqualTo(new DoubleBinaryTree.Links(7, 5, 1));
    assertThat(DoubleBinaryTree.dtree(5, 1, 1)).isEqualTo(new DoubleBinaryTree.Links(-1, -1, 0));
    assertThat(DoubleBinaryTree.dtree(5, 0, 1)).isEqualTo(new DoubleBinaryTree.Links(1, 3, -1));
  }

  @Test
  void shouldSpanEveryServerCountWithConsistentParentsAndChildrenInBothTrees() {
    for (int n = 1; n <= 70; n++) {
      for (int tree = 0; tree < 2; tree++) {
        int roots = 0;
        for (int i = 0; i < n; i++) {
          DoubleBinaryTree.Links l = DoubleBinaryTree.dtree(n, i, tree);
          if (l.parent() == -1) {
            roots++;
          } else {
            DoubleBinaryTree.Links up = DoubleBinaryTree.dtree(n, l.parent(), tree);
            assertThat(List.of(up.child0(), up.child1())).as("n=%d tree %d: %d under %d", n, tree, i, l.parent())
                .contains(i);
          }
          for (int child : new int[] {l.child0(), l.child1()}) {
            if (child != -1) assertThat(DoubleBinaryTree.dtree(n, child, tree).parent()).isEqualTo(i);
          }
        }
        assertThat(roots).as("n=%d tree %d", n, tree).isEqualTo(1);
        // Reaching every server from the root proves it acyclic and spanning.
        assertThat(DoubleBinaryTree.RankTree.of(n, 1, tree).depth()).hasSize(n);
      }
    }
  }

  @Test
  void shouldChainEachServerFromItsFirstRankInTreeZeroAndFromItsLastInTreeOne() {
    DoubleBinaryTree.RankTree t0 = DoubleBinaryTree.RankTree.of(8, 4, 0);
    DoubleBinaryTree.RankTree t1 = DoubleBinaryTree.RankTree.of(8, 4, 1);

    assertThat(t0.root()).isZero();
    assertThat(t0.parent()).containsExactly(-1, 0, 1, 2, 0, 4, 5, 6);
    assertThat(t0.height()[0]).isEqualTo(4);
    assertThat(t0.depth()[7]).isEqualTo(4);
    // Tree 1 mirrors the two servers: server 1 is the root, its head rank 7; server 0's head is rank 3.
    assertThat(t1.root()).isEqualTo(7);
    assertThat(t1.parent()).containsExactly(1, 2, 3, 7, 5, 6, 7, -1);
  }

  @Test
  void shouldPairEverySendWithExactlyOneReceiveInBothTrees() {
    for (int[] shape : new int[][] {{2, 1}, {5, 1}, {8, 8}, {16, 4}, {24, 8}, {7, 3}, {12, 1}}) {
      int p = shape[0];
      int count = 3 * DoubleBinaryTree.CHUNK_ELEMENTS + 5;
      Map<String, Integer> sentAt = new HashMap<>();
      List<String[]> received = new ArrayList<>();
      for (int rank = 0; rank < p; rank++) {
        ScheduleBuilder b = new ScheduleBuilder(rank).buffers(count, count);
        DoubleBinaryTree.allreduce(b, RankGroup.ofWorld(p), rank, count, shape[1], 0);
        Schedule s = b.build();
        for (int i = 0; i < s.stepCount(); i++) {
          Step step = s.step(i);
          for (int k = 0; k < step.sendCount(); k++) {
            Transfer t = step.send(k);
            assertThat(sentAt.put(rank + ">" + t.peer() + ":" + t.channel(), i)).isNull();
          }
          for (int k = 0; k < step.receiveCount(); k++) {
            Transfer t = step.receive(k);
            received.add(new String[] {t.peer() + ">" + rank + ":" + t.channel(), Integer.toString(i)});
          }
        }
      }
      assertThat(received).as("p=%d", p).hasSameSizeAs(sentAt.keySet());
      for (String[] r : received) {
        assertThat(sentAt).as("p=%d: %s", p, r[0]).containsKey(r[0]);
      }
    }
  }
}
