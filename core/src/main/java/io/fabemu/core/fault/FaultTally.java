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
  /**
   * Of those, the resends that were spurious: the copy sent before had arrived and its acknowledgement was on its
   * way when the timer fired (the timeout was too short, nothing was lost).
   */
  private final long[] spuriousResends;
  /** Packets a router network's NIC sent through a via node, by the event whose detours it followed. */
  private final long[] detouredPackets;
  /** When the last of those messages was sent again (-1: none, or sent without a time). */
  private final long[] lastResendPs;
  /** Copies of messages (or their packets) that had already arrived, discarded by the receiving NIC. */
  private long duplicatesDiscarded;

  /** For the wire serializer, which fills every field in (reports cross members). */
  @SuppressWarnings("unused")
  private FaultTally() {
    this(0);
  }

  public FaultTally(int eventCount) {
    this(new long[eventCount + 1], new long[eventCount + 1], new long[eventCount + 1], new long[eventCount + 1],
        new long[eventCount + 1], noTimes(eventCount + 1), 0);
  }

  private FaultTally(long[] lostPackets, long[] corruptedPackets, long[] resentMessages, long[] spuriousResends,
                     long[] detouredPackets, long[] lastResendPs, long duplicatesDiscarded) {
    this.lostPackets = lostPackets;
    this.corruptedPackets = corruptedPackets;
    this.resentMessages = resentMessages;
    this.spuriousResends = spuriousResends;
    this.detouredPackets = detouredPackets;
    this.lastResendPs = lastResendPs;
    this.duplicatesDiscarded = duplicatesDiscarded;
  }

  private static long[] noTimes(int slots) {
    long[] times = new long[slots];
    Arrays.fill(times, -1);
    return times;
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

  /** One of the messages resent because of event {@code eventId} turned out to be resent spuriously. */
  public void resendSpurious(int eventId) {
    spuriousResends[slot(eventId)]++;
  }

  public void packetDetoured(int eventId) {
    detouredPackets[slot(eventId)]++;
  }

  /** A message was sent again at {@code atPs} because of event {@code eventId} (its time is kept: the latest). */
  public void messageResent(int eventId, long atPs) {
    messageResent(eventId);
    lastResendPs[slot(eventId)] = Math.max(lastResendPs[slot(eventId)], atPs);
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

  /** Resends put down to event {@code eventId} whose copy before had arrived: see {@link #spuriousResends}. */
  public long spuriousResends(int eventId) {
    return spuriousResends[slot(eventId)];
  }

  /** Resends put down to event {@code eventId} that something lost made necessary (all of them but the spurious). */
  public long lossDrivenResends(int eventId) {
    return resentMessages[slot(eventId)] - spuriousResends[slot(eventId)];
  }

  public long detouredPackets(int eventId) {
    return detouredPackets[slot(eventId)];
  }

  /** When the last message resent because of event {@code eventId} was sent again; -1 when none was (with a time). */
  public long lastResendPs(int eventId) {
    return lastResendPs[slot(eventId)];
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

  public long totalSpuriousResends() {
    return Arrays.stream(spuriousResends).sum();
  }

  public long totalLossDrivenResends() {
    return totalResentMessages() - totalSpuriousResends();
  }

  /** A new tally with both devices' counts summed. */
  public FaultTally plus(FaultTally other) {
    if (other.lostPackets.length != lostPackets.length) {
      throw new IllegalArgumentException("tallies of " + eventCount() + " and " + other.eventCount() + " events");
    }
    long[] lost = lostPackets.clone();
    long[] corrupted = corruptedPackets.clone();
    long[] resent = resentMessages.clone();
    long[] spurious = spuriousResends.clone();
    long[] detoured = detouredPackets.clone();
    long[] lastResend = lastResendPs.clone();
    for (int i = 0; i < lost.length; i++) {
      lost[i] += other.lostPackets[i];
      corrupted[i] += other.corruptedPackets[i];
      resent[i] += other.resentMessages[i];
      spurious[i] += other.spuriousResends[i];
      detoured[i] += other.detouredPackets[i];
      lastResend[i] = Math.max(lastResend[i], other.lastResendPs[i]);
    }
    return new FaultTally(lost, corrupted, resent, spurious, detoured, lastResend,
        duplicatesDiscarded + other.duplicatesDiscarded);
  }

  /** A copy, for a report that must not change as the device goes on. */
  public FaultTally copy() {
    return new FaultTally(lostPackets.clone(), corruptedPackets.clone(), resentMessages.clone(),
        spuriousResends.clone(), detouredPackets.clone(), lastResendPs.clone(), duplicatesDiscarded);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof FaultTally t && Arrays.equals(lostPackets, t.lostPackets)
        && Arrays.equals(corruptedPackets, t.corruptedPackets) && Arrays.equals(resentMessages, t.resentMessages)
        && Arrays.equals(spuriousResends, t.spuriousResends)
        && Arrays.equals(detouredPackets, t.detouredPackets) && Arrays.equals(lastResendPs, t.lastResendPs)
        && duplicatesDiscarded == t.duplicatesDiscarded;
  }

  @Override
  public int hashCode() {
    return Arrays.hashCode(lostPackets) * 31 + Arrays.hashCode(resentMessages);
  }
}
