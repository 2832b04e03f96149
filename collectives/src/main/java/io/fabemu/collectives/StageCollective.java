package io.fabemu.collectives;

import java.util.Locale;

/**
 * What a pipeline stage runs among its server's NPUs on each micro-batch's activation (forward) and gradient
 * (backward): the operator-level model-parallel domain of the optical patent's table 1. Every one leaves each NPU holding the
 * {@code count} elements it sends to the next stage; they differ in what each NPU contributes and whether the NPUs
 * end up holding the same data ({@link #replicated()}, the condition of transmission method 1).
 */
public enum StageCollective {
  /** Each NPU contributes {@code count} elements and gets their sum over the server: replicated. */
  ALLREDUCE,
  /** Each NPU contributes {@code count / N} elements and gets the server's concatenation: replicated. */
  ALLGATHER,
  /** Each NPU contributes {@code N x count} elements and gets its block of their sum: distinct. */
  REDUCE_SCATTER,
  /** No collective: each NPU sends its own {@code count} elements: distinct. */
  NONE;

  /** Whether every NPU of the stage holds the same data afterwards (an all-reduce's result, [0149]). */
  public boolean replicated() {
    return this == ALLREDUCE || this == ALLGATHER;
  }

  /** Elements each NPU contributes for {@code count} elements out, in a server of {@code npus} NPUs. */
  public long contributionCount(int count, int npus) {
    return switch (this) {
      case ALLREDUCE, NONE -> count;
      case ALLGATHER -> count / npus;
      case REDUCE_SCATTER -> (long) count * npus;
    };
  }

  /** The name in scenarios: {@code allreduce}, {@code reduce-scatter}, ... */
  public String configName() {
    return name().toLowerCase(Locale.ROOT).replace('_', '-');
  }

  /** The stage collective named {@code name}, or null. */
  public static StageCollective fromConfigName(String name) {
    for (StageCollective c : values()) {
      if (c.configName().equals(name)) return c;
    }
    return null;
  }
}
