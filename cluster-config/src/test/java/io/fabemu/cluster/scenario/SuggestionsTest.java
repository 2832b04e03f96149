package io.fabemu.cluster.scenario;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import java.time.Duration;
import java.util.List;
import java.util.stream.IntStream;
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

  @Test
  void shouldSkipCandidatesFarInLengthSoAHugeInputCostsLittle() {
    // Once a full table per candidate: a key of 5 MB against hundreds of schema keys ran for minutes.
    String huge = "k".repeat(5_000_000);
    List<String> many = IntStream.range(0, 1000).mapToObj(i -> "key-" + i).toList();
    assertTimeoutPreemptively(Duration.ofSeconds(5), () -> assertThat(Suggestions.closest(huge, many)).isEmpty());
    assertThat(Suggestions.closest("kkkkkkkkkkkk", List.of("k".repeat(15), "k".repeat(16)))).contains("k".repeat(15));
  }
}
