package io.fabemu.cluster.scenario;

import io.fabemu.core.placement.PlacementOverride;
import io.fabemu.core.placement.PlacementPlan;
import io.fabemu.core.topology.Topology;
import io.fabemu.core.topology.TopologySpec;
import io.fabemu.fabric.ScenarioSpec;
import java.util.OptionalInt;

/**
 * A {@link ResourceEstimate} spread over the members of a run: the heap each JVM needs when the run is on N members,
 * and the fewest members a scenario needs on given heaps.
 *
 * <p>Contract: arithmetic over the spec's counts, as the estimate itself (no topology, no placement is built, unless
 * the scenario fixes the placement with {@code cluster.placement}), so it answers at once for any size. Placement
 * ({@code PlacementPlan}) never splits a placement group: a TOR with its hosts on a leaf-spine, a server with its NPUs
 * and their server switch on the optical cluster, one host (with its router, if any) elsewhere; it balances the
 * members' device counts, so the largest member holds at most ⌈groups / N⌉ whole groups. Every member holds the base
 * (JVM, classes, actor system) and that largest member's share of the hosts of what grows with the fabric (devices,
 * schedules, buffers, each per rank or per device: the switches and links are counted in the same share, which errs
 * high by at most a group's switch); the coordinator's JVM, which hosts member 1, also holds every rank's results.
 * Using the largest member's whole groups rather than the even 1/N share makes the figure the one the fullest member
 * needs (e.g. 128 TORs on 3 members: 43 TORs, not 42.7).
 */
public final class MemberHeapEstimate {
  private final ResourceEstimate estimate;
  /** Hosts of the fabric. */
  private final long hosts;
  /** Placement groups: the units placement never splits, at most one member per group. */
  private final long groups;
  /** Hosts of the largest placement group. */
  private final long hostsPerGroup;
  /** Members the scenario's {@code cluster.placement} lists; 0 without one. */
  private final int placedMembers;
  /** Hosts of the fullest member of the scenario's {@code cluster.placement}; 0 without one. */
  private final long placedLargestHosts;

  MemberHeapEstimate(ResourceEstimate estimate, long hosts, long groups, long hostsPerGroup) {
    this(estimate, hosts, groups, hostsPerGroup, 0, 0);
  }

  private MemberHeapEstimate(ResourceEstimate estimate, long hosts, long groups, long hostsPerGroup,
                             int placedMembers, long placedLargestHosts) {
    if (hosts < 1 || groups < 1 || hostsPerGroup < 1 || groups * hostsPerGroup < hosts) {
      throw new IllegalArgumentException("member heap estimate: " + groups + " groups of at most " + hostsPerGroup
          + " hosts cannot hold " + hosts + " hosts");
    }
    this.estimate = estimate;
    this.hosts = hosts;
    this.groups = groups;
    this.hostsPerGroup = hostsPerGroup;
    this.placedMembers = placedMembers;
    this.placedLargestHosts = placedLargestHosts;
  }

  /**
   * The estimate of {@code spec} ({@link ResourceEstimate#of}) with its topology's placement groups; with a
   * {@code cluster.placement} of several members, a run on that many takes its fullest member's hosts from the plan
   * it gives (the only case that builds the topology: the placement fixes what the arithmetic would assume).
   */
  public static MemberHeapEstimate of(ScenarioSpec spec) {
    MemberHeapEstimate even = of(ResourceEstimate.of(spec), spec.topology());
    PlacementOverride placement = spec.placement();
    if (placement == null || placement.memberCount() < 2) return even;
    Topology topology = spec.topology().build();
    PlacementPlan plan = PlacementPlan.compute(topology, topology.deviceCount(), placement.memberCount(), placement);
    long[] hostsOf = new long[placement.memberCount()];
    for (int h = 0; h < topology.hostCount(); h++) hostsOf[plan.memberOf(h)]++;
    long largest = 0;
    for (long n : hostsOf) largest = Math.max(largest, n);
    return new MemberHeapEstimate(even.estimate, even.hosts, even.groups, even.hostsPerGroup,
        placement.memberCount(), largest);
  }

