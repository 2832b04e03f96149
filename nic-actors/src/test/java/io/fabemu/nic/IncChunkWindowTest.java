package io.fabemu.nic;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class IncChunkWindowTest {

  @Test
  void shouldCutVectorIntoChunksWithShorterLastChunk() {
    IncChunkWindow w = new IncChunkWindow(1000, 64, 4);
    assertThat(w.chunkCount()).isEqualTo(16);
    assertThat(w.elementOffset(15)).isEqualTo(960);
    assertThat(w.elements(15)).isEqualTo(40);
    assertThat(w.elements(0)).isEqualTo(64);
  }

  @Test
  void shouldStartWithOneWindowAndReuseEachPositionWhenItsChunkCompletes() {
    IncChunkWindow w = new IncChunkWindow(10, 1, 4);
    assertThat(w.start()).containsExactly(0, 1, 2, 3);
    assertThat(w.inFlight()).isEqualTo(4);
    // Chunk 2 first: its position takes chunk 6, not the lowest chunk not sent.
    assertThat(w.onChunkDone(2)).isEqualTo(6);
    assertThat(w.onChunkDone(0)).isEqualTo(4);
    assertThat(w.inFlight()).isEqualTo(4);
    assertThat(w.onChunkDone(6)).isEqualTo(-1); // 10 is past the end
    assertThat(w.inFlight()).isEqualTo(3);
    assertThat(w.complete()).isFalse();
  }

  @Test
  void shouldNeverHaveMoreThanWindowInFlightAndCompleteEveryChunkOnceInAnyOrder() {
    SplittableRandom random = new SplittableRandom(7);
    for (int trial = 0; trial < 50; trial++) {
      int window = 1 + random.nextInt(9);
      long elements = 1 + random.nextInt(300);
      IncChunkWindow w = new IncChunkWindow(elements, 1 + random.nextInt(7), window);
      List<Long> flying = new ArrayList<>();
      for (long k : w.start()) flying.add(k);
      ArrayDeque<Long> order = new ArrayDeque<>();
      long completed = 0;
      while (!flying.isEmpty()) {
        assertThat(w.inFlight()).isEqualTo(flying.size()).isLessThanOrEqualTo(window);
        long k = flying.remove(random.nextInt(flying.size()));
        order.add(k);
        completed++;
        long next = w.onChunkDone(k);
        if (next >= 0) {
          assertThat(next % window).isEqualTo(k % window);
          flying.add(next);
        }
      }
      assertThat(completed).isEqualTo(w.chunkCount());
      assertThat(order).doesNotHaveDuplicates();
      assertThat(w.complete()).isTrue();
    }
  }

  @Test
  void shouldRefuseChunkNotSentOrCompletedTwice() {
    IncChunkWindow w = new IncChunkWindow(10, 1, 2);
    w.start();
    assertThatThrownBy(() -> w.onChunkDone(5)).hasMessageContaining("never sent");
    w.onChunkDone(0);
    assertThatThrownBy(() -> w.onChunkDone(0)).hasMessageContaining("completed twice");
  }
}
