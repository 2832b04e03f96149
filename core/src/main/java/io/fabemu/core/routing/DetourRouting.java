package io.fabemu.core.routing;

import java.util.Objects;

/**
 * A router network's routing with the router patent's detours: a packet with a via node goes by the network's own
 * routing (dimension order) to the via node's router, then by the same routing to its destination. Each leg has a
 * set of virtual-channel classes of its own, so detours add no cycle to the channel dependency graph: leg-1 channels
 * depend on leg-1 channels along the base routing's routes (acyclic), leg-2 channels on leg-2 channels (acyclic),
 * and a packet only ever moves from leg 1 to leg 2. So the routers need twice the base routing's classes: classes
 * {@code 0 .. b-1} are leg 1's (the base routing's classes), {@code b .. 2b-1} leg 2's.
 *
 * <p>A packet on the direct route (no via node) may take either set: it follows the base routing within the set it
 * was injected in, which adds only base-routing dependencies inside that set. So a run with a fault plan uses every
 * virtual channel before any failure.
 *
 * <p>The leg a packet is on is the class of the channel it arrived on: class below {@code b} and a via node means
 * leg 1, unless this router is the via node's, where it turns into leg 2 as if injected there. Immutable, constant
 * time per call.
 */
public final class DetourRouting {
  private final RouterRouting base;
  private final int baseClasses;

  private DetourRouting(RouterRouting base) {
    this.base = base;
    this.baseClasses = base.vcClasses();
  }

  /** Detours over {@code base}, the network's own routing. */
  public static DetourRouting of(RouterRouting base) {
    return new DetourRouting(Objects.requireNonNull(base, "base routing"));
  }

  /** The network's own routing, which each leg follows. */
  public RouterRouting base() {
    return base;
  }

  /** Number of hosts (and routers). */
  public int hostCount() {
    return base.hostCount();
  }

  /** Virtual-channel classes the routers need: the base routing's, once per leg. */
  public int vcClasses() {
    return 2 * baseClasses;
  }

  /** The base routing's classes: the classes of one leg. */
  public int classesPerLeg() {
    return baseClasses;
  }

  /** Whether a packet at {@code router}, arrived in {@code inputClass}, turns into its second leg here. */
  private boolean turnsHere(int router, int inputClass, int viaHost) {
    return viaHost >= 0 && inputClass < baseClasses && router == base.routerOf(viaHost);
  }

  /** The host a packet at {@code router}, arrived in {@code inputClass}, heads for: its via node on leg 1. */
  private int target(int router, int inputClass, int destinationHost, int viaHost) {
    boolean firstLeg = viaHost >= 0 && inputClass < baseClasses && !turnsHere(router, inputClass, viaHost);
    return firstLeg ? viaHost : destinationHost;
  }

  /**
   * The port by which the packet leaves {@code router} ({@link RouterRouting#LOCAL_PORT} at its destination's
   * router on its last leg).
   *
   * @param inputClass the class of the channel it arrived on (the class it was injected in at its source's router)
   * @param viaHost    its via node, or -1 on the direct route
   */
  public int outputPort(int router, int inputClass, int destinationHost, int viaHost) {
    return base.outputPort(router, target(router, inputClass, destinationHost, viaHost));
  }

  /**
   * The class of the channel the packet takes out of {@code router} by {@code outputPort}: the base routing's class
   * within the set of its leg (after a turn, the class of a packet injected at the via node's router).
   */
  public int outputVcClass(int router, int inputPort, int inputClass, int outputPort, int destinationHost,
                           int viaHost) {
    if (turnsHere(router, inputClass, viaHost)) {
      return baseClasses + base.outputVcClass(router, RouterRouting.LOCAL_PORT, 0, outputPort, destinationHost);
    }
    int leg = inputClass / baseClasses;
    int target = target(router, inputClass, destinationHost, viaHost);
    return leg * baseClasses
        + base.outputVcClass(router, inputPort, inputClass % baseClasses, outputPort, target);
  }
}
