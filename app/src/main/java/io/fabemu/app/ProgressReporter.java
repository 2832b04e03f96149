package io.fabemu.app;

import io.fabemu.core.sim.ProgressListener;
import io.fabemu.core.time.Units;
import java.io.PrintStream;
import java.util.function.LongSupplier;
import me.tongfei.progressbar.ConsoleProgressBarConsumer;
import me.tongfei.progressbar.ProgressBar;
import me.tongfei.progressbar.ProgressBarBuilder;
import me.tongfei.progressbar.ProgressBarStyle;

/**
 * A progress bar on stderr for long runs: a {@link ProgressListener} that shows nothing until the run has taken
 * {@code delayNanos} of wall time, then a bar of completed collective operations out of the total, with the virtual
 * time reached as extra message.
 *
 * <p>Contract: display only (a run never depends on it); thread-safe, since the engine may call it from any
 * thread; never writes to stdout; after {@link #close()} it ignores further calls. Wall time is read through the
 * injected clock (this is control-plane code, outside virtual time).
 */
final class ProgressReporter implements ProgressListener, AutoCloseable {
  /** Runs shorter than this show no bar. */
  static final long DEFAULT_DELAY_NANOS = 1_000_000_000L;

  private final long totalOperations;
  private final PrintStream err;
  private final LongSupplier nanoClock;
  private final long delayNanos;
  private final boolean enabled;
  private final long startNanos;
  private ProgressBar bar;
  private boolean closed;

  ProgressReporter(long totalOperations, PrintStream err, LongSupplier nanoClock, long delayNanos,
                   boolean enabled) {
    this.totalOperations = totalOperations;
    this.err = err;
    this.nanoClock = nanoClock;
    this.delayNanos = delayNanos;
    this.enabled = enabled;
    this.startNanos = nanoClock.getAsLong();
  }

  @Override
  public synchronized void onProgress(long completedOperations, long virtualTimePs) {
    if (!enabled || closed) return;
    if (bar == null) {
      if (nanoClock.getAsLong() - startNanos < delayNanos) return;
      bar = new ProgressBarBuilder()
          .setTaskName("fabemu")
          .setInitialMax(totalOperations)
          .setStyle(ProgressBarStyle.ASCII)
          .setUpdateIntervalMillis(250)
          .setConsumer(new ConsoleProgressBarConsumer(err))
          .build();
    }
    bar.stepTo(Math.min(completedOperations, totalOperations));
    bar.setExtraMessage("virtual " + Units.format(virtualTimePs));
  }

  /** True once the bar is showing. */
  synchronized boolean started() {
    return bar != null;
  }

  @Override
  public synchronized void close() {
    closed = true;
    if (bar != null) {
      bar.close();
    }
  }
}
