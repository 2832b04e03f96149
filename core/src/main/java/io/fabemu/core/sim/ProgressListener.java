package io.fabemu.core.sim;

/** Told after windows how far a run has come. Only for display: nothing in a run depends on it. */
@FunctionalInterface
public interface ProgressListener {
  ProgressListener NONE = (done, virtualTimePs) -> {};

  /**
   * @param completedOperations collective operations completed so far, summed over ranks
   * @param virtualTimePs       start of the latest window
   */
  void onProgress(long completedOperations, long virtualTimePs);
}
