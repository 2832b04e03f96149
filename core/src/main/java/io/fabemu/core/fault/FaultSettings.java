package io.fabemu.core.fault;

/**
 * How failures are noticed and repaired, and how the NICs' transport recovers what they lost.
 *
 * @param heartbeatPeriodPs     neighbours exchange a heartbeat this often; a failure is noticed after
 *                              {@code heartbeatMisses} of them are missed ({@link #detectionDelayPs}), a repair after
 *                              the next one arrives ({@link #recoveryDetectionDelayPs})
 * @param heartbeatMisses       heartbeats missed in a row before a neighbour declares a link or device dead
 * @param managementLatencyPs   one way between any device and the management node (its own network)
 * @param managementUpdatePs    the management node's time to compute and send one table update (updates leave one
 *                              after another)
 * @param retransmitTimeout     how long a message not acknowledged after its last packet left waits before it is sent
 *                              again: adaptive (the default) or fixed
 * @param maxRetransmissions    retransmissions of one message before its NIC gives up on it (the run then ends
 *                              incomplete, naming the message)
 * @param baseline              whether a run also runs the scenario without its faults, whose collectives' durations
 *                              give the extra latency of the collectives each event touched (devices never read it)
 */
public record FaultSettings(long heartbeatPeriodPs, int heartbeatMisses, long managementLatencyPs,
                            long managementUpdatePs, RetransmitTimeout retransmitTimeout,
                            int maxRetransmissions, boolean baseline) {

  /**
   * Defaults: 1 us heartbeats, 3 misses, 1 us to the management node, 100 ns per update, the adaptive timeout, 10
   * tries, with the baseline run.
   */
  public static final FaultSettings DEFAULTS = new FaultSettings(1_000_000L, 3, 1_000_000L, 100_000L,
      RetransmitTimeout.DEFAULT, 10, true);

  public FaultSettings {
    if (heartbeatPeriodPs <= 0 || heartbeatMisses < 1 || managementLatencyPs <= 0 || managementUpdatePs < 0
        || retransmitTimeout == null || maxRetransmissions < 0) {
      throw new IllegalArgumentException("fault settings: heartbeat period and management latency must be "
          + "positive, misses at least 1, update time and retransmissions not negative, a retransmit timeout given");
    }
  }

  /** Settings with a fixed retransmit timeout, of a run that also runs its fault-free baseline. */
  public FaultSettings(long heartbeatPeriodPs, int heartbeatMisses, long managementLatencyPs,
                       long managementUpdatePs, long retransmitTimeoutPs, int maxRetransmissions) {
    this(heartbeatPeriodPs, heartbeatMisses, managementLatencyPs, managementUpdatePs,
        new RetransmitTimeout.Fixed(retransmitTimeoutPs), maxRetransmissions, true);
  }

  /** The same settings, with or without the fault-free baseline run. */
  public FaultSettings withBaseline(boolean newBaseline) {
    return new FaultSettings(heartbeatPeriodPs, heartbeatMisses, managementLatencyPs, managementUpdatePs,
        retransmitTimeout, maxRetransmissions, newBaseline);
  }

  /** From a failure to its neighbours' notice: {@code heartbeatMisses} heartbeat periods. */
  public long detectionDelayPs() {
    return heartbeatPeriodPs * heartbeatMisses;
  }

  /** From a repair to its neighbours' notice: the next heartbeat, one period. */
  public long recoveryDetectionDelayPs() {
    return heartbeatPeriodPs;
  }
}
