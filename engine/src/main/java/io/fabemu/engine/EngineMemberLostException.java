package io.fabemu.engine;

import io.fabemu.core.sim.DeviceReport.RankResult;
import java.util.List;

/**
 * A distributed run stopped because a member hosting one of its schedulers was lost: the cluster's failure
 * detector found it unreachable (a dead JVM, a cut network), or its scheduler stopped or its node left the
 * cluster. Carries what the run had finished: the per-rank case results streamed up with the windows every member
 * completed, so a caller can report the finished cases, marked incomplete.
 */
public final class EngineMemberLostException extends EngineFailedException {
  private static final long serialVersionUID = 1L;

  private final int memberId;
  private final String memberAddress;
  private final long completedThroughPs;
  private final transient List<RankResult> finishedResults;
  private final long windows;
  private final long events;

  /**
   * @param memberId           the lost member's id in the run
   * @param memberAddress      its {@code host:port}
   * @param completedThroughPs end of the last window every member completed (0 before the first)
   * @param finishedResults    the case results finished so far, sorted by (case, rank)
   * @param windows            windows opened so far
   * @param events             events handled in the completed windows
   */
  public EngineMemberLostException(String message, int memberId, String memberAddress, long completedThroughPs,
                                   List<RankResult> finishedResults, long windows, long events, Throwable cause) {
    super(message, cause);
    this.memberId = memberId;
    this.memberAddress = memberAddress;
    this.completedThroughPs = completedThroughPs;
    this.finishedResults = List.copyOf(finishedResults);
    this.windows = windows;
    this.events = events;
  }

  /** The same failure with a fresh stack trace (the caller's), this one as its cause. */
  EngineMemberLostException rethrown() {
    return new EngineMemberLostException(getMessage(), memberId, memberAddress, completedThroughPs, finishedResults,
        windows, events, this);
  }

  public int memberId() {
    return memberId;
  }

  /** {@code host:port} of the lost member. */
  public String memberAddress() {
    return memberAddress;
  }

  /** Virtual time (ps) at which the last window every member completed ended. */
  public long completedThroughPs() {
    return completedThroughPs;
  }

  /** The per-rank case results finished before the loss, sorted by (case index, rank). */
  public List<RankResult> finishedResults() {
    return finishedResults;
  }

  public long windows() {
    return windows;
  }

  public long events() {
    return events;
  }
}
