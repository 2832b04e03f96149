package io.fabemu.switching.inc;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabemu.switching.inc.IncSlot.Generation;
import io.fabemu.switching.inc.IncSlot.State;
import org.junit.jupiter.api.Test;

/**
 * The generations of one aggregation slot: a use is (req_id, round); a generation is reused once it holds a finished
 * use at least two uses before the new one, counting the rounds of a stream at the slot's window position.
 */
class IncSlotTest {

  private static Generation finished(IncSlot slot, int reqId, int round, int lastRound) {
    Generation g = slot.acquire(reqId, round, lastRound);
    assertThat(g).as("generation for req_id %d round %d", reqId, round).isNotNull();
    g.state = State.HAS_RESULT;
    return g;
  }

  @Test
  void shouldReuseTheGenerationTwoRoundsBackWhenAStreamGoesOnAtItsPosition() {
    IncSlot slot = new IncSlot(2, false);
    Generation round0 = finished(slot, 7, 0, 5);
    Generation round1 = finished(slot, 7, 1, 5);
    // Round 2 means every leader had round 0's result: its generation is free again.
    assertThat(slot.acquire(7, 2, 5)).isSameAs(round0);
    assertThat(slot.find(7, 1)).isSameAs(round1);
    assertThat(slot.find(7, 0)).isNull();
  }

  @Test
  void shouldKeepTheLastRoundOfAStreamWhenTheNextRequestStartsButFreeTheOneBefore() {
    IncSlot slot = new IncSlot(2, false);
    Generation beforeLast = finished(slot, 7, 4, 5);
    Generation last = finished(slot, 7, 5, 5);
    // req_id 8's first round: a leader may still need round 5 of req_id 7, not round 4.
    assertThat(slot.acquire(8, 0, 3)).isSameAs(beforeLast);
    last.state = State.HAS_RESULT;
    // req_id 8 round 1 is two uses after round 5 of req_id 7.
    slot.find(8, 0).state = State.HAS_RESULT;
    assertThat(slot.acquire(8, 1, 3)).isSameAs(last);
  }

  @Test
  void shouldRefuseANewUseWhenOnlyTheUseJustBeforeItIsFinished() {
    IncSlot slot = new IncSlot(2, false);
    Generation collecting = slot.acquire(7, 4, 5);
    assertThat(collecting.state).isEqualTo(State.COLLECTING);
    finished(slot, 7, 5, 5);
    // req_id 8 round 0: round 5 of req_id 7 is one use back and round 4 still collects: no generation.
    assertThat(slot.acquire(8, 0, 3)).isNull();
    // Once round 4 is done, it is two uses back.
    collecting.state = State.HAS_RESULT;
    assertThat(slot.acquire(8, 0, 3)).isSameAs(collecting);
  }

  @Test
  void shouldFollowTheReqIdRuleForTasksOfOneChunk() {
    IncSlot slot = new IncSlot(2, false);
    Generation first = finished(slot, 255, 0, 0);
    finished(slot, 0, 0, 0);
    // req_id 1 after 255 and 0 (wrapping): 255 is two requests back.
    assertThat(slot.acquire(1)).isSameAs(first);
    // An older request than both held is never given a generation.
    assertThat(slot.acquire(254)).isNull();
  }
}
