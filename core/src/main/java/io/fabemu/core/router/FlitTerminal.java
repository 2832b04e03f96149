package io.fabemu.core.router;

import io.fabemu.core.protocol.DeviceProtocol.Credit;
import io.fabemu.core.protocol.DeviceProtocol.Flit;
import io.fabemu.core.protocol.DeviceProtocol.RoutedPacket;
import io.fabemu.core.protocol.DeviceProtocol.RouterCycle;
import io.fabemu.core.sim.Outbox;
import java.util.ArrayDeque;
import java.util.Arrays;

/**
 * The terminal side of a NIC attached to its router in a router network: it turns packets into flits and injects
 * them into the router, and takes the flits the router ejects to it. A plain part of the NIC device, which hands it
 * the NIC's flit, credit and router-cycle events.
 *
 * <p>Injection: packets wait in an unbounded FIFO source queue ({@link #enqueue}), each from the cycle of its
 * creation on ({@link RoutedPacket#createdPs}: a packet may be queued before it exists, as a NIC queues the segments
 * whose DMA read is still to finish; creation times must not decrease along the queue). In each evaluated cycle the
 * terminal sends at most one flit on its channel to the router's input port. A new packet takes a free virtual
 * channel of class 0 (round-robin over them) with a credit (under virtual cut-through and store-and-forward,
 * credits for the whole packet); a virtual channel is free again once the last packet's tail has left, as a router's
 * output channel is. Every flit needs a credit; the channel starts with {@code bufferDepthFlits} credits per
 * virtual channel. Under virtual cut-through and store-and-forward a packet must fit in one buffer: {@link #enqueue}
 * rejects a longer one. A flit sent in the evaluation of cycle {@code c} arrives at the router at edge
 * {@code c + linkLatencyCycles}; packets are injected one after the other (the next may start the cycle after the
 * previous one's tail).
 *
 * <p>Ejection: the NIC's ejection buffer ({@code bufferDepthFlits} per virtual channel) drains as flits arrive, so
 * a flit arriving at edge {@code a} frees its slot at once and its credit reaches the router at edge
 * {@code a + creditDelayCycles}. When a packet's tail arrives the listener learns the packet, the tail's arrival
 * time and the packet's router-to-router hop count.
 *
 * <p>Evaluations: {@link #onRouterCycle} evaluates the cycle of the event and asks for the next only while the
 * terminal can inject (a flit waiting with a credit, or a packet waiting with a free virtual channel); otherwise a
 * credit wakes it ({@link #onCredit}). After {@link #enqueue} the owner calls {@link #scheduleEvaluation}. An owner
 * that keeps its own clock may call {@link #evaluate} and {@link #needsEvaluation} instead.
 *
 * <p>Not thread-safe: the state of one device.
 */
public final class FlitTerminal {

  /** Learns of every packet whose tail this terminal ejected. */
  @FunctionalInterface
  public interface EjectionListener {
    /**
     * @param packet       the packet, all of whose flits have arrived
     * @param tailArrivalPs when its tail flit arrived (a cycle edge)
     * @param hops         router-to-router channels it crossed
     */
    void packetEjected(RoutedPacket packet, long tailArrivalPs, int hops);

    /** Every flit ejected, tails included, before {@link #packetEjected} of a tail: per-cycle throughput counts. */
    default void flitEjected(Flit flit, long arrivalPs) {}
  }

  /** A NIC's only port, to its router. */
  private static final int NIC_PORT = 0;

  private final int nicDevice;
  private final int routerDevice;
  private final int routerPort;
  private final RouterSpec spec;
  private final int depth;
  private final int class0Vcs;
  private final CycleSchedule schedule;
  /** The credits this terminal returns, per virtual channel and tail flag: records are immutable, so shared. */
  private final Credit[] creditsToReturn;

