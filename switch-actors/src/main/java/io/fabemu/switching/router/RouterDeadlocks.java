package io.fabemu.switching.router;

import io.fabemu.core.topology.Topology;
import io.fabemu.core.topology.Topology.Link;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Finds the cycle of a deadlocked router network: the channels whose packets each wait for the next one's buffer.
 * For a run whose routers are all in one process (tests, a single-member run).
 *
 * <p>A channel is an input virtual channel of a router (the link into it and the virtual channel). One channel waits
 * for another when its packet waits downstream ({@link ChannelWait#waitsDownstream()}): for a credit of the output
 * virtual channel it holds, or for one of the output virtual channels of its class, all held; each such output
 * channel is an input channel of the next router. A cycle among channels that are all occupied is a deadlock.
 */
public final class RouterDeadlocks {
  /** Depth-first search colours: on the current path, or fully explored. */
  private static final int ON_PATH = 1;
  private static final int DONE = 2;

  private RouterDeadlocks() {}

  /**
   * Checks that a run that ran out of events left no flit in {@code routers}: a router network whose packets all
   * wait on each other schedules nothing, so a deadlocked run simply ends, with flits held. Then this throws one line
   * naming the cycle of channels they wait on (or, when the waits form no cycle, what the first router holding flits
   * waits for).
   *
   * @throws RouterDeadlockException when a router still holds flits
   */
  public static void requireDrained(Topology topology, List<RouterCore> routers) {
    RouterCore stuck = null;
    long held = 0;
    for (RouterCore router : routers) {
      if (router.heldFlits() > 0 && stuck == null) stuck = router;
      held += router.heldFlits();
    }
    if (stuck == null) return;
    List<String> cycle = findCycle(topology, routers);
    String message;
    if (cycle.isEmpty()) {
      StringBuilder waits = new StringBuilder();
      for (ChannelWait wait : stuck.waits()) waits.append("; ").append(wait.describe(topology));
      message = "the run ended with " + held + " flits held in the routers, none of them waiting in a cycle; "
          + topology.vertexName(stuck.deviceId()) + waits;
    } else {
      message = "deadlock: the run ended with " + held + " flits held in the routers, whose channels "
          + String.join(" -> ", cycle) + " -> " + cycle.get(0) + " wait on each other";
    }
    throw new RouterDeadlockException(message, stuck.deviceId(), stuck.waits());
  }

  /** An input virtual channel of a router. */
  private record Channel(int router, int port, int vc) {}

  /**
   * The first cycle of waiting channels among {@code routers}, in the order a packet would cross them, each named by
   * its link and virtual channel, e.g. {@code [router1->router2 vc 0, router2->router3 vc 0, router3->router1 vc 0]};
   * empty when there is none. Deterministic: the search starts from the routers in the given order.
   */
  public static List<String> findCycle(Topology topology, List<RouterCore> routers) {
    Map<Channel, ChannelWait> occupied = new LinkedHashMap<>();
    for (RouterCore router : routers) {
      for (ChannelWait wait : router.waits()) {
        occupied.put(new Channel(wait.router(), wait.inputPort(), wait.inputVc()), wait);
      }
    }
    Map<Channel, List<Channel>> waitsFor = new HashMap<>();
    for (Map.Entry<Channel, ChannelWait> entry : occupied.entrySet()) {
      ChannelWait wait = entry.getValue();
      List<Channel> next = new ArrayList<>();
      if (wait.waitsDownstream()) {
        Link link = topology.ports(wait.router()).get(wait.outputPort());
        for (int vc = wait.firstOutputVc(); vc < wait.firstOutputVc() + wait.outputVcCount(); vc++) {
          Channel downstream = new Channel(link.to(), link.toPort(), vc);
          if (occupied.containsKey(downstream)) next.add(downstream);
        }
      }
      waitsFor.put(entry.getKey(), next);
    }
    Map<Channel, Integer> colour = new HashMap<>();
    for (Channel start : occupied.keySet()) {
      if (colour.containsKey(start)) continue;
      List<Channel> cycle = search(start, waitsFor, colour, new ArrayList<>());
      if (!cycle.isEmpty()) {
        List<String> names = new ArrayList<>(cycle.size());
        for (Channel channel : cycle) names.add(name(topology, channel));
        return names;
      }
    }
    return List.of();
  }

  /** Depth-first search from {@code channel}; returns the cycle found (from its first channel on the path) or empty. */
  private static List<Channel> search(Channel channel, Map<Channel, List<Channel>> waitsFor,
                                      Map<Channel, Integer> colour, List<Channel> path) {
    colour.put(channel, ON_PATH);
    path.add(channel);
    for (Channel next : waitsFor.get(channel)) {
      Integer c = colour.get(next);
      if (c == null) {
        List<Channel> cycle = search(next, waitsFor, colour, path);
        if (!cycle.isEmpty()) return cycle;
      } else if (c == ON_PATH) {
        return new ArrayList<>(path.subList(path.indexOf(next), path.size()));
      }
    }
    path.remove(path.size() - 1);
    colour.put(channel, DONE);
    return List.of();
  }

  /** e.g. {@code router1->router2 vc 0}: the link into the channel's router, and its virtual channel. */
  private static String name(Topology topology, Channel channel) {
    int upstream = topology.neighbour(channel.router(), channel.port());
    return topology.vertexName(upstream) + "->" + topology.vertexName(channel.router()) + " vc " + channel.vc();
  }
}
