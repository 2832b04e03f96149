package io.fabemu.core.sim;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/**
 * What one device measured during a run: the kernel's figures (the counters of its outgoing links, for compute nodes
 * the per-rank collective results, for routers their virtual channels) and the parts its features contributed
 * ({@link ReportPart}: a NIC's synthetic-traffic statistics, what a device counted of the faults, its part of the
 * external Ethernet or of the OCS controller's work). The kernel carries the parts without knowing them; a feature's
 * result aggregation reads its part by class ({@link #part}). Built with {@link #builder}, or, for the kernel's
 * figures alone, the three-argument constructor.
 *
 * @param virtualChannels a router's input virtual channels and how long each held a packet; empty for every other
 *                        device
 * @param parts           the features' parts, at most one of each class, in the order the device added them; empty
 *                        for a device whose features measured nothing
 */
public record DeviceReport(int deviceId, List<LinkCounters> links, List<RankResult> ranks,
                           List<VcCounters> virtualChannels, List<ReportPart> parts) {

  /**
   * @throws IllegalArgumentException when two parts have the same class
   */
  public DeviceReport {
    Objects.requireNonNull(links, "links");
    Objects.requireNonNull(ranks, "ranks");
    virtualChannels = virtualChannels == null ? List.of() : virtualChannels;
    parts = ReportPart.distinct(parts, "device " + deviceId + " reports");
  }

  /** A report of the kernel's figures alone: no virtual channels, no parts. */
  public DeviceReport(int deviceId, List<LinkCounters> links, List<RankResult> ranks) {
    this(deviceId, links, ranks, List.of(), List.of());
  }

  /** A builder of device {@code deviceId}'s report, empty until its setters say otherwise. */
  public static Builder builder(int deviceId) {
    return new Builder(deviceId);
  }

  /** The part of class {@code type} a feature contributed, or null when this report has none. */
  public <T extends ReportPart> T part(Class<T> type) {
    return ReportPart.find(parts, type);
  }

  /**
   * Builds a {@link DeviceReport}; links, ranks and virtual channels default to empty, and parts are added one by one
   * (a null part, a feature that measured nothing, is left out).
   */
  public static final class Builder {
    private final int deviceId;
    private List<LinkCounters> links = List.of();
    private List<RankResult> ranks = List.of();
    private List<VcCounters> virtualChannels = List.of();
    private final List<ReportPart> parts = new ArrayList<>(2);

    private Builder(int deviceId) {
      this.deviceId = deviceId;
    }

    public Builder links(List<LinkCounters> links) {
      this.links = links;
      return this;
    }

    public Builder ranks(List<RankResult> ranks) {
      this.ranks = ranks;
      return this;
    }

    public Builder virtualChannels(List<VcCounters> virtualChannels) {
      this.virtualChannels = virtualChannels;
      return this;
    }

    /** Adds a feature's part; a null part is left out. */
    public Builder part(ReportPart part) {
      if (part != null) parts.add(part);
      return this;
    }

    /**
     * @throws IllegalArgumentException when two parts have the same class
     */
    public DeviceReport build() {
      return new DeviceReport(deviceId, links, ranks, virtualChannels, parts);
    }
  }

  /**
   * One input virtual channel of a router: the channel from {@code fromDevice} into {@code toDevice}, virtual channel
   * {@code vc}.
   *
   * @param busyCycles         cycles it held a packet (from the packet's route computation to its tail's departure,
   *                           over the packets whose tail left)
   * @param windowBusyCycles   the part of those inside a synthetic-traffic run's measurement window (0 otherwise)
   * @param windowFlitsArrived flits that arrived in it in a cycle of that window (0 otherwise)
   */
  public record VcCounters(int fromDevice, int toDevice, int vc, long busyCycles, long windowBusyCycles,
                           long windowFlitsArrived) {}

  /**
   * Counters of one directed link, kept by its sending port.
   *
   * @param fromDevice device that transmits
   * @param toDevice   device that receives
   * @param bytes      bytes put on the wire, headers included
   * @param packets    packets (segments) sent
   * @param busy       when the port was serializing: its total is {@link #busyPs()}, its periods let a report cut it
   *                   by case
   * @param droppedPackets packets lost on the link by injected loss (they are counted in {@code bytes},
   *                   {@code packets} and the busy time too: they were sent)
   */
  public record LinkCounters(int fromDevice, int toDevice, long bytes, long packets, BusyProfile busy,
                             long droppedPackets) {

    public LinkCounters {
      Objects.requireNonNull(busy, "busy");
    }

    /** Counters that know how long the port was busy but not when. */
    public LinkCounters(int fromDevice, int toDevice, long bytes, long packets, long busyPs, long droppedPackets) {
      this(fromDevice, toDevice, bytes, packets, BusyProfile.untimed(busyPs), droppedPackets);
    }

    /** Counters of a link that lost nothing, without a timeline. */
    public LinkCounters(int fromDevice, int toDevice, long bytes, long packets, long busyPs) {
      this(fromDevice, toDevice, bytes, packets, busyPs, 0L);
    }

    /** Time the port spent serializing, over the whole run. */
    public long busyPs() {
      return busy.totalPs();
    }
  }

  /**
   * One rank's figures for one measured case (algorithm and size).
   *
   * @param rank            world rank
   * @param caseIndex       index of the (algorithm, size) case in the workload's order
   * @param iterations      measured iterations (warm-up excluded)
   * @param totalLatencyPs  sum of the measured iterations' latencies
   * @param minLatencyPs    fastest measured iteration
   * @param maxLatencyPs    slowest measured iteration
   * @param wrongElements   output elements that differed from the exact answer, over all iterations
   * @param incOutcome      for an in-network case, how its INC setup ended (an {@code IncCodes.FailCause} code:
   *                        0 = INC used, else why the case fell back to the host algorithm); -1 for other cases
   * @param iterationLatenciesPs the latency of each measured iteration, in order ({@code iterations} of them; empty
   *                        where a test leaves them out); the tail percentiles of OSU's {@code -z} come from these
   * @param iterationStartsPs    the virtual time each measured iteration started at on this rank, in order (as many
   *                        as {@code iterationLatenciesPs}, or empty); with the latencies they place each
   *                        collective in time, which a run with faults compares with the fault events
   * @param partEndsPs      for an operation cut into parts (a pipeline iteration: forward, backward), per measured
   *                        iteration in order, the virtual time each part ended on this rank (iteration-major:
   *                        {@code parts} entries per iteration); empty otherwise
   * @param caseStartPs     the virtual time this rank began the case (its INC setup or its first warm-up
   *                        iteration); -1 where a test leaves it out. Not in the digest: the latencies already are
   * @param caseEndPs       the virtual time this rank finished the case (the barrier after its last iteration
   *                        completed; an INC case's release comes after); -1 exactly when {@code caseStartPs} is
   */
  public record RankResult(int rank, int caseIndex, int iterations, long totalLatencyPs, long minLatencyPs,
                           long maxLatencyPs, long wrongElements, int incOutcome, long[] iterationLatenciesPs,
                           long[] iterationStartsPs, long[] partEndsPs, long caseStartPs, long caseEndPs) {

    public RankResult {
      iterationLatenciesPs = iterationLatenciesPs == null ? new long[0] : iterationLatenciesPs;
      iterationStartsPs = iterationStartsPs == null ? new long[0] : iterationStartsPs;
      partEndsPs = partEndsPs == null ? new long[0] : partEndsPs;
      if ((caseStartPs < 0) != (caseEndPs < 0) || caseEndPs < caseStartPs) {
        throw new IllegalArgumentException("rank " + rank + " case " + caseIndex + ": case interval [" + caseStartPs
            + ", " + caseEndPs + "] ps is not an interval (both -1, or start <= end)");
      }
    }

    /** True when the result holds the case's interval ({@link #caseStartPs}, {@link #caseEndPs}). */
    public boolean caseTimed() {
      return caseStartPs >= 0;
    }

    /**
     * A builder of rank {@code rank}'s result of case {@code caseIndex} over {@code iterations} measured iterations,
     * every other component at its default until set: latencies 0, no wrong element, not in-network (incOutcome -1),
     * no per-iteration figures, no part ends, no case interval (-1).
     */
    public static Builder builder(int rank, int caseIndex, int iterations) {
      return new Builder(rank, caseIndex, iterations);
    }

    /** A builder holding every component of this rank result, to build a copy with some of them changed. */
    public Builder toBuilder() {
      return new Builder(rank, caseIndex, iterations).totalLatencyPs(totalLatencyPs).minLatencyPs(minLatencyPs)
          .maxLatencyPs(maxLatencyPs).wrongElements(wrongElements).incOutcome(incOutcome)
          .iterationLatenciesPs(iterationLatenciesPs).iterationStartsPs(iterationStartsPs).partEndsPs(partEndsPs)
          .caseStartPs(caseStartPs).caseEndPs(caseEndPs);
    }

    /**
     * Names the components of a {@link RankResult}, one setter each (named as the component, see the record for
     * their meaning). Not thread-safe; {@link #build()} may be called more than once.
     */
    public static final class Builder {
      private int rank;
      private int caseIndex;
      private int iterations;
      private long totalLatencyPs;
      private long minLatencyPs;
      private long maxLatencyPs;
      private long wrongElements;
      private int incOutcome = -1;
      private long[] iterationLatenciesPs;
      private long[] iterationStartsPs;
      private long[] partEndsPs;
      private long caseStartPs = -1;
      private long caseEndPs = -1;

      private Builder(int rank, int caseIndex, int iterations) {
        this.rank = rank;
        this.caseIndex = caseIndex;
        this.iterations = iterations;
      }

      /** Sets {@link RankResult#rank()}. */
      public Builder rank(int rank) {
        this.rank = rank;
        return this;
      }

      /** Sets {@link RankResult#caseIndex()}. */
      public Builder caseIndex(int caseIndex) {
        this.caseIndex = caseIndex;
        return this;
      }

      /** Sets {@link RankResult#iterations()}. */
      public Builder iterations(int iterations) {
        this.iterations = iterations;
        return this;
      }

      /** Sets {@link RankResult#totalLatencyPs()}. */
      public Builder totalLatencyPs(long totalLatencyPs) {
        this.totalLatencyPs = totalLatencyPs;
        return this;
      }

      /** Sets {@link RankResult#minLatencyPs()}. */
      public Builder minLatencyPs(long minLatencyPs) {
        this.minLatencyPs = minLatencyPs;
        return this;
      }

      /** Sets {@link RankResult#maxLatencyPs()}. */
      public Builder maxLatencyPs(long maxLatencyPs) {
        this.maxLatencyPs = maxLatencyPs;
        return this;
      }

      /** Sets {@link RankResult#wrongElements()}. */
      public Builder wrongElements(long wrongElements) {
        this.wrongElements = wrongElements;
        return this;
      }

      /** Sets {@link RankResult#incOutcome()}. */
      public Builder incOutcome(int incOutcome) {
        this.incOutcome = incOutcome;
        return this;
      }

      /** Sets {@link RankResult#iterationLatenciesPs()}. */
      public Builder iterationLatenciesPs(long[] iterationLatenciesPs) {
        this.iterationLatenciesPs = iterationLatenciesPs;
        return this;
      }

      /** Sets {@link RankResult#iterationStartsPs()}. */
      public Builder iterationStartsPs(long[] iterationStartsPs) {
        this.iterationStartsPs = iterationStartsPs;
        return this;
      }

      /** Sets {@link RankResult#partEndsPs()}. */
      public Builder partEndsPs(long[] partEndsPs) {
        this.partEndsPs = partEndsPs;
        return this;
      }

      /** Sets {@link RankResult#caseStartPs()}. */
      public Builder caseStartPs(long caseStartPs) {
        this.caseStartPs = caseStartPs;
        return this;
      }

      /** Sets {@link RankResult#caseEndPs()}. */
      public Builder caseEndPs(long caseEndPs) {
        this.caseEndPs = caseEndPs;
        return this;
      }

      /** A rank result of the components set so far, through the canonical constructor. */
      public RankResult build() {
        return new RankResult(rank, caseIndex, iterations, totalLatencyPs, minLatencyPs, maxLatencyPs, wrongElements,
            incOutcome, iterationLatenciesPs, iterationStartsPs, partEndsPs, caseStartPs, caseEndPs);
      }
    }

    // A record compares arrays by identity; results are values, so compare the latencies' contents.
    @Override
    public boolean equals(Object o) {
      return o instanceof RankResult r && rank == r.rank && caseIndex == r.caseIndex && iterations == r.iterations
          && totalLatencyPs == r.totalLatencyPs && minLatencyPs == r.minLatencyPs && maxLatencyPs == r.maxLatencyPs
          && wrongElements == r.wrongElements && incOutcome == r.incOutcome
          && Arrays.equals(iterationLatenciesPs, r.iterationLatenciesPs)
          && Arrays.equals(iterationStartsPs, r.iterationStartsPs) && Arrays.equals(partEndsPs, r.partEndsPs)
          && caseStartPs == r.caseStartPs && caseEndPs == r.caseEndPs;
    }

    @Override
    public int hashCode() {
      return 31 * (31 * (31 * Objects.hash(rank, caseIndex, iterations, totalLatencyPs, minLatencyPs, maxLatencyPs,
          wrongElements, incOutcome) + Arrays.hashCode(iterationLatenciesPs)) + Arrays.hashCode(iterationStartsPs))
          + Arrays.hashCode(partEndsPs) + 7 * Long.hashCode(caseStartPs) + 11 * Long.hashCode(caseEndPs);
    }

    @Override
    public String toString() {
      return "RankResult[rank=" + rank + ", caseIndex=" + caseIndex + ", iterations=" + iterations
          + ", totalLatencyPs=" + totalLatencyPs + ", minLatencyPs=" + minLatencyPs + ", maxLatencyPs="
          + maxLatencyPs + ", wrongElements=" + wrongElements + ", incOutcome=" + incOutcome
          + ", iterationLatenciesPs=" + Arrays.toString(iterationLatenciesPs) + ", iterationStartsPs="
          + Arrays.toString(iterationStartsPs) + ", partEndsPs=" + Arrays.toString(partEndsPs) + ", caseStartPs="
          + caseStartPs + ", caseEndPs=" + caseEndPs + "]";
    }
  }
}