  private final ArrayDeque<RoutedPacket> sourceQueue = new ArrayDeque<>();
  /** Credits per virtual channel of the router's input port. */
  private final int[] credits;
  /** Whether the virtual channel is free for a new packet of ours (its last packet's tail has left). */
  private final boolean[] vcFree;
  /** The class-0 virtual channel a new packet tries first. */
  private int nextVcToTry;
  /** The packet being injected, or null. */
  private RoutedPacket injecting;
  private int injectingVc;
  private int nextFlitIndex;

  /** Per ejection virtual channel: the packet whose flits are arriving (null between packets), and the next index. */
  private final RoutedPacket[] ejecting;
  private final int[] nextEjectedIndex;

  private EjectionListener listener;
  private long flitsInjected;
  private long flitsEjected;
  private long packetsInjected;
  private long packetsEjected;

  /**
   * A terminal whose ejection listener is set later ({@link #setEjectionListener}).
   *
   * @param nicDevice       the NIC's device id (its router-cycle events go to it)
   * @param routerDevice    the router's device id
   * @param routerInputPort the router's port the NIC's link arrives on (0, {@code RouterRouting.LOCAL_PORT}): the
   *                        flits' input port, and the router's output port the returned credits name
   * @param spec            the network's routers and channels
   * @param vcClasses       the routing's virtual-channel classes (a new packet takes a channel of class 0)
   * @throws IllegalArgumentException when the virtual channels are not a positive multiple of {@code vcClasses},
   *                                  or the cycle is shorter than 2 ps
   */
  public FlitTerminal(int nicDevice, int routerDevice, int routerInputPort, RouterSpec spec, int vcClasses) {
    RouterTiming.requireSupported(spec);
    if (routerInputPort < 0) {
      throw new IllegalArgumentException("router input port must be at least 0, got " + routerInputPort);
    }
    this.nicDevice = nicDevice;
    this.routerDevice = routerDevice;
    this.routerPort = routerInputPort;
    this.spec = spec;
    this.depth = spec.bufferDepthFlits();
    this.class0Vcs = RouterTiming.vcsPerClass(spec, vcClasses);
    this.schedule = new CycleSchedule(nicDevice, spec.cyclePs());
    int vcs = spec.virtualChannels();
    this.creditsToReturn = new Credit[2 * vcs];
    for (int vc = 0; vc < vcs; vc++) {
      creditsToReturn[2 * vc] = new Credit(routerInputPort, vc, false);
      creditsToReturn[2 * vc + 1] = new Credit(routerInputPort, vc, true);
    }
    this.credits = new int[vcs];
    this.vcFree = new boolean[vcs];
    Arrays.fill(credits, depth);
    Arrays.fill(vcFree, true);
    this.ejecting = new RoutedPacket[vcs];
    this.nextEjectedIndex = new int[vcs];
  }

  /** As {@link #FlitTerminal(int, int, int, RouterSpec, int)}, with its ejection listener. */
  public FlitTerminal(int nicDevice, int routerDevice, int routerInputPort, RouterSpec spec, int vcClasses,
                      EjectionListener listener) {
    this(nicDevice, routerDevice, routerInputPort, spec, vcClasses);
    setEjectionListener(listener);
  }

  /** Sets who learns of ejected packets (required before the first tail arrives). */
  public void setEjectionListener(EjectionListener listener) {
    if (listener == null) throw new IllegalArgumentException("ejection listener must not be null");
    this.listener = listener;
  }

