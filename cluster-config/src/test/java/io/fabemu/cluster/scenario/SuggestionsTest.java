package io.fabemu.cluster.scenario;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class SuggestionsTest {
  private static final List<String> KEYS = List.of("kind", "hosts", "hosts-per-tor", "spines", "host-link");

  @Test
  void shouldSuggestClosestKeyWhenOneEditAway() {
    assertThat(Suggestions.closest("hosts-per-torr", KEYS)).contains("hosts-per-tor");
    assertThat(Suggestions.closest("spine", KEYS)).contains("spines");
  }

  @Test
  void shouldSuggestWhenOnlyCaseSeparatorOrSwappedLettersDiffer() {
    assertThat(Suggestions.closest("hosts_per_tor", KEYS)).contains("hosts-per-tor");
    assertThat(Suggestions.closest("Kind", KEYS)).contains("kind");
    assertThat(Suggestions.closest("sipnes", KEYS)).contains("spines");
  }

  @Test
  void shouldSuggestLongerKeyWhenInputIsItsFirstWord() {
    assertThat(Suggestions.closest("pipeline", List.of("pipeline-latency", "forwarding"))).contains("pipeline-latency");
  }

  @Test
  void shouldSuggestNothingWhenTooFar() {
    assertThat(Suggestions.closest("bandwidth", KEYS)).isEmpty();
    assertThat(Suggestions.closest("cut-thru", List.of("store-and-forward", "cut-through"))).isEmpty();
  }
}
