package io.fabemu.core.sim;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabemu.core.protocol.DeviceProtocol.FaultDetected;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BiConsumer;
import org.junit.jupiter.api.Test;

/**
 * {@link DeviceRunner} driving a scripted core through windows: the batch and the core's own events inside the
 * window in the (time, source, sequence) order, the rest handed back, and the checks of the window and lookahead.
 */
class DeviceRunnerTest {
  private static final int DEVICE = 5;
  private static final int OTHER = 7;

  /**
   * A core that logs each event it handles as "now:source:id" (the id of its {@link FaultDetected} payload) and then
   * runs the test's reaction to it.
   */
  private static final class ScriptedCore implements DeviceCore {
    final List<String> handled = new ArrayList<>();
    final BiConsumer<Integer, Outbox> reaction;

    ScriptedCore(BiConsumer<Integer, Outbox> reaction) {
      this.reaction = reaction;
    }

    @Override
    public int deviceId() {
      return DEVICE;
    }

    @Override
    public void onEvent(Event event, Outbox outbox) {
      int id = ((FaultDetected) event.payload()).eventId();
      handled.add(outbox.nowPs() + ":" + event.sourceDevice() + ":" + id);
      reaction.accept(id, outbox);
    }

    @Override
    public DeviceReport report() {
      return new DeviceReport(DEVICE, List.of(), List.of());
    }
  }

  private static Event from(int source, long sequence, long timePs, int id) {
    return new Event(timePs, source, sequence, DEVICE, new FaultDetected(id));
  }

  @Test
  void shouldHandleTheBatchAndItsOwnEventsInTimeSourceSequenceOrderAndHandBackTheRest() {
    ScriptedCore core = new ScriptedCore((id, outbox) -> {
      if (id == 1) {
        outbox.send(DEVICE, 200L, new FaultDetected(10)); // inside the window: handled now
        outbox.send(DEVICE, 300L, new FaultDetected(11)); // same time as the batch's event from device 2: after it
        outbox.send(OTHER, 1_500L, new FaultDetected(20)); // another device: handed back
        outbox.send(DEVICE, 1_000L, new FaultDetected(21)); // its own, at the window's end: handed back
      }
    });
    DeviceRunner runner = new DeviceRunner(core);
    assertThat(runner.core()).isSameAs(core);
    assertThat(runner.lastEventTimePs()).isZero();
    List<Event> outgoing = new ArrayList<>();

    int handled = runner.runWindow(List.of(from(1, 0, 100L, 1), from(2, 0, 300L, 2)), 1_000L, outgoing);

    assertThat(handled).isEqualTo(4);
    assertThat(core.handled).containsExactly("100:1:1", "200:5:10", "300:2:2", "300:5:11");
    assertThat(outgoing).containsExactly(new Event(1_500L, DEVICE, 2, OTHER, new FaultDetected(20)),
        new Event(1_000L, DEVICE, 3, DEVICE, new FaultDetected(21)));
    assertThat(runner.eventsHandled()).isEqualTo(4);
    assertThat(runner.lastEventTimePs()).isEqualTo(300L);
  }

  @Test
  void shouldKeepItsSequenceAndCountsAcrossWindows() {
    ScriptedCore core = new ScriptedCore((id, outbox) -> outbox.send(OTHER, outbox.nowPs() + 1_000L,
        new FaultDetected(100 + id)));
    DeviceRunner runner = new DeviceRunner(core);
    List<Event> first = new ArrayList<>();
    runner.runWindow(List.of(from(1, 0, 100L, 1)), 1_000L, first);
    List<Event> second = new ArrayList<>();
    assertThat(runner.runWindow(List.of(), 2_000L, second)).isZero();
    assertThat(runner.lastEventTimePs()).as("an empty window leaves it").isEqualTo(100L);
    runner.runWindow(List.of(from(1, 1, 2_500L, 2)), 3_000L, second);

    assertThat(first).containsExactly(new Event(1_100L, DEVICE, 0, OTHER, new FaultDetected(101)));
    assertThat(second).containsExactly(new Event(3_500L, DEVICE, 1, OTHER, new FaultDetected(102)));
    assertThat(runner.eventsHandled()).isEqualTo(2);
    assertThat(runner.lastEventTimePs()).isEqualTo(2_500L);
  }

  @Test
  void shouldRefuseAnUnsortedBatch() {
    DeviceRunner runner = new DeviceRunner(new ScriptedCore((id, outbox) -> { }));
    assertThatThrownBy(() -> runner.runWindow(List.of(from(1, 0, 200L, 1), from(1, 1, 100L, 2)), 1_000L,
        new ArrayList<>()))
        .isInstanceOf(IllegalStateException.class).hasMessageStartingWith("device 5 was handed unsorted events: ");
  }

  @Test
  void shouldRefuseAnEventAtOrAfterTheWindowsEnd() {
    DeviceRunner runner = new DeviceRunner(new ScriptedCore((id, outbox) -> { }));
    assertThatThrownBy(() -> runner.runWindow(List.of(from(1, 0, 1_000L, 1)), 1_000L, new ArrayList<>()))
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("device 5 was handed an event at 1000 ps, after its window's end 1000 ps");
  }

  @Test
  void shouldRefuseAnEventScheduledInThePast() {
    DeviceRunner runner = new DeviceRunner(new ScriptedCore((id, outbox) -> outbox.send(DEVICE, 99L,
        new FaultDetected(2))));
    assertThatThrownBy(() -> runner.runWindow(List.of(from(1, 0, 100L, 1)), 1_000L, new ArrayList<>()))
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("device 5 scheduled an event in the past: 99 ps < now 100 ps");
  }

  @Test
  void shouldRefuseAnEventForAnotherDeviceInsideTheWindow() {
    DeviceRunner runner = new DeviceRunner(new ScriptedCore((id, outbox) -> outbox.send(OTHER, 999L,
        new FaultDetected(2))));
    assertThatThrownBy(() -> runner.runWindow(List.of(from(1, 0, 100L, 1)), 1_000L, new ArrayList<>()))
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("lookahead violated: device 5 sent FaultDetected to device 7 due at 999 ps, before the window's "
            + "end 1000 ps (is some latency below the lookahead?)");
  }
}