  /**
   * Queues {@code packet} for injection, after every packet queued before it.
   *
   * @throws IllegalArgumentException when the packet has no flit, or is longer than a buffer under virtual
   *                                  cut-through or store-and-forward (it could never move)
   */
  public void enqueue(RoutedPacket packet) {
    RoutedPacket last = sourceQueue.peekLast();
    if (last != null && packet.createdPs() < last.createdPs()) {
      throw new IllegalArgumentException("packet " + packet.packetId() + " created at " + packet.createdPs()
          + " ps is queued after one created at " + last.createdPs() + " ps: the source queue is in creation order");
    }
    if (packet.flitCount() < 1) {
      throw new IllegalArgumentException("packet flit count must be at least 1, got " + packet.flitCount());
    }
    if (spec.switching().needsWholePacketSpace() && packet.flitCount() > depth) {
      throw new IllegalArgumentException("a packet of " + packet.flitCount() + " flits does not fit a router buffer "
          + "of " + depth + " flits (buffer-depth), which " + spec.switching().configName() + " requires");
    }
    sourceQueue.add(packet);
  }

  /** Asks for the earliest evaluation still possible when the terminal can inject (call it after enqueueing). */
  public void scheduleEvaluation(Outbox outbox) {
    if (!needsEvaluation()) return;
    // A packet waits in the queue until it exists: the cycle whose evaluation is at or after its creation.
    long notBefore = injecting != null ? 0L
        : RouterTiming.firstEvaluationAtOrAfter(sourceQueue.peek().createdPs(), spec.cyclePs());
    schedule.requestFrom(notBefore, outbox);
  }

  /** A {@link RouterCycle} arrived: evaluates its cycle and schedules the next if there is work. */
  public void onRouterCycle(Outbox outbox) {
    long cycle = RouterTiming.cycleOfEvaluation(outbox.nowPs(), spec.cyclePs());
    if (!schedule.isDue(cycle)) {
      throw new IllegalStateException("NIC " + nicDevice + " got a router cycle event for cycle " + cycle
          + ", which it did not schedule");
    }
    evaluate(cycle, outbox);
    scheduleEvaluation(outbox);
  }

  /**
   * Evaluates cycle {@code cycle}: injects at most one flit, starting the next queued packet when none is being
   * injected and a class-0 virtual channel is free (with room for the whole packet under virtual cut-through and
   * store-and-forward).
   */
  public void evaluate(long cycle, Outbox outbox) {
    schedule.markEvaluated(cycle);
    if (injecting == null && !sourceQueue.isEmpty()
        && sourceQueue.peek().createdPs() <= RouterTiming.evaluationPs(cycle, spec.cyclePs())) {
      int vc = freeVc(sourceQueue.peek().flitCount());
      if (vc >= 0) {
        injecting = sourceQueue.poll();
        injectingVc = vc;
        nextFlitIndex = 0;
        vcFree[vc] = false;
        nextVcToTry = (vc + 1) % class0Vcs;
      }
    }
    if (injecting == null || credits[injectingVc] == 0) return;
    credits[injectingVc]--;
    Flit flit = new Flit(injecting, nextFlitIndex, routerPort, injectingVc, 0);
    outbox.send(routerDevice, RouterTiming.edgePs(cycle + spec.linkLatencyCycles(), spec.cyclePs()), flit);
    flitsInjected++;
    nextFlitIndex++;
    if (nextFlitIndex == injecting.flitCount()) {
      // The channel is free for the next packet once this tail has left, as the routers' output channels are.
      vcFree[injectingVc] = true;
      injecting = null;
      packetsInjected++;
    }
  }

  /** Whether the terminal can inject at its next evaluation (a later credit arrival may make it so). */
  public boolean needsEvaluation() {
    if (injecting != null) return credits[injectingVc] > 0;
    return !sourceQueue.isEmpty() && freeVc(sourceQueue.peek().flitCount()) >= 0;
  }

  /** The first free class-0 virtual channel from the round-robin pointer with room for the packet, or -1. */
  private int freeVc(int flitCount) {
    boolean wholePacket = spec.switching().needsWholePacketSpace();
    for (int k = 0; k < class0Vcs; k++) {
      int vc = (nextVcToTry + k) % class0Vcs;
      if (vcFree[vc] && credits[vc] > 0 && (!wholePacket || credits[vc] >= flitCount)) return vc;
    }
    return -1;
  }

