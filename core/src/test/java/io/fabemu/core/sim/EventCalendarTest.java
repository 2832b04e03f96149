package io.fabemu.core.sim;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabemu.core.protocol.DeviceProtocol.StartWorkload;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** The bucketed calendar drains exactly what one priority queue of every event would, whatever the bucket width. */
class EventCalendarTest {

  private static Event event(long timePs, int source, long sequence, int target) {
    return new Event(timePs, source, sequence, target, StartWorkload.INSTANCE);
  }

  /** What a window of the reference (one priority queue) hands each device. */
  private static Map<Integer, List<Event>> referenceDrain(PriorityQueue<Event> pending, long windowEndPs) {
    Map<Integer, List<Event>> out = new HashMap<>();
    while (!pending.isEmpty() && pending.peek().timePs() < windowEndPs) {
      Event e = pending.poll();
      out.computeIfAbsent(e.targetDevice(), d -> new ArrayList<>()).add(e);
    }
    return out;
  }

  @Test
  void shouldDrainWhatOnePriorityQueueWouldWhenEventsArriveInAnyOrder() {
    for (long width : new long[] {1L, 7L, 250L, 1_000L, 1L << 40}) {
      SplittableRandom random = new SplittableRandom(width);
      EventCalendar calendar = new EventCalendar(width);
      PriorityQueue<Event> reference = new PriorityQueue<>();
      long sequence = 0;
      long windowPs = 300L;
      for (int round = 0; round < 200; round++) {
        // New events, due at or after the next window's start (as devices create them), some far off.
        long earliest = Math.min(calendar.nextTimePs(), reference.isEmpty() ? Long.MAX_VALUE
            : reference.peek().timePs());
        long base = earliest == Long.MAX_VALUE ? round * 1_000L : earliest;
        int added = random.nextInt(0, 40);
        for (int i = 0; i < added; i++) {
          long time = base + (random.nextInt(10) == 0 ? random.nextLong(1_000_000L) : random.nextLong(900L));
          Event e = event(time, random.nextInt(-1, 6), sequence++, random.nextInt(0, 12));
          calendar.add(e);
          reference.add(e);
        }
        assertThat(calendar.size()).isEqualTo(reference.size());
        long start = calendar.nextTimePs();
        assertThat(start).isEqualTo(reference.isEmpty() ? Long.MAX_VALUE : reference.peek().timePs());
        if (start == Long.MAX_VALUE) {
          continue;
        }
        Map<Integer, List<Event>> expected = referenceDrain(reference, start + windowPs);
        Map<Integer, List<Event>> actual = new HashMap<>();
        int drained = calendar.drainWindow(start + windowPs, (device, events) ->
            assertThat(actual.put(device, events)).as("one batch per device").isNull());
        assertThat(actual).as("width %d, round %d", width, round).isEqualTo(expected);
        assertThat(drained).isEqualTo(expected.values().stream().mapToInt(List::size).sum());
      }
    }
  }

  @Test
  void shouldBeEmptyAfterTheLastWindow() {
    EventCalendar calendar = new EventCalendar(100L);
    calendar.addAll(List.of(event(5L, 0, 0L, 1), event(450L, 0, 1L, 1), event(90L, 1, 0L, 2)));

    assertThat(calendar.drainWindow(Long.MAX_VALUE, (device, events) -> { })).isEqualTo(3);
    assertThat(calendar.isEmpty()).isTrue();
    assertThat(calendar.nextTimePs()).isEqualTo(Long.MAX_VALUE);
  }

  @Test
  void shouldRefuseABucketWidthThatIsNotPositive() {
    assertThatThrownBy(() -> new EventCalendar(0L)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("bucket width");
  }
}
