package io.fabemu.fabric;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabemu.core.protocol.DeviceProtocol.EthernetTimer;
import io.fabemu.core.protocol.DeviceProtocol.StartWorkload;
import io.fabemu.core.sim.Event;
import java.util.List;
import org.junit.jupiter.api.Test;

class StartEventsTest {

  @Test
  void shouldNumberTheEventsInTheOrderTheyWereAddedFromOutsideTheFabric() {
    StartEvents events = new StartEvents();
    events.add(0L, 7, StartWorkload.INSTANCE);
    events.add(5_000L, 3, new EthernetTimer(0));
    events.add(0L, 9, StartWorkload.INSTANCE);
    assertThat(events.toList()).containsExactly(
        new Event(0L, Event.EXTERNAL_SOURCE, 0, 7, StartWorkload.INSTANCE),
        new Event(5_000L, Event.EXTERNAL_SOURCE, 1, 3, new EthernetTimer(0)),
        new Event(0L, Event.EXTERNAL_SOURCE, 2, 9, StartWorkload.INSTANCE));
  }

  @Test
  void shouldHandOutAListTheCallerOwns() {
    StartEvents events = new StartEvents();
    events.add(0L, 1, StartWorkload.INSTANCE);
    List<Event> first = events.toList();
    first.clear();
    assertThat(events.toList()).hasSize(1);
    assertThat(new StartEvents().toList()).isEmpty();
  }
}
