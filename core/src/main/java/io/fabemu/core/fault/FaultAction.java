package io.fabemu.core.fault;

/** What a {@link FaultEvent} does to its target, as the scenario names it ({@link #configName}). */
public enum FaultAction {
  /** A link, switch or node stops: everything on or through it is lost until it is up again. */
  DOWN("down"),
  /** A link, switch or node that was down works again, with empty queues (what was queued was lost). */
  UP("up"),
  /** Links get a new rate and/or a longer latency. */
  DEGRADE("degrade"),
  /** Links lose and/or corrupt packets with set probabilities (0 and 0 restores them). */
  LOSSY("lossy"),
  /** A host's processes get slower: send and receive overheads, reductions and copies take longer. */
  STRAGGLER("straggler");

  private final String configName;

  FaultAction(String configName) {
    this.configName = configName;
  }

  public String configName() {
    return configName;
  }

  /** True for the actions whose effect a neighbour notices by missed heartbeats (and reports): down and up. */
  public boolean detectable() {
    return this == DOWN || this == UP;
  }
}
