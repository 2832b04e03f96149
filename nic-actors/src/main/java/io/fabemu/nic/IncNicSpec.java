package io.fabemu.nic;

/**
 * A NIC's INC unit (the INC patent): it cuts a task into fragments and merges result fragments.
 *
 * @param fragmentBytes        data bytes per fragment (at most every INC switch's max payload)
 * @param engineLatencyPs      time the engine spends per fragment it builds or merges
 * @param retransmitTimeoutPs  how long the NIC waits for a task's result before it resends the fragments still
 *                             missing (loss recovery)
 * @param maxRetransmits       resends per task before the run fails with an error naming the task
 * @param streamWindow         chunks of one streamed task the NIC keeps in flight at most (0..127; 0: no
 *                             streaming, a message larger than the switches' max data size falls back to the host)
 */
public record IncNicSpec(int fragmentBytes, long engineLatencyPs, long retransmitTimeoutPs, int maxRetransmits,
                         int streamWindow) {
  /** Largest stream window (the 7 bits of sup_comm_type that carry it). */
  public static final int MAX_STREAM_WINDOW = 127;

  public IncNicSpec {
    if (streamWindow < 0 || streamWindow > MAX_STREAM_WINDOW) {
      throw new IllegalArgumentException("a NIC's INC stream window must be 0.." + MAX_STREAM_WINDOW + ", got "
          + streamWindow);
    }
  }

  /** A NIC INC unit that does not stream: messages larger than one task fall back to the host. */
  public IncNicSpec(int fragmentBytes, long engineLatencyPs, long retransmitTimeoutPs, int maxRetransmits) {
    this(fragmentBytes, engineLatencyPs, retransmitTimeoutPs, maxRetransmits, 0);
  }
}
