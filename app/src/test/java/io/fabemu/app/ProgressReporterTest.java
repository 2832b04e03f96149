package io.fabemu.app;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class ProgressReporterTest {
  private final AtomicLong nanos = new AtomicLong();
  private final ByteArrayOutputStream err = new ByteArrayOutputStream();

  private ProgressReporter reporter(boolean enabled) {
    return new ProgressReporter(100, new PrintStream(err, true, StandardCharsets.UTF_8), nanos::get,
        ProgressReporter.DEFAULT_DELAY_NANOS, enabled);
  }

  @Test
  void shouldShowNothingWhenRunIsShorterThanTheDelay() {
    try (ProgressReporter p = reporter(true)) {
      nanos.set(999_000_000L);
      p.onProgress(50, 1_000_000);
      assertThat(p.started()).isFalse();
    }
    assertThat(err.size()).isZero();
  }

  @Test
  void shouldStartTheBarOnStderrWhenRunTakesLongerThanTheDelay() {
    try (ProgressReporter p = reporter(true)) {
      nanos.set(1_000_000_001L);
      p.onProgress(50, 2_500_000);
      assertThat(p.started()).isTrue();
    }
    assertThat(err.toString(StandardCharsets.UTF_8)).contains("fabemu").contains("virtual 2.5 us");
  }

  @Test
  void shouldStayQuietWhenDisabledOrClosed() {
    ProgressReporter disabled = reporter(false);
    nanos.set(5_000_000_000L);
    disabled.onProgress(10, 1);
    assertThat(disabled.started()).isFalse();
    disabled.close();

    ProgressReporter closed = reporter(true);
    closed.close();
    closed.onProgress(10, 1);
    assertThat(closed.started()).isFalse();
  }
}