  /**
   * A credit from the router: one more flit may go on {@code credit.vc()}. Schedules an evaluation when that lets
   * the terminal inject.
   *
   * @throws IllegalStateException when the credit does not fit the flow control (more credits than buffer slots)
   */
  public void onCredit(Credit credit, Outbox outbox) {
    int vc = credit.vc();
    if (credit.outputPort() != NIC_PORT || vc < 0 || vc >= credits.length) {
      throw new IllegalStateException("NIC " + nicDevice + " got a credit for port " + credit.outputPort() + " vc "
          + vc + ", which it does not have");
    }
    if (credits[vc] == depth) {
      throw new IllegalStateException("NIC " + nicDevice + " got a credit for vc " + vc + ", which has all its "
          + depth + " credits already");
    }
    credits[vc]++;
    scheduleEvaluation(outbox);
  }

  /**
   * A flit ejected by the router: it is taken (its slot's credit goes back to the router) and, when it is a tail,
   * its packet is reported to the listener.
   *
   * @throws IllegalStateException when the flit breaks the flow control (a virtual channel it does not have, or a
   *                               flit out of its packet's order)
   */
  public void onFlit(Flit flit, Outbox outbox) {
    int vc = flit.vc();
    if (flit.inputPort() != NIC_PORT || vc < 0 || vc >= ejecting.length) {
      throw new IllegalStateException("NIC " + nicDevice + " got a flit for port " + flit.inputPort() + " vc " + vc
          + ", which it does not have");
    }
    long cycle = RouterTiming.cycleOfEdge(outbox.nowPs(), spec.cyclePs());
    RoutedPacket expected = ejecting[vc];
    boolean inOrder = expected == null ? flit.isHead()
        : flit.flitIndex() == nextEjectedIndex[vc] && flit.packet().packetId() == expected.packetId()
            && flit.packet().sourceHost() == expected.sourceHost();
    if (!inOrder) {
      throw new IllegalStateException("NIC " + nicDevice + " got flit " + flit.flitIndex() + " of packet "
          + flit.packet().packetId() + " from host " + flit.packet().sourceHost() + " on vc " + vc + " out of order");
    }
    flitsEjected++;
    if (listener == null) {
      throw new IllegalStateException("NIC " + nicDevice + " ejected a flit but has no ejection listener");
    }
    listener.flitEjected(flit, outbox.nowPs());
    boolean tail = flit.isTail();
    outbox.send(routerDevice, RouterTiming.edgePs(cycle + spec.creditDelayCycles(), spec.cyclePs()),
        creditsToReturn[2 * vc + (tail ? 1 : 0)]);
    if (!tail) {
      ejecting[vc] = flit.packet();
      nextEjectedIndex[vc] = flit.flitIndex() + 1;
      return;
    }
    ejecting[vc] = null;
    packetsEjected++;
    listener.packetEjected(flit.packet(), outbox.nowPs(), flit.hops());
  }

  /**
   * Drops every queued packet that has not started (the one being injected goes on): how a synthetic-traffic run
   * stops its sources at the end of the drain, so that a saturated network's backlog is not emulated.
   *
   * @return the number of packets dropped
   */
  public int dropQueued() {
    int dropped = sourceQueue.size();
    sourceQueue.clear();
    return dropped;
  }

  /** Packets queued and not yet started. */
  public int queuedPackets() {
    return sourceQueue.size();
  }

  /** Whether nothing is queued or being injected. */
  public boolean isIdle() {
    return injecting == null && sourceQueue.isEmpty();
  }

  /** Credits the terminal holds for virtual channel {@code vc} of the router's input port. */
  public int credits(int vc) {
    return credits[vc];
  }

  public long flitsInjected() {
    return flitsInjected;
  }

  public long flitsEjected() {
    return flitsEjected;
  }

  public long packetsInjected() {
    return packetsInjected;
  }

  public long packetsEjected() {
    return packetsEjected;
  }
}
