package io.fabemu.core.fault;

import io.fabemu.core.protocol.DeviceProtocol.FaultCommand;
import io.fabemu.core.protocol.DirectedLink;
import io.fabemu.core.routing.PortGraph;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * One event of a {@link FaultPlan}: at virtual time {@code atPs}, {@code action} happens to a target. Build events
 * with the factories ({@link #link}, {@link #device}, {@link #degrade}, {@link #lossy}, {@link #straggler}), which
 * resolve the target to the directed links it touches; the plan numbers them ({@link #withId}).
 *
 * @param id                     the event's number in its plan (time order; -1 before the plan numbers it)
 * @param atPs                   when it happens
 * @param action                 what happens
 * @param target                 the target as the scenario names it ({@code link tor0-spine1}, {@code switch spine0},
 *                               {@code node host3}, {@code links of tor}), for reports and messages
 * @param vertex                 the device that goes down or up, or the straggling host; -1 for link targets
 * @param links                  the directed links the event changes: both directions of a cable that goes down or
 *                               up, every link into and out of a device that does, the links a degrade or loss
 *                               applies to (their sending ends apply it); empty for a straggler
 * @param bandwidthBitsPerSecond degrade: the links' rate from now on (0: the rate they were built with); else 0
 * @param extraLatencyPs         degrade: latency added to the links' own from now on (0: none); else 0. A degrade
 *                               sets both, so one without a rate or latency restores the links
 * @param dropProbability        lossy: probability that a packet is lost on one of the links; else 0
 * @param corruptProbability     lossy: probability that a packet arrives with a bad checksum (its receiver drops
 *                               and counts it); else 0
 * @param slowdown               straggler: factor (at least 1) on the host's overheads, reductions and copies; else 1
 */
public record FaultEvent(int id, long atPs, FaultAction action, String target, int vertex, List<DirectedLink> links,
                         long bandwidthBitsPerSecond, long extraLatencyPs, double dropProbability,
                         double corruptProbability, double slowdown) implements FaultCommand.Order {

  /** The event {@code command} carries (the fault plan's events are the only orders a command carries). */
  public static FaultEvent of(FaultCommand command) {
    return (FaultEvent) command.event();
  }

  public FaultEvent {
    links = List.copyOf(links);
    if (atPs < 0) throw new IllegalArgumentException("fault " + target + ": time must be at least 0, got " + atPs);
    if (bandwidthBitsPerSecond < 0 || extraLatencyPs < 0) {
      throw new IllegalArgumentException("fault " + target + ": rate and extra latency must not be negative");
    }
    if (!(dropProbability >= 0 && dropProbability < 1) || !(corruptProbability >= 0 && corruptProbability < 1)) {
      throw new IllegalArgumentException("fault " + target + ": drop and corrupt probabilities must be in [0, 1)");
    }
    if (!(slowdown >= 1)) {
      throw new IllegalArgumentException("fault " + target + ": a straggler's slowdown must be at least 1, got "
          + slowdown);
    }
  }

  /** A cable between vertices {@code a} and {@code b} goes down or up (both directions). */
  public static FaultEvent link(long atPs, FaultAction action, String target, int a, int b) {
    requireDownOrUp(action, target);
    return new FaultEvent(-1, atPs, action, target, -1, List.of(new DirectedLink(a, b), new DirectedLink(b, a)), 0, 0,
        0, 0, 1);
  }

  /** Device {@code vertex} (a switch, router or host) goes down or up, with every link into and out of it. */
  public static FaultEvent device(long atPs, FaultAction action, String target, int vertex, PortGraph graph) {
    requireDownOrUp(action, target);
    List<DirectedLink> links = new ArrayList<>();
    for (int p = 0; p < graph.portCount(vertex); p++) {
      int neighbour = graph.neighbour(vertex, p);
      DirectedLink out = new DirectedLink(vertex, neighbour);
      if (!links.contains(out)) {
        links.add(out);
        links.add(out.reversed());
      }
    }
    return new FaultEvent(-1, atPs, action, target, vertex, links, 0, 0, 0, 0, 1);
  }

  /** {@code links} get rate {@code bandwidthBitsPerSecond} (0: their own) and {@code extraLatencyPs} more latency. */
  public static FaultEvent degrade(long atPs, String target, List<DirectedLink> links, long bandwidthBitsPerSecond,
                                   long extraLatencyPs) {
    return new FaultEvent(-1, atPs, FaultAction.DEGRADE, target, -1, links, bandwidthBitsPerSecond, extraLatencyPs, 0,
        0, 1);
  }

  /** {@code links} lose packets with {@code dropProbability} and corrupt them with {@code corruptProbability}. */
  public static FaultEvent lossy(long atPs, String target, List<DirectedLink> links, double dropProbability,
                                 double corruptProbability) {
    return new FaultEvent(-1, atPs, FaultAction.LOSSY, target, -1, links, 0, 0, dropProbability, corruptProbability,
        1);
  }

  /** Host {@code host}'s processes get {@code slowdown} times slower. */
  public static FaultEvent straggler(long atPs, String target, int host, double slowdown) {
    return new FaultEvent(-1, atPs, FaultAction.STRAGGLER, target, host, List.of(), 0, 0, 0, 0, slowdown);
  }

  private static void requireDownOrUp(FaultAction action, String target) {
    if (action != FaultAction.DOWN && action != FaultAction.UP) {
      throw new IllegalArgumentException("fault " + target + ": expected down or up, got " + action.configName());
    }
  }

  /** The same event numbered {@code newId}. */
  public FaultEvent withId(int newId) {
    return new FaultEvent(newId, atPs, action, target, vertex, links, bandwidthBitsPerSecond, extraLatencyPs,
        dropProbability, corruptProbability, slowdown);
  }

  /** The same event at another time (the repeats of a flapping pattern). */
  public FaultEvent at(long newAtPs) {
    return new FaultEvent(id, newAtPs, action, target, vertex, links, bandwidthBitsPerSecond, extraLatencyPs,
        dropProbability, corruptProbability, slowdown);
  }


  /**
   * Whether this event gives its target back its own behaviour (an up; a degrade without a rate or latency; a lossy
   * event of 0 and 0; a straggler of slowdown 1), and so has no lasting effect of its own.
   */
  public boolean restoresTarget() {
    return switch (action) {
      case UP -> true;
      case DOWN -> false;
      case DEGRADE -> bandwidthBitsPerSecond == 0 && extraLatencyPs == 0;
      case LOSSY -> dropProbability == 0 && corruptProbability == 0;
      case STRAGGLER -> slowdown == 1;
    };
  }

  /** One line for reports: {@code "40.000 us switch spine0 down"}. */
  public String describe() {
    return String.format(Locale.ROOT, "%.3f us %s %s", atPs / 1e6, target, action.configName());
  }
}
