package io.fabemu.core.router;

/**
 * The clock of a router network, shared by its routers and the NICs that inject into them, and the one place that
 * says when things happen within a cycle.
 *
 * <p>Cycle {@code c} spans {@code [c * cyclePs, (c + 1) * cyclePs)}. Flits and credits arrive at cycle edges (event
 * time {@code c * cyclePs}); a device evaluates cycle {@code c} (allocates, moves flits) at the middle of the cycle,
 * {@code c * cyclePs + cyclePs / 2}, which is after every arrival of that cycle whatever the order of the events at
 * the edge. A flit or credit sent from an evaluation of cycle {@code s} arrives {@code k >= 1} whole cycles on, at
 * edge {@code s + k}: that is {@code k * cyclePs - cyclePs / 2} after it was sent, so the engine's lookahead is
 * {@link #lookaheadPs(RouterSpec)}.
 */
public final class RouterTiming {

  private RouterTiming() {}

  /**
   * Checks what the timing model needs of {@code spec} beyond its own checks: a cycle of at least 2 ps, so that
   * the middle of a cycle is strictly after its edge.
   *
   * @throws IllegalArgumentException when the cycle is shorter
   */
  public static void requireSupported(RouterSpec spec) {
    if (spec.cyclePs() < 2) {
      throw new IllegalArgumentException("router cycle (ps) must be at least 2 (an evaluation happens mid-cycle, "
          + "after the arrivals at its edge), got " + spec.cyclePs());
    }
  }

  /**
   * The window engine's lookahead for a network of routers and NICs with {@code spec}: the shortest time from an
   * evaluation to the arrival it causes at another device, {@code min(linkLatencyCycles, creditDelayCycles) *
   * cyclePs - cyclePs / 2} (positive).
   */
  public static long lookaheadPs(RouterSpec spec) {
    requireSupported(spec);
    long cycles = Math.min(spec.linkLatencyCycles(), spec.creditDelayCycles());
    return cycles * spec.cyclePs() - spec.cyclePs() / 2;
  }

  /**
   * The classes' virtual channels each: {@code spec.virtualChannels() / vcClasses}.
   *
   * @throws IllegalArgumentException when the virtual channels are not a positive multiple of the classes
   */
  public static int vcsPerClass(RouterSpec spec, int vcClasses) {
    if (vcClasses < 1) {
      throw new IllegalArgumentException("virtual-channel classes must be at least 1, got " + vcClasses);
    }
    if (spec.virtualChannels() % vcClasses != 0) {
      throw new IllegalArgumentException("router virtual-channels must be a positive multiple of the routing's "
          + vcClasses + " virtual-channel classes, got " + spec.virtualChannels());
    }
    return spec.virtualChannels() / vcClasses;
  }

  /** The edge (start) of cycle {@code cycle}: when flits and credits of that cycle arrive. */
  public static long edgePs(long cycle, long cyclePs) {
    return cycle * cyclePs;
  }

  /** The middle of cycle {@code cycle}: when devices evaluate it. */
  public static long evaluationPs(long cycle, long cyclePs) {
    return cycle * cyclePs + cyclePs / 2;
  }

  /**
   * The cycle whose edge is {@code timePs}.
   *
   * @throws IllegalStateException when {@code timePs} is not a cycle edge (a flit or credit off the clock: a wiring
   *                               error, not a user's)
   */
  public static long cycleOfEdge(long timePs, long cyclePs) {
    if (timePs % cyclePs != 0) {
      throw new IllegalStateException("arrival at " + timePs + " ps is not on a cycle edge of a " + cyclePs
          + " ps clock");
    }
    return timePs / cyclePs;
  }

  /**
   * The cycle whose evaluation time is {@code timePs}.
   *
   * @throws IllegalStateException when {@code timePs} is not the middle of a cycle
   */
  public static long cycleOfEvaluation(long timePs, long cyclePs) {
    long sinceMiddle = timePs - cyclePs / 2;
    if (sinceMiddle < 0 || sinceMiddle % cyclePs != 0) {
      throw new IllegalStateException("router cycle event at " + timePs + " ps is not mid-cycle of a " + cyclePs
          + " ps clock");
    }
    return sinceMiddle / cyclePs;
  }

  /** The first cycle evaluated at or after {@code timePs}. */
  public static long firstEvaluationAtOrAfter(long timePs, long cyclePs) {
    long cycle = Math.floorDiv(timePs, cyclePs);
    return timePs <= evaluationPs(cycle, cyclePs) ? cycle : cycle + 1;
  }
}
