package io.fabemu.switching.inc;

import io.fabemu.core.data.DataBuffer;
import io.fabemu.core.data.ReduceOp;
import io.fabemu.core.protocol.DeviceProtocol.Packet;
import java.util.Arrays;

/**
 * A switch's aggregation slot for one fragment index of one INC group, with two generations, so that req_id r
 * and r + 1 may overlap (a slow leader may still need r's result, from a retransmission, while the others already
 * contribute to r + 1).
 *
 * <p>A generation is reused for req_id q once it holds an older req_id (by 2 or more, modulo 256) whose result is
 * done: a contribution to q means some leader has q - 1's result, so every leader contributed to q - 1, so every
 * leader had q - 2's result and nobody can ask for it again. (A retransmission of q - 2 sent before that would
 * have reached this switch first: links and INC units are FIFO.)
 *
 * <p>Streams: a slot of a streamed group serves one fragment of a window position, which chunk after chunk reuses
 * (see {@code IncStreamHeader}); a use is then (req_id, round), and the uses of a slot form one sequence: the
 * rounds of req_id r, then those of r + 1. The same argument holds one use apart instead of one req_id apart (a
 * leader sends round i + 1 of a position only once it has round i's result, and starts req_id r + 1 only once it
 * has every chunk of r), so a generation is reused once it holds a use at least two before the new one. A task that
 * fits one chunk has one round (0): the rule is then the req_id rule above.
 */
final class IncSlot {
  /** Where a generation stands. */
  enum State {
    /** Holds no request. */
    FREE,
    /** Waiting for contributions. */
    COLLECTING,
    /** Every child has contributed; the partial went to the parent, the result has not come back. */
    WAITING_PARENT,
    /** The result is known (computed here at the root, or received from the parent). */
    HAS_RESULT
  }

  /** One request's aggregation in this slot. */
  static final class Generation {
    State state = State.FREE;
    int reqId = -1;
    /** The use's round at its window position (0 unless streamed), and the stream's last round there. */
    int round;
    int lastRound;
    /** Bit c set once child c has contributed. */
    final long[] contributors;
    int contributed;
    /** The running aggregate; null for a data-less (synthetic) task, whose aggregation is counting only. */
    DataBuffer aggregate;
    /** The result once known: the aggregate at the root, the parent's data elsewhere (null when synthetic). */
    DataBuffer result;
    /** The first contribution: the fragment's layout (info, element offset, MPI header, Header2) for outputs. */
    Packet template;
    /** At a TOR, the contributions of its host children by child index, to fill the result into; else null. */
    final Packet[] cached;
    /** The partial sent to the parent, kept to resend it; null unless {@link State#WAITING_PARENT}. */
    Packet partial;

    Generation(int children, boolean cachePackets) {
      this.contributors = new long[(children + 63) >>> 6];
      this.cached = cachePackets ? new Packet[children] : null;
    }

    boolean hasContributed(int child) {
      return (contributors[child >>> 6] & (1L << (child & 63))) != 0;
    }

    /**
     * Counts child {@code child}'s contribution (never twice: the caller checks {@link #hasContributed}) and
     * reduces its data into the aggregate with {@code op}.
     */
    void contribute(int child, Packet packet, ReduceOp op) {
      contributors[child >>> 6] |= 1L << (child & 63);
      contributed++;
      if (template == null) {
        template = packet;
      }
      if (cached != null) {
        cached[child] = packet;
      }
      if (packet.slice() != null) {
        if (aggregate == null) {
          // A copy: the received slice may be shared with its sender (kept there for retransmission).
          aggregate = packet.slice().slice(0, packet.slice().count());
        } else {
          aggregate.reduceFrom(op, 0, packet.slice());
        }
      }
    }

    void reset(int newReqId, int newRound, int newLastRound) {
      state = State.COLLECTING;
      reqId = newReqId;
      round = newRound;
      lastRound = newLastRound;
      Arrays.fill(contributors, 0L);
      contributed = 0;
      aggregate = null;
      result = null;
      template = null;
      partial = null;
      if (cached != null) {
        Arrays.fill(cached, null);
      }
    }
  }

  private final Generation[] generations;

  IncSlot(int children, boolean cachePackets) {
    this.generations = new Generation[] {new Generation(children, cachePackets),
        new Generation(children, cachePackets)};
  }

  /** The generation holding {@code reqId} (round 0), or null. */
  Generation find(int reqId) {
    return find(reqId, 0);
  }

  /** The generation holding round {@code round} of {@code reqId}, or null. */
  Generation find(int reqId, int round) {
    for (Generation g : generations) {
      if (g.state != State.FREE && g.reqId == reqId && g.round == round) return g;
    }
    return null;
  }

  /** {@link #acquire(int, int, int)} for a task that fits one chunk. */
  Generation acquire(int reqId) {
    return acquire(reqId, 0, 0);
  }

  /**
   * The generation of round {@code round} of {@code reqId} (whose stream's last round here is {@code lastRound}):
   * the one holding it, else a free one, else the one holding the oldest finished use at least two uses behind;
   * null when both generations are busy with other uses.
   */
  Generation acquire(int reqId, int round, int lastRound) {
    Generation held = find(reqId, round);
    if (held != null) {
      return held;
    }
    Generation chosen = null;
    long chosenDistance = -1;
    for (Generation g : generations) {
      if (g.state == State.FREE) {
        chosen = g;
        break;
      }
      long distance = usesBetween(g, reqId, round);
      if (g.state == State.HAS_RESULT && distance >= 2 && distance > chosenDistance) {
        chosen = g;
        chosenDistance = distance;
      }
    }
    if (chosen != null) {
      chosen.reset(reqId, round, lastRound);
    }
    return chosen;
  }

  /**
   * How many uses of this slot after {@code g}'s the use (reqId, round) is; 0 or less when it is not later. Across
   * req_ids two or more apart the count is only known to be large: it is ordered by the req_id age, as a task of one
   * chunk orders it.
   */
  private static long usesBetween(Generation g, int reqId, int round) {
    int age = (reqId - g.reqId) & 0xFF;
    // Ages 128..255 are requests newer than reqId (req_id wraps at 256): never reusable for an older one.
    if (age >= 128) return -1;
    if (age == 0) return round - g.round;
    if (age == 1) return (long) (g.lastRound - g.round) + 1 + round;
    return (long) age << 32;
  }

  /** The req_ids the two generations hold, for messages. */
  String describe() {
    StringBuilder s = new StringBuilder();
    for (Generation g : generations) {
      if (s.length() > 0) s.append(", ");
      s.append(g.state == State.FREE ? "free" : "req_id " + g.reqId + (g.round > 0 || g.lastRound > 0
          ? " round " + g.round : "") + " " + g.state.name().toLowerCase());
    }
    return s.toString();
  }
}
