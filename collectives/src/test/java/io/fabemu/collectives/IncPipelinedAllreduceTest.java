package io.fabemu.collectives;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashMap;
import java.util.Map;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

/**
 * The pipelined INC Allreduce's schedules over every rank: every plain send has its one receive; each leader hands
 * over one in-network task per segment, and takes each segment's aggregate from its ring predecessor on the same
 * channel; the segments tile the vector.
 */
class IncPipelinedAllreduceTest {

  @Property(tries = 60)
  void shouldPairEveryTransferAndSendOneTaskPerSegmentWhenAnyLayoutIsPipelined(
      @ForAll @IntRange(min = 2, max = 6) int nodes, @ForAll @IntRange(min = 1, max = 6) int ppn,
      @ForAll boolean socketMode, @ForAll @IntRange(min = 16_384, max = 70_000) int count) {
    IncMode mode = socketMode && ppn % 2 == 0 ? IncMode.SOCKET : IncMode.NODE;
    IncLayout layout = IncLayout.of(mode, nodes, ppn, 2, 2);
    int p = nodes * ppn;
    int segments = IncPipelinedAllreduce.segmentBounds(count, 4).length - 1;
    Map<String, Integer> sends = new HashMap<>();
    Map<String, Integer> receives = new HashMap<>();
    // In-network task minus aggregate taken, by (predecessor > leader # channel): every entry must end at 0.
    Map<String, Integer> inNetwork = new HashMap<>();
    for (int rank = 0; rank < p; rank++) {
      Schedule s = IncAllreduce.build(layout, rank, count, 4);
      int incSends = 0;
      long incElements = 0;
      for (int i = 0; i < s.stepCount(); i++) {
        Step step = s.step(i);
        for (int j = 0; j < step.sendCount(); j++) {
          Transfer t = step.send(j);
          if (t.inc()) {
            incSends++;
            incElements += t.count();
            // The aggregate comes back from the predecessor on the task's channel.
            inNetwork.merge(layout.ringPredecessor(rank) + ">" + rank + "#" + Integer.toHexString(t.channel()), 1,
                Integer::sum);
            continue;
          }
          assertThat(sends.put(rank + ">" + t.peer() + "#" + Integer.toHexString(t.channel()), t.count())).isNull();
        }
        for (int j = 0; j < step.receiveCount(); j++) {
          Transfer t = step.receive(j);
          String key = t.peer() + ">" + rank + "#" + Integer.toHexString(t.channel());
          if (Tags.phase(t.channel()) == 6) {
            assertThat(t.peer()).isEqualTo(layout.ringPredecessor(rank));
            inNetwork.merge(key, -1, Integer::sum);
            continue;
          }
          assertThat(receives.put(key, t.count())).as("duplicate receive %s", key).isNull();
        }
      }
      if (layout.isLeader(rank)) {
        assertThat(incSends).as("tasks of leader %d", rank).isEqualTo(segments);
        assertThat(incElements).isEqualTo(count);
      } else {
        assertThat(incSends).isZero();
      }
    }
    assertThat(receives).isEqualTo(sends);
    assertThat(inNetwork.values()).hasSize(layout.leaderCount() * segments).containsOnly(0);
  }

  @Property(tries = 200)
  void shouldCutEqualSegmentsAndASmallerLastOneThatTileTheVector(
      @ForAll @IntRange(min = 1, max = 40_000_000) int count, @ForAll("elementSizes") int elementBytes) {
    int[] bounds = IncPipelinedAllreduce.segmentBounds(count, elementBytes);
    int segments = bounds.length - 1;
    assertThat(segments).isBetween(1, IncPipelinedAllreduce.segments(count, elementBytes));
    assertThat(bounds[0]).isZero();
    assertThat(bounds[segments]).isEqualTo(count);
    int size = bounds[1] - bounds[0];
    // Every task of the group but the last uses the same switch slots (the req_id rule needs it), the last a subset.
    for (int s = 0; s + 1 < segments; s++) assertThat(bounds[s + 1] - bounds[s]).isEqualTo(size);
    assertThat(bounds[segments] - bounds[segments - 1]).isBetween(1, size);
  }

  @Provide
  Arbitrary<Integer> elementSizes() {
    return Arbitraries.of(1, 2, 4, 8, 16);
  }

  @Test
  void shouldCutTheRemainderIntoTheLastSegment() {
    // 12,582,916 B of float32 = 3,145,729 elements in 192 segments: 191 of 16,385 and a last of 16,194 (spread over
    // the first segments instead, the one extra element left slots to them alone, and the switch's req_id wrapped).
    int[] bounds = IncPipelinedAllreduce.segmentBounds(3_145_729, 4);
    assertThat(bounds).hasSize(193);
    assertThat(bounds[1]).isEqualTo(16_385);
    assertThat(bounds[192] - bounds[191]).isEqualTo(3_145_729 - 191 * 16_385);
  }

  @Test
  void shouldCutIntoSegmentsOfAbout64KibAtMost1024() {
    assertThat(IncPipelinedAllreduce.segments(16_384, 4)).isEqualTo(1);
    assertThat(IncPipelinedAllreduce.segments(262_144, 4)).isEqualTo(16);
    assertThat(IncPipelinedAllreduce.segments(16_777_216, 4)).isEqualTo(1024);
    assertThat(IncPipelinedAllreduce.segments(33_554_432, 4)).isEqualTo(1024);
  }
}
