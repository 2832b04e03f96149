package io.fabemu.core.router;

import io.fabemu.core.link.BusyTimeline;
import io.fabemu.core.protocol.DeviceProtocol.Credit;
import io.fabemu.core.protocol.DeviceProtocol.Flit;
import io.fabemu.core.protocol.DeviceProtocol.RoutedPacket;
import io.fabemu.core.protocol.DeviceProtocol.RouterCycle;
import io.fabemu.core.sim.BusyProfile;
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
 * previous one's tail). Control packets (a reliable transport's acknowledgements, {@link #enqueueControl}) wait in a
 * queue of their own that goes first: an acknowledgement never waits behind the segments queued before it.
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
 * <p>Detours ({@code detourLegs}, a run with a fault plan on a router network): the routers' classes are the two legs'
 * ({@code DetourRouting}); a packet with a via node starts in class 0 (its first leg's), one on the direct route in
 * the first class of either leg, so no channel is idle before a failure.
 *
 * <p>Faults: while the link to the router is down ({@link #linkDown}) nothing gets onto it: queued packets are lost,
 * the packet being injected loses its remaining flits (and needs no credit for them) and so does every packet handed
 * to the terminal after; a packet being ejected whose tail will never come is lost. A flit that arrives while the
 * link is down, or was on the wire then, is dropped by the owner ({@link #dropArriving}), which returns its credit:
 * credits travel on a side channel that never loses them, so the flow control stays exact across a failure. A worm
 * cut upstream arrives closed by a cut flit ({@code Flit#isCut}): its packet is lost. Each lost packet is reported
 * once, to the listener, where it is finally lost: where its head was dropped, or its cut worm ended.
 *
 * <p>Not thread-safe: the state of one device.
 *
 * <p>Past 500 lines: injection, ejection, credits and the loss of cut worms are one state machine over the same
 * per-channel state; split apart they would share it through accessors.
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

    /**
     * A packet this terminal was given to inject is no longer its own: its tail was injected, or it was lost here
     * (reported once, whichever; before {@link #packetLost} of a packet lost here). A reliable transport starts its
     * retransmission timer here, not when it queued the packet.
     */
    default void packetLeft(RoutedPacket packet) {}

    /** A packet lost to fault event {@code eventId} (see the class comment), reported once. */
    default void packetLost(RoutedPacket packet, int eventId) {
      throw new IllegalStateException("packet " + packet.packetId() + " of host " + packet.sourceHost()
          + " lost to fault event " + eventId + " in a run without a fault plan");
    }
  }

  /** A NIC's only port, to its router. */
  private static final int NIC_PORT = 0;

  private final int nicDevice;
  private final int routerDevice;
  private final int routerPort;
  private final RouterSpec spec;
  private final int depth;
  private final int class0Vcs;
  /** The first channel of leg 2's first class when packets on the direct route may start there; else -1. */
  private final int secondLegFirstVc;
  private final CycleSchedule schedule;
  /** The credits this terminal returns, per virtual channel and tail flag: records are immutable, so shared. */
  private final Credit[] creditsToReturn;

  private final ArrayDeque<RoutedPacket> sourceQueue = new ArrayDeque<>();
  /** Control packets (a reliable transport's acknowledgements), served before the source queue; creation order. */
  private final ArrayDeque<RoutedPacket> controlQueue = new ArrayDeque<>();
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
  /** Whether the packet being injected loses its remaining flits (the link went down while it was going out). */
  private boolean discardingInjection;
  /** The fault event the link is down for, or -1 while it is up. */
  private int linkDownEvent = -1;

  /** Per ejection virtual channel: the packet whose flits are arriving (null between packets), and the next index. */
  private final RoutedPacket[] ejecting;
  private final int[] nextEjectedIndex;

  private EjectionListener listener;
  /**
   * The cycles a flit was injected in (flits injected = busy time / cycle), for the NIC's link counters; at most
   * {@link #DEFAULT_BUSY_PERIODS} periods unless the NIC gives its share of the fabric's
   * ({@code BusyTimeline#maxPeriodsFor}).
   */
  private final BusyTimeline injectedCycles;
  /** The busy periods a terminal keeps when its NIC does not say. */
  public static final int DEFAULT_BUSY_PERIODS = 512;
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
    this(nicDevice, routerDevice, routerInputPort, spec, vcClasses, false);
  }

  /**
   * As {@link #FlitTerminal(int, int, int, RouterSpec, int)}; with {@code detourLegs}, {@code vcClasses} are the
   * two legs' of a detour routing (an even number), and packets on the direct route may start in either leg.
   */
  public FlitTerminal(int nicDevice, int routerDevice, int routerInputPort, RouterSpec spec, int vcClasses,
                      boolean detourLegs) {
    this(nicDevice, routerDevice, routerInputPort, spec, vcClasses, detourLegs, DEFAULT_BUSY_PERIODS);
  }

  private FlitTerminal(int nicDevice, int routerDevice, int routerInputPort, RouterSpec spec, int vcClasses,
                       boolean detourLegs, int busyPeriods) {
    RouterTiming.requireSupported(spec);
    this.injectedCycles = new BusyTimeline(busyPeriods);
    if (detourLegs && vcClasses % 2 != 0) {
      throw new IllegalArgumentException("detour legs need an even number of classes, got " + vcClasses);
    }
    if (routerInputPort < 0) {
      throw new IllegalArgumentException("router input port must be at least 0, got " + routerInputPort);
    }
    this.nicDevice = nicDevice;
    this.routerDevice = routerDevice;
    this.routerPort = routerInputPort;
    this.spec = spec;
    this.depth = spec.bufferDepthFlits();
    this.class0Vcs = RouterTiming.vcsPerClass(spec, vcClasses);
    this.secondLegFirstVc = detourLegs ? vcClasses / 2 * class0Vcs : -1;
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
    this(nicDevice, routerDevice, routerInputPort, spec, vcClasses, false, listener);
  }

  /** As {@link #FlitTerminal(int, int, int, RouterSpec, int, boolean)}, with its ejection listener. */
  public FlitTerminal(int nicDevice, int routerDevice, int routerInputPort, RouterSpec spec, int vcClasses,
                      boolean detourLegs, EjectionListener listener) {
    this(nicDevice, routerDevice, routerInputPort, spec, vcClasses, detourLegs);
    setEjectionListener(listener);
  }

  /**
   * As {@link #FlitTerminal(int, int, int, RouterSpec, int, boolean, EjectionListener)}, keeping at most
   * {@code busyPeriods} busy periods of its link (its share of the fabric's, {@code BusyTimeline#maxPeriodsFor}).
   */
  public FlitTerminal(int nicDevice, int routerDevice, int routerInputPort, RouterSpec spec, int vcClasses,
                      boolean detourLegs, EjectionListener listener, int busyPeriods) {
    this(nicDevice, routerDevice, routerInputPort, spec, vcClasses, detourLegs, busyPeriods);
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
    enqueue(packet, sourceQueue);
  }

  /**
   * Queues a control packet (an acknowledgement): it goes before every packet of the source queue that has not
   * started, after the control packets queued before it. Same checks as {@link #enqueue}.
   */
  public void enqueueControl(RoutedPacket packet) {
    enqueue(packet, controlQueue);
  }

  private void enqueue(RoutedPacket packet, ArrayDeque<RoutedPacket> queue) {
    RoutedPacket last = queue.peekLast();
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
    if (linkDownEvent >= 0) {
      lostHere(packet, linkDownEvent); // nothing gets onto a dead link
      return;
    }
    queue.add(packet);
  }

  /** Asks for the earliest evaluation still possible when the terminal can inject (call it after enqueueing). */
  public void scheduleEvaluation(Outbox outbox) {
    if (!needsEvaluation()) return;
    // A packet waits in the queue until it exists: the cycle whose evaluation is at or after its creation.
    long notBefore = injecting != null ? 0L
        : RouterTiming.firstEvaluationAtOrAfter(earliestQueuedCreatedPs(), spec.cyclePs());
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
    RoutedPacket next = injecting != null ? null : nextToStart(RouterTiming.evaluationPs(cycle, spec.cyclePs()));
    if (next != null) {
      int candidate = freeVc(next);
      if (candidate >= 0) {
        injecting = (next == controlQueue.peek() ? controlQueue : sourceQueue).poll();
        injectingVc = startVc(candidate);
        nextFlitIndex = 0;
        vcFree[injectingVc] = false;
        nextVcToTry = (candidate + 1) % startVcCount();
      }
    }
    if (injecting != null && discardingInjection) {
      // The link went down while this packet was going out: its remaining flits are lost, one per cycle.
      nextFlitIndex++;
      if (nextFlitIndex == injecting.flitCount()) {
        vcFree[injectingVc] = true;
        injecting = null;
        discardingInjection = false;
      }
      return;
    }
    if (injecting == null || credits[injectingVc] == 0) return;
    credits[injectingVc]--;
    Flit flit = new Flit(injecting, nextFlitIndex, routerPort, injectingVc, 0);
    outbox.send(routerDevice, RouterTiming.edgePs(cycle + spec.linkLatencyCycles(), spec.cyclePs()), flit);
    injectedCycles.add(cycle * spec.cyclePs(), spec.cyclePs());
    nextFlitIndex++;
    if (nextFlitIndex == injecting.flitCount()) {
      // The channel is free for the next packet once this tail has left, as the routers' output channels are.
      vcFree[injectingVc] = true;
      RoutedPacket sent = injecting;
      injecting = null;
      packetsInjected++;
      if (listener != null) listener.packetLeft(sent);
    }
  }

  /** Whether the terminal can inject at its next evaluation (a later credit arrival may make it so). */
  public boolean needsEvaluation() {
    if (injecting != null) return discardingInjection || credits[injectingVc] > 0;
    RoutedPacket control = controlQueue.peek();
    RoutedPacket source = sourceQueue.peek();
    return control != null && freeVc(control) >= 0 || source != null && freeVc(source) >= 0;
  }

  /**
   * The packet to start at an evaluation at {@code evaluationPs}: the first control packet if it exists by then (an
   * acknowledgement never waits behind segments), else the source queue's first if it exists by then, else null.
   */
  private RoutedPacket nextToStart(long evaluationPs) {
    RoutedPacket control = controlQueue.peek();
    if (control != null && control.createdPs() <= evaluationPs) return control;
    RoutedPacket source = sourceQueue.peek();
    return source != null && source.createdPs() <= evaluationPs ? source : null;
  }

  /** The earliest creation time of a queue's first packet (a queue is in creation order). */
  private long earliestQueuedCreatedPs() {
    RoutedPacket control = controlQueue.peek();
    RoutedPacket source = sourceQueue.peek();
    if (control == null) return source.createdPs();
    return source == null ? control.createdPs() : Math.min(control.createdPs(), source.createdPs());
  }

  /** The channels a new packet may start on: class 0's, and leg 2's first class's for a detour routing. */
  private int startVcCount() {
    return secondLegFirstVc < 0 ? class0Vcs : 2 * class0Vcs;
  }

  /** The virtual channel of start candidate {@code candidate}. */
  private int startVc(int candidate) {
    return candidate < class0Vcs ? candidate : secondLegFirstVc + candidate - class0Vcs;
  }

  /**
   * The first free start channel from the round-robin pointer with room for the packet, as a candidate number
   * ({@link #startVc}), or -1. A packet with a via node starts on its first leg's class only.
   */
  private int freeVc(RoutedPacket packet) {
    boolean wholePacket = spec.switching().needsWholePacketSpace();
    int flitCount = packet.flitCount();
    int candidates = startVcCount();
    for (int k = 0; k < candidates; k++) {
      int candidate = (nextVcToTry + k) % candidates;
      if (candidate >= class0Vcs && packet.viaHost() >= 0) continue;
      int vc = startVc(candidate);
      if (vcFree[vc] && credits[vc] > 0 && (!wholePacket || credits[vc] >= flitCount)) return candidate;
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
    if (flit.isCut()) {
      lost(flit.packet(), flit.cutByEvent());
      return;
    }
    packetsEjected++;
    listener.packetEjected(flit.packet(), outbox.nowPs(), flit.hops());
  }

  /**
   * A flit the owner drops as it arrives, lost to fault event {@code eventId} (the link was down while it was on
   * it, or is down): its credit goes back (see the class comment), and its packet is lost if this was its head or
   * the packet being ejected on its channel.
   */
  public void dropArriving(Flit flit, int eventId, Outbox outbox) {
    int vc = flit.vc();
    if (vc < 0 || vc >= ejecting.length) {
      throw new IllegalStateException("NIC " + nicDevice + " dropped a flit for vc " + vc + ", which it does not have");
    }
    long cycle = RouterTiming.cycleOfEdge(outbox.nowPs(), spec.cyclePs());
    outbox.send(routerDevice, RouterTiming.edgePs(cycle + spec.creditDelayCycles(), spec.cyclePs()),
        creditsToReturn[2 * vc + (flit.isTail() ? 1 : 0)]);
    RoutedPacket partial = ejecting[vc];
    if (partial != null && partial.packetId() == flit.packet().packetId()
        && partial.sourceHost() == flit.packet().sourceHost()) {
      ejecting[vc] = null;
      lost(partial, eventId);
    } else if (flit.isHead()) {
      lost(flit.packet(), flit.isCut() ? flit.cutByEvent() : eventId);
    }
  }

  /**
   * The link to the router goes down for fault event {@code eventId} (or stays down, now for that event): see the
   * class comment.
   */
  public void linkDown(int eventId) {
    boolean wasUp = linkDownEvent < 0;
    linkDownEvent = eventId;
    if (!wasUp) return;
    for (RoutedPacket queued : controlQueue) lostHere(queued, eventId);
    controlQueue.clear();
    for (RoutedPacket queued : sourceQueue) lostHere(queued, eventId);
    sourceQueue.clear();
    if (injecting != null) {
      // Its head left when it started (a packet starts with a credit), so its loss is counted where its worm is cut;
      // for its sender it has left.
      discardingInjection = true;
      listener.packetLeft(injecting);
    }
    for (int vc = 0; vc < ejecting.length; vc++) {
      if (ejecting[vc] != null) {
        lost(ejecting[vc], eventId);
        ejecting[vc] = null;
      }
    }
  }

  /** The link to the router works again: packets queued from now on go out. */
  public void linkUp() {
    linkDownEvent = -1;
  }

  /** Whether the link to the router is down. */
  public boolean isLinkDown() {
    return linkDownEvent >= 0;
  }

  /** A packet this terminal was to inject is lost here: it has left, and is lost. */
  private void lostHere(RoutedPacket packet, int eventId) {
    if (listener == null) {
      throw new IllegalStateException("NIC " + nicDevice + " lost a packet but has no ejection listener");
    }
    listener.packetLeft(packet);
    listener.packetLost(packet, eventId);
  }

  private void lost(RoutedPacket packet, int eventId) {
    if (listener == null) {
      throw new IllegalStateException("NIC " + nicDevice + " lost a packet but has no ejection listener");
    }
    listener.packetLost(packet, eventId);
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

  /** When the last queued packet was created ({@link Long#MIN_VALUE}: none queued); the next must not be older. */
  public long lastQueuedCreatedPs() {
    RoutedPacket last = sourceQueue.peekLast();
    return last == null ? Long.MIN_VALUE : last.createdPs();
  }

  /** Packets queued and not yet started. */
  public int queuedPackets() {
    return sourceQueue.size();
  }

  /** Whether nothing is queued or being injected. */
  public boolean isIdle() {
    return injecting == null && sourceQueue.isEmpty() && controlQueue.isEmpty();
  }

  /** When the last queued control packet was created ({@link Long#MIN_VALUE}: none queued). */
  public long lastControlCreatedPs() {
    RoutedPacket last = controlQueue.peekLast();
    return last == null ? Long.MIN_VALUE : last.createdPs();
  }

  /** Credits the terminal holds for virtual channel {@code vc} of the router's input port. */
  public int credits(int vc) {
    return credits[vc];
  }

  public long flitsInjected() {
    return injectedCycles.totalPs() / spec.cyclePs();
  }

  /** The cycles the NIC injected a flit in, as a busy profile of its link into the router. */
  public BusyProfile injectedCycles() {
    return injectedCycles.profile();
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
