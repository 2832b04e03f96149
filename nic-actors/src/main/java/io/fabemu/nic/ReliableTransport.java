package io.fabemu.nic;

import io.fabemu.core.fault.FaultSettings;
import io.fabemu.core.fault.FaultTally;
import io.fabemu.core.fault.RetransmitTimeout;
import io.fabemu.core.protocol.DeviceProtocol.TransportTimer;
import io.fabemu.core.protocol.Message;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The NIC's upper layer in a run with faults, so that no data is lost: it numbers the messages to each destination
 * (0, 1, 2, ...), keeps each until the destination's NIC acknowledges it (once every packet of it is in), sends it
 * again when the acknowledgement does not come within the retransmission timeout (doubled per try), and gives up
 * after the set number of retransmissions. The receiving side remembers what it delivered, so a copy that arrives
 * after its message (a retransmission whose first send did get through, its acknowledgement lost) is discarded and
 * acknowledged again, never delivered twice.
 *
 * <p>The timeout ({@link RetransmitTimeout}) is fixed or adaptive. Adaptive, each destination has a
 * {@link RoundTripEstimator} fed by the acknowledgements of messages sent once (Karn's rule); a destination not
 * measured yet borrows the estimate of all this NIC's destinations, and no message waits less than three idle round
 * trips ({@link PathRoundTrip}) of the largest message this NIC has sent.
 *
 * <p>Every copy is numbered (0 for the first send, k for the k-th resend) and an acknowledgement says which copy
 * made it ({@code Packet.transmission}). So when the first acknowledgement of a resent message answers copy c, the
 * resends after copy c were <em>spurious</em>: copy c had arrived and its acknowledgement was on its way when the
 * timer fired; the resends up to c were driven by loss (a copy or its acknowledgement was lost). The tally counts
 * both, each against the event its resend was put down to.
 *
 * <p>Plain bookkeeping, driven by {@link ReliableTransportExtension}: it sends nothing itself. Not thread-safe (one
 * device's).
 */
final class ReliableTransport {
  private final int host;
  private final FaultSettings settings;
  private final FaultTally tally;
  private final PathRoundTrip paths;
  /** Round trips measured per destination host, and over all of them. */
  private final Map<Integer, RoundTripEstimator> roundTrips = new HashMap<>();
  private final RoundTripEstimator allRoundTrips = new RoundTripEstimator();
  /** Next sequence number per destination host. */
  private final Map<Integer, long[]> nextSequence = new HashMap<>();
  /** Messages sent and not yet acknowledged, by {@link #key}. */
  private final Map<Long, Pending> pending = new HashMap<>();
  /** What each source delivered here, by source host. */
  private final Map<Integer, Delivered> delivered = new HashMap<>();
  private final List<String> gaveUp = new ArrayList<>();
  private long nextSerial;
  /** The largest message this NIC has sent so far (what an acknowledgement may queue behind, see baseTimeoutPs). */
  private long largestSentBytes;

  /**
   * @param tally counts the resends (against the event each is put down to) and which of them were spurious
   * @param paths the idle round trip of a message (the adaptive timeout's floor)
   */
  ReliableTransport(int host, FaultSettings settings, FaultTally tally, PathRoundTrip paths) {
    this.host = host;
    this.settings = settings;
    this.tally = tally;
    this.paths = paths;
  }

  /** Hosts are at most 2^20 and sequences far below 2^43: one long keys a (destination, sequence) pair. */
  private static long key(int destinationHost, long sequence) {
    return ((long) destinationHost << 43) | sequence;
  }

  /** The sequence number of the next message to {@code destinationHost}. */
  long nextSequence(int destinationHost) {
    return nextSequence.computeIfAbsent(destinationHost, d -> new long[1])[0]++;
  }

  /**
   * A new timer for message {@code sequence} to {@code destinationHost}, which left again (its earlier timers are
   * void); null when it is no longer waiting for its acknowledgement.
   */
  TransportTimer rearm(int destinationHost, long sequence) {
    Pending p = pending.get(key(destinationHost, sequence));
    if (p == null) return null;
    p.serial = nextSerial++;
    return new TransportTimer(destinationHost, sequence, p.serial);
  }

  /**
   * Records that message {@code sequence} to {@code destinationHost} was (re)sent, and returns its timer, to be due
   * {@link #armedAt} after its last packet left.
   */
  TransportTimer sent(int destinationHost, long sequence, Message message) {
    Pending p = pending.computeIfAbsent(key(destinationHost, sequence),
        k -> new Pending(destinationHost, sequence, message));
    largestSentBytes = Math.max(largestSentBytes, message.sizeBytes());
    p.serial = nextSerial++;
    return new TransportTimer(destinationHost, sequence, p.serial);
  }

  /**
   * The last packet of message {@code sequence} to {@code destinationHost} left at {@code leftPs}: its round trip is
   * measured from then. Returns how long after that it is resent unless acknowledged.
   */
  long armedAt(int destinationHost, long sequence, long leftPs) {
    Pending p = pending.get(key(destinationHost, sequence));
    if (p == null) return settings.retransmitTimeout().waitPs(0, 0);
    p.leftPs = leftPs;
    return settings.retransmitTimeout().waitPs(baseTimeoutPs(p), p.retransmissions);
  }

  /**
   * The adaptive timeout's base for {@code p}: the destination's estimate (or, before its first sample, all
   * destinations'), never below three idle round trips of the largest message this NIC has sent. Not of {@code p}'s
   * own size: the destination's acknowledgement leaves behind what the destination is sending itself, and in a
   * collective that is as large as what this NIC sends (a pairwise exchange of 1 MiB: a small control message's
   * acknowledgement waits ~84 us at 100 Gb/s behind its peer's megabyte, where its own round trip is a few
   * microseconds; the estimator, fed mostly by the short ones, would resend it spuriously).
   */
  private long baseTimeoutPs(Pending p) {
    if (!(settings.retransmitTimeout() instanceof RetransmitTimeout.Adaptive)) return 0;
    RoundTripEstimator own = roundTrips.get(p.destinationHost);
    long estimatePs = own != null ? own.timeoutPs() : allRoundTrips.timeoutPs();
    return Math.max(estimatePs, 3 * paths.roundTripPs(p.destinationHost, largestSentBytes));
  }

  /** Which copy of message {@code sequence} to {@code destinationHost} is the latest sent (0: the first send). */
  int transmission(int destinationHost, long sequence) {
    Pending p = pending.get(key(destinationHost, sequence));
    return p == null ? 0 : p.retransmissions;
  }

  /**
   * A timer fired: the message to send again (counted as resent against {@code causeEventId}, the last event that
   * impaired anything by now, -1 for none), or null when it was acknowledged, the timer is stale, or the NIC gives up
   * on it now (recorded, see {@link #gaveUp}).
   */
  Message onTimer(TransportTimer timer, long nowPs, int causeEventId) {
    long k = key(timer.destinationHost(), timer.sequence());
    Pending p = pending.get(k);
    if (p == null || p.serial != timer.serial()) return null;
    if (p.retransmissions == settings.maxRetransmissions()) {
      pending.remove(k);
      Message m = p.message;
      gaveUp.add(String.format(Locale.ROOT, "host %d gave up on message %d to host %d (rank %d -> rank %d, "
          + "tag %d, %d B) after %d retransmissions, at %.3f us", host, p.sequence, p.destinationHost,
          m.sourceRank(), m.destinationRank(), m.tag(), m.sizeBytes(), p.retransmissions, nowPs / 1e6));
      return null;
    }
    if (p.resendCauses == null) p.resendCauses = new int[settings.maxRetransmissions()];
    p.resendCauses[p.retransmissions] = causeEventId;
    p.retransmissions++;
    tally.messageResent(causeEventId, nowPs);
    return p.message;
  }

  /**
   * The acknowledgement of message {@code sequence} to {@code destinationHost} came at {@code nowPs}, answering copy
   * {@code answeredTransmission}; a later acknowledgement of the same message is ignored. A message sent once gives
   * a round-trip sample; the resends of one sent more often after the copy the acknowledgement answers are counted
   * as spurious.
   */
  void acknowledged(int destinationHost, long sequence, int answeredTransmission, long nowPs) {
    Pending p = pending.remove(key(destinationHost, sequence));
    if (p == null) return;
    if (p.retransmissions == 0) {
      if (p.leftPs >= 0 && nowPs >= p.leftPs) {
        long roundTripPs = nowPs - p.leftPs;
        roundTrips.computeIfAbsent(destinationHost, d -> new RoundTripEstimator()).sample(roundTripPs);
        allRoundTrips.sample(roundTripPs);
      }
      return;
    }
    // Resend r (1-based) made copy r: those after the copy answered went while it was already in, or on its way.
    for (int r = Math.max(answeredTransmission, 0) + 1; r <= p.retransmissions; r++) {
      tally.resendSpurious(p.resendCauses[r - 1]);
    }
  }

  /** Whether message {@code sequence} from {@code sourceHost} was delivered here already. */
  boolean isDelivered(int sourceHost, long sequence) {
    Delivered d = delivered.get(sourceHost);
    return d != null && d.contains(sequence);
  }

  void markDelivered(int sourceHost, long sequence) {
    delivered.computeIfAbsent(sourceHost, s -> new Delivered()).add(sequence);
  }

  /** Messages sent and not acknowledged yet. */
  int unacknowledged() {
    return pending.size();
  }

  /** One line per message this NIC gave up on, in the order it did. */
  List<String> gaveUp() {
    return List.copyOf(gaveUp);
  }

  private static final class Pending {
    final int destinationHost;
    final long sequence;
    final Message message;
    int retransmissions;
    long serial;
    /** When the last packet of the latest copy left (the round trip's start); -1 before it has. */
    long leftPs = -1;
    /** The event each resend was put down to, by resend (0 = the first resend); null before the first. */
    int[] resendCauses;

    Pending(int destinationHost, long sequence, Message message) {
      this.destinationHost = destinationHost;
      this.sequence = sequence;
      this.message = message;
    }
  }

  /**
   * The sequences one source delivered: all below {@code below}, and the ones above it in {@code above} (messages
   * complete out of order when one of them needed a retransmission).
   */
  private static final class Delivered {
    long below;
    final Set<Long> above = new HashSet<>();

    boolean contains(long sequence) {
      return sequence < below || above.contains(sequence);
    }

    void add(long sequence) {
      if (sequence != below) {
        above.add(sequence);
        return;
      }
      below++;
      while (above.remove(below)) below++;
    }
  }
}