  /** {@code estimate} spread over the placement groups of {@code topology}. */
  public static MemberHeapEstimate of(ResourceEstimate estimate, TopologySpec topology) {
    long hosts = topology.hosts();
    // A TOR with its hosts, a server with its switch and NPUs, or each host alone.
    int perGroup = topology.hostsPerPlacementGroup();
    return new MemberHeapEstimate(estimate, hosts, (hosts + perGroup - 1) / perGroup, perGroup);
  }

  /** The estimate of the whole run. */
  public ResourceEstimate estimate() {
    return estimate;
  }

  /**
   * The most members the run can be spread over: one placement group each, or the members the scenario's
   * {@code cluster.placement} lists (a run is on those or on one).
   */
  public long maxMembers() {
    return placedMembers >= 2 ? placedMembers : groups;
  }

  /**
   * Hosts of the fullest member of a run on {@code members} members: ⌈groups / members⌉ whole groups, or on the
   * members of the scenario's {@code cluster.placement}, its fullest member's.
   */
  public long largestMemberHosts(int members) {
    if (members <= 1) return hosts;
    if (members == placedMembers) return placedLargestHosts;
    long groupsOfLargest = (groups + members - 1) / members;
    return Math.min(hosts, groupsOfLargest * hostsPerGroup);
  }

  /**
   * The heap of one member JVM other than the coordinator's on {@code members} members: the base and the fullest
   * member's share; on one member, the whole run (there is no other JVM).
   */
  public long memberHeapBytes(int members) {
    if (members <= 1) return estimate.heapBytes();
    long shared = estimate.heapBytes() - estimate.baseBytes() - estimate.resultBytes();
    return saturatedAdd(estimate.baseBytes(), share(shared, largestMemberHosts(members), hosts));
  }

  /** The heap of the coordinator's JVM on {@code members} members: a member's, plus every rank's results. */
  public long coordinatorHeapBytes(int members) {
    if (members <= 1) return estimate.heapBytes();
    return saturatedAdd(memberHeapBytes(members), estimate.resultBytes());
  }

  /**
   * The fewest members on which the run fits: the coordinator's JVM in {@code coordinatorHeapBytes} and every other
   * member in {@code memberHeapBytes}; empty when it does not fit even on {@link #maxMembers()}. With a
   * {@code cluster.placement} of several members only one member or that many are answered.
   */
  public OptionalInt membersNeeded(long coordinatorHeapBytes, long memberHeapBytes) {
    if (fits(1, coordinatorHeapBytes, memberHeapBytes)) return OptionalInt.of(1);
    if (placedMembers >= 2) {
      // The scenario's placement fixes the member count: one member, or as many as it lists.
      return fits(placedMembers, coordinatorHeapBytes, memberHeapBytes) ? OptionalInt.of(placedMembers)
          : OptionalInt.empty();
    }
    int most = (int) Math.min(Integer.MAX_VALUE, groups);
    if (most < 2 || !fits(most, coordinatorHeapBytes, memberHeapBytes)) return OptionalInt.empty();
    // From 2 members on both heaps shrink as members are added (never grow): the fewest that fit, by bisection.
    int lo = 2;
    int hi = most;
    while (lo < hi) {
      int mid = lo + (hi - lo) / 2;
      if (fits(mid, coordinatorHeapBytes, memberHeapBytes)) {
        hi = mid;
      } else {
        lo = mid + 1;
      }
    }
    return OptionalInt.of(lo);
  }

  /** Whether a run on {@code members} members fits the coordinator's heap and the other members' heaps. */
  public boolean fits(int members, long coordinatorHeapBytes, long memberHeapBytes) {
    return coordinatorHeapBytes(members) <= coordinatorHeapBytes
        && (members <= 1 || memberHeapBytes(members) <= memberHeapBytes);
  }

  /** ⌈bytes × part / whole⌉ without overflow for part ≤ whole; saturates at Long.MAX_VALUE. */
  static long share(long bytes, long part, long whole) {
    long q = bytes / whole;
    long r = bytes % whole;
    long rest = (r * part + whole - 1) / whole;  // r < whole and part ≤ whole, host counts: r × part < 2^62
    try {
      return Math.addExact(Math.multiplyExact(q, part), rest);
    } catch (ArithmeticException e) {
      return Long.MAX_VALUE;
    }
  }

  private static long saturatedAdd(long a, long b) {
    long sum = a + b;
    return ((a ^ sum) & (b ^ sum)) < 0 ? Long.MAX_VALUE : sum;
  }
}
