package io.fabemu.core.fault;

import io.fabemu.core.time.Units;

/**
 * How long a NIC's reliable transport waits for a message's acknowledgement before it sends the message again
 * ({@code faults.transport}): adaptive by default, a fixed wait when the scenario sets one.
 */
public sealed interface RetransmitTimeout {

  /** The default: an estimate per peer from the round trips measured, between 10 us and 10 ms. */
  RetransmitTimeout DEFAULT = new Adaptive(10_000_000L, 10_000_000_000L);

  /** The wait before retransmission {@code attempt} (0: after the first send), given the estimate's base wait. */
  long waitPs(long baseWaitPs, int attempt);

  /** For a reader: "adaptive, 10 us to 10 ms" or "1 ms". */
  String describe();

  /**
   * A fixed timeout ({@code faults.transport.retransmit-timeout = 30 us}): every message waits {@code timeoutPs}
   * after its last packet left, doubled per retransmission up to 64 times it.
   */
  record Fixed(long timeoutPs) implements RetransmitTimeout {
    public Fixed {
      if (timeoutPs <= 0) throw new IllegalArgumentException("retransmit timeout must be positive, got " + timeoutPs);
    }

    @Override
    public long waitPs(long baseWaitPs, int attempt) {
      return timeoutPs << Math.min(attempt, 6);
    }

    @Override
    public String describe() {
      return Units.format(timeoutPs);
    }
  }

  /**
   * The adaptive timeout (RFC 6298, in virtual time): per peer, a smoothed round trip and its variation from the
   * acknowledgements of messages sent once (Karn's rule: a resent message's acknowledgement says nothing of which
   * copy it answers), timeout = smoothed + 4 x variation, never below what the path itself takes for the message
   * (see the NIC's path estimate), bounded by {@code minPs} and {@code maxPs}; each expiry doubles the message's
   * wait, up to {@code maxPs}.
   */
  record Adaptive(long minPs, long maxPs) implements RetransmitTimeout {
    public Adaptive {
      if (minPs <= 0 || maxPs < minPs) {
        throw new IllegalArgumentException("adaptive retransmit timeout: the minimum must be positive and at most "
            + "the maximum, got " + minPs + " and " + maxPs + " ps");
      }
    }

    @Override
    public long waitPs(long baseWaitPs, int attempt) {
      long bounded = Math.min(maxPs, Math.max(minPs, baseWaitPs));
      // Doubling stops at the maximum (and long before a shift could overflow).
      return attempt >= 40 || bounded > (maxPs >> attempt) ? maxPs : bounded << attempt;
    }

    @Override
    public String describe() {
      return "adaptive, " + Units.format(minPs) + " to " + Units.format(maxPs);
    }
  }
}
