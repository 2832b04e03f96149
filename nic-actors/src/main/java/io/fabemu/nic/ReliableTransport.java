package io.fabemu.nic;

import io.fabemu.core.fault.FaultSettings;
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
 * <p>Plain bookkeeping, driven by {@link NicCore}: it sends nothing itself. Not thread-safe (one device's).
 */
final class ReliableTransport {
  private final int host;
  private final FaultSettings settings;
  /** Next sequence number per destination host. */
  private final Map<Integer, long[]> nextSequence = new HashMap<>();
  /** Messages sent and not yet acknowledged, by {@link #key}. */
  private final Map<Long, Pending> pending = new HashMap<>();
  /** What each source delivered here, by source host. */
  private final Map<Integer, Delivered> delivered = new HashMap<>();
  private final List<String> gaveUp = new ArrayList<>();
  private long nextSerial;

  ReliableTransport(int host, FaultSettings settings) {
    this.host = host;
    this.settings = settings;
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
   * Records that message {@code sequence} to {@code destinationHost} was (re)sent, and returns its timer, to be due
   * {@link #waitPs} after its last packet left.
   */
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

  TransportTimer sent(int destinationHost, long sequence, Message message) {
    Pending p = pending.computeIfAbsent(key(destinationHost, sequence),
        k -> new Pending(destinationHost, sequence, message));
    p.serial = nextSerial++;
    return new TransportTimer(destinationHost, sequence, p.serial);
  }

  /** How long after its last packet left message {@code sequence} to {@code destinationHost} is resent. */
  long waitPs(int destinationHost, long sequence) {
    Pending p = pending.get(key(destinationHost, sequence));
    return settings.retransmitWaitPs(p == null ? 0 : p.retransmissions);
  }

  /**
   * A timer fired: the message to send again, or null when it was acknowledged, the timer is stale, or the NIC
   * gives up on it now (recorded, see {@link #gaveUp}).
   */
  Message onTimer(TransportTimer timer, long nowPs) {
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
    p.retransmissions++;
    return p.message;
  }

  /** The acknowledgement of message {@code sequence} to {@code destinationHost} came (a late copy is ignored). */
  void acknowledged(int destinationHost, long sequence) {
    pending.remove(key(destinationHost, sequence));
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
