package io.fabemu.core.fault;

import java.util.Arrays;

/**
 * What one device counted of the faults, by the event that caused it (index = event id; the last index,
 * {@code eventCount}, holds what no event explains, such as a retransmission before any fault). Mutable, owned by
 * one device; {@link #plus} sums two devices' tallies.
 */
public final class FaultTally {
  /** Packets lost: sent on a link or to a device that was down, dropped by a lossy link, or without a route. */
  private final long[] lostPackets;
  /** Packets that arrived with a bad checksum and were dropped by their receiver. */
  private final long[] corruptedPackets;
  /** Messages sent again after their acknowledgement did not come in time. */
  private final long[] resentMessages;
  /** Packets a router network's NIC sent through a via node, by the event whose detours it followed. */
  private final long[] detouredPackets;
  /** Copies of messages (or their packets) that had already arrived, discarded by the receiving NIC. */
  private long duplicatesDiscarded;

  /** For the wire serializer, which fills every field in (reports cross members). */
  @SuppressWarnings("unused")
  private FaultTally() {
    this(0);
  }

  public FaultTally(int eventCount) {
    this(new long[eventCount + 1], new long[eventCount + 1], new long[eventCount + 1], new long[eventCount + 1], 0);
  }

  private FaultTally(long[] lostPackets, long[] corruptedPackets, long[] resentMessages, long[] detouredPackets,
                     long duplicatesDiscarded) {
    this.lostPackets = lostPackets;
    this.corruptedPackets = corruptedPackets;
    this.resentMessages = resentMessages;
    this.detouredPackets = detouredPackets;
    this.duplicatesDiscarded = duplicatesDiscarded;
  }

  /** The slot of event {@code eventId}, or of "no event" when it is negative. */
  private int slot(int eventId) {
    return eventId < 0 ? lostPackets.length - 1 : eventId;
  }

  public void packetLost(int eventId) {
    lostPackets[slot(eventId)]++;
  }

  public void packetCorrupted(int eventId) {
    corruptedPackets[slot(eventId)]++;
  }

  public void messageResent(int eventId) {
    resentMessages[slot(eventId)]++;
  }

  public void packetDetoured(int eventId) {
    detouredPackets[slot(eventId)]++;
  }

  public void duplicateDiscarded() {
    duplicatesDiscarded++;
  }

  /** Events this tally counts for (its slots minus the "no event" one). */
  public int eventCount() {
    return lostPackets.length - 1;
  }

  public long lostPackets(int eventId) {
    return lostPackets[slot(eventId)];
  }

  public long corruptedPackets(int eventId) {
    return corruptedPackets[slot(eventId)];
  }

  public long resentMessages(int eventId) {
    return resentMessages[slot(eventId)];
  }

  public long detouredPackets(int eventId) {
    return detouredPackets[slot(eventId)];
  }

  public long duplicatesDiscarded() {
    return duplicatesDiscarded;
  }

  public long totalDetouredPackets() {
    return Arrays.stream(detouredPackets).sum();
  }

  public long totalLostPackets() {
    return Arrays.stream(lostPackets).sum();
  }

  public long totalCorruptedPackets() {
    return Arrays.stream(corruptedPackets).sum();
  }

  public long totalResentMessages() {
    return Arrays.stream(resentMessages).sum();
  }

  /** A new tally with both devices' counts summed. */
  public FaultTally plus(FaultTally other) {
    if (other.lostPackets.length != lostPackets.length) {
      throw new IllegalArgumentException("tallies of " + eventCount() + " and " + other.eventCount() + " events");
    }
    long[] lost = lostPackets.clone();
    long[] corrupted = corruptedPackets.clone();
    long[] resent = resentMessages.clone();
    long[] detoured = detouredPackets.clone();
    for (int i = 0; i < lost.length; i++) {
      lost[i] += other.lostPackets[i];
      corrupted[i] += other.corruptedPackets[i];
      resent[i] += other.resentMessages[i];
      detoured[i] += other.detouredPackets[i];
    }
    return new FaultTally(lost, corrupted, resent, detoured, duplicatesDiscarded + other.duplicatesDiscarded);
  }

  /** A copy, for a report that must not change as the device goes on. */
  public FaultTally copy() {
    return new FaultTally(lostPackets.clone(), corruptedPackets.clone(), resentMessages.clone(),
        detouredPackets.clone(), duplicatesDiscarded);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof FaultTally t && Arrays.equals(lostPackets, t.lostPackets)
        && Arrays.equals(corruptedPackets, t.corruptedPackets) && Arrays.equals(resentMessages, t.resentMessages)
        && Arrays.equals(detouredPackets, t.detouredPackets) && duplicatesDiscarded == t.duplicatesDiscarded;
  }

  @Override
  public int hashCode() {
    return Arrays.hashCode(lostPackets) * 31 + Arrays.hashCode(resentMessages);
  }
}
