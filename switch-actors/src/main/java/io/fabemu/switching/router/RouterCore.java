package io.fabemu.switching.router;

import io.fabemu.core.fault.FaultPlan;
import io.fabemu.core.link.BusyTimeline;
import io.fabemu.core.protocol.DeviceProtocol.Credit;
import io.fabemu.core.protocol.DeviceProtocol.FaultCommand;
import io.fabemu.core.protocol.DeviceProtocol.FaultDetected;
import io.fabemu.core.protocol.DeviceProtocol.Flit;
import io.fabemu.core.protocol.DeviceProtocol.RouteUpdate;
import io.fabemu.core.protocol.DeviceProtocol.RouterCycle;
import io.fabemu.core.protocol.FaultPayload;
import io.fabemu.core.protocol.RouterPayload;
import io.fabemu.core.router.CycleSchedule;
import io.fabemu.core.router.RouterSpec;
import io.fabemu.core.router.RouterTiming;
import io.fabemu.core.router.Switching;
import io.fabemu.core.routing.DetourRouting;
import io.fabemu.core.routing.RouterRouting;
import io.fabemu.core.sim.DeviceCore;
import io.fabemu.core.sim.DeviceReport.LinkCounters;
import io.fabemu.core.sim.DeviceReport.VcCounters;
import io.fabemu.core.sim.DeviceReport;
import io.fabemu.core.sim.Event;
import io.fabemu.core.sim.Outbox;
import io.fabemu.core.topology.Topology.Link;
import io.fabemu.core.topology.Topology;
import io.fabemu.switching.router.ChannelWait.Kind;
import io.fabemu.switching.router.ChannelWait.PortVc;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A flit-level input-queued router of a router network (mesh, torus, group-ring), cycle-accurate in the manner of
 * BookSim: virtual channels with credit-based flow control, route computation, virtual-channel and switch allocation,
 * a crossbar, and wormhole, virtual cut-through or store-and-forward switching. Deterministic: no randomness.
 *
 * <p><b>Clock</b> ({@link RouterTiming}): cycle {@code c} spans {@code [c * cyclePs, (c + 1) * cyclePs)}; flits and
 * credits arrive at edges ({@code c * cyclePs}); the router evaluates cycle {@code c} at {@code c * cyclePs +
 * cyclePs / 2}, after every arrival of the cycle, by a {@link RouterCycle} it sends itself. It schedules an
 * evaluation only for a cycle in which something may move without outside help (a head in the pipeline, a packet
 * with a free output channel or a credit); an idle or fully blocked router schedules nothing until a flit or credit
 * arrives, and no cycle is scheduled twice ({@link CycleSchedule}).
 *
 * <p><b>One hop</b>: a head arriving at edge {@code a} finishes route computation at {@code a + routingCycles}, when
 * it may take part in virtual-channel allocation; a grant at cycle {@code v} lets it take part in switch allocation
 * from {@code v + vcAllocationCycles}; a switch grant at cycle {@code s} takes the flit out of the input buffer (its
 * credit reaches the upstream device at edge {@code s + creditDelayCycles}) and the flit arrives downstream at edge
 * {@code s + switchAllocationCycles + traversalCycles + linkLatencyCycles}. Stages of 0 cycles pass within one
 * evaluation, which runs route computation, then virtual-channel allocation, then switch allocation. Body and tail
 * flits need only switch allocation. So a head's zero-load time per hop is {@code routerCycles() +
 * linkLatencyCycles}.
 *
 * <p><b>Allocation</b>, separable and input-first with round-robin arbiters ({@link VirtualChannelAllocator},
 * {@link SwitchAllocator}, kept apart as BookSim keeps its allocators). Virtual channels: each waiting head
 * asks for one free output virtual channel of the class {@link RouterRouting#outputVcClass} names on the port
 * {@link RouterRouting#outputPort} names (the first free one from its own round-robin pointer); each output channel
 * grants one request, round-robin over input channels. Switch: each input port picks, round-robin, one of its
 * virtual channels that has a flit, an output channel and a credit; each output port grants one input port,
 * round-robin. So per cycle each input port sends and each output port takes at most one flit.
 *
 * <p><b>Virtual channels</b>: {@code virtualChannels} per input port, in {@code routing.vcClasses()} classes of
 * consecutive channels. An output virtual channel is allocated to one packet at a time and is free again as soon as
 * that packet's tail has left (BookSim's default, {@code wait_for_tail_credit = 0}), so a downstream buffer may hold
 * one packet's tail and the next one's head: the head waits behind the tail and starts its route computation when
 * the tail leaves. Every output channel starts with {@code bufferDepthFlits} credits. Virtual cut-through and
 * store-and-forward grant an output channel only when it has credits for the whole packet (a packet must fit one
 * buffer, which the NIC's {@code FlitTerminal} checks), so a blocked packet gathers in one router, where under
 * wormhole it spreads over several; store-and-forward also lets a head win the switch only once its tail is in this
 * router's buffer.
 *
 * <p><b>Stall watchdog</b>: whenever the router handles an event (a flit, a credit, a cycle) while it holds flits
 * and none has left it for {@code stallLimit} (counted from the last flit that left, or from the first that arrived
 * in an empty router), it throws a {@link RouterDeadlockException} naming what each occupied input channel waits
 * for. The watchdog schedules no event of its own, so it never changes a run's events or its end: a router stuck in
 * a cycle of routers that all wait receives no event at all, and the run ends with flits held, which is how a run
 * finds a deadlock ({@code RouterDeadlocks}); the watchdog catches the stalls that other traffic keeps waking.
 *
 * <p><b>Detours and faults</b> (a run with a fault plan, {@link #useFaults}; handled by {@link RouterFaults}): routes
 * follow {@link DetourRouting} (a packet with a via node goes to the via node's router, then to its destination, each
 * leg in a class set of its own). A port whose cable is down, or every port of a router that is down, is dead: what the
 * router switches to a dead port is lost there (a packet's remaining flits follow its head into the loss, needing no
 * credit, even if the port comes back meanwhile), and what arrives on a dead port, or was on the wire while the cable
 * was down, is dropped on arrival. A worm that was arriving on a port when it died is closed by a cut flit (its last
 * buffered flit, or one added when none is left), so the routers and NIC downstream free its channels and the
 * destination NIC counts the packet lost. A router that goes down loses every flit it holds. Credits travel on a side
 * channel that never loses them: a dropped flit returns its credit like one that left, and a flit lost at a dead port
 * took none, so the flow control is exact again when the cable is back. A lost packet is counted once, where its head
 * is lost or its cut worm ends. The router notices its neighbours' failures and repairs after the heartbeats say so and
 * tells the management node ({@link io.fabemu.core.link.LinkFaults}); it never needs a route update (only the NICs' via
 * nodes change).
 *
 * <p>State is flat arrays indexed by input or output virtual channel ({@code port * virtualChannels + vc}); an
 * evaluation visits only the input channels that hold a packet.
 *
 * <p>The fault handling lives in {@link RouterFaults}, which sees the router only through its narrow
 * {@link RouterFaults.Buffers} view ({@code FaultView} here); a router without a fault plan holds
 * {@link RouterFaults#NONE}.
 *
 * <p>Past 500 lines: the pipeline stages (routing, virtual-channel and switch allocation, traversal, credits) and
 * the stall watchdog work on the same flat per-channel arrays in one evaluation per cycle, and the view the fault
 * handling gets of those arrays must read them here (about 100 lines); splitting the stages apart would put a call
 * between every stage and its arrays on the flit path.
 */
public final class RouterCore implements DeviceCore, RouterPayload.Handler<Outbox>, FaultPayload.Handler<Outbox> {
  /** Input virtual channel states. */
  private static final byte IDLE = 0;
  private static final byte ROUTING = 1;
  private static final byte VC_ALLOCATION = 2;
  private static final byte ACTIVE = 3;

  private final int deviceId;
  private final Topology topology;
  private final RouterRouting routing;
  /** The detour routing of a run with faults; null without (routes are then {@link #routing}'s). */
  private final DetourRouting detours;
  private final RouterSpec spec;
  private final String name;
  private final int portCount;
  /** Virtual channels per port. */
  private final int vcCount;
  private final int vcsPerClass;
  private final int vcClasses;
  private final int depth;
  /**
   * Slots per input virtual channel's ring: {@code depth}, and one more with faults, for the cut flit a router adds
   * to close a worm when none of its flits is left to cut (it took no credit, so it must not take a credited slot).
   */
  private final int ringSize;
  private final long cyclePs;
  private final int routingCycles;
  private final int vcAllocationCycles;
  /** From a switch grant to the flit's arrival downstream: switch allocation, traversal and link, in cycles. */
  private final int grantToArrivalCycles;
  private final int creditDelayCycles;
  private final boolean wholePacketSpace;
  private final boolean storeAndForward;
  /** Cycles without a move after which the watchdog fires; -1 when it is off. */
  private final long stallCycles;
  private final CycleSchedule schedule;

  /** Per port: the device at its other end. */
  private final int[] neighbour;
  /** Per port: whether the other end is a router (a flit going there crosses one more router-to-router hop). */
  private final boolean[] toRouter;
  /** Per port: the downstream device's input port for flits sent on it. */
  private final int[] downstreamInputPort;
  /** Per input virtual channel and tail flag: the credit it returns upstream (records are immutable, so shared). */
  private final Credit[] creditsToReturn;

  // Input virtual channels, index iv = port * vcCount + vc.
  /** Ring buffers, {@link #ringSize} slots per input virtual channel. */
  private final Flit[] buffer;
  private final int[] bufferHead;
  private final int[] bufferCount;
  private final byte[] state;
  private final int[] routeOutputPort;
  private final int[] routeOutputClass;
  /** The output virtual channel (index ov) allocated to the packet, or -1. */
  private final int[] allocatedOutputVc;
  /** ROUTING: the cycle route computation ends; ACTIVE: the first cycle switch allocation may grant. */
  private final long[] stageReadyCycle;
  /** Tails of packets whose flits are in the input virtual channel's buffer (the front packet's is the first). */
  private final int[] tailsBuffered;
  private final int[] nextArrivingIndex;
  private final long[] holdStartCycle;
  private final long[] busyCycles;
  /** Per input virtual channel: the part of {@link #busyCycles} inside the measurement window. */
  private final long[] windowBusyCycles;
  /** Per input virtual channel: flits that arrived in a cycle of the measurement window. */
  private final long[] windowFlitsArrived;
  /** The measurement window of a synthetic-traffic run, cycles {@code [start, end)}; empty until set. */
  private long measureStartCycle;
  private long measureEndCycle;
  /** Per input virtual channel: the output virtual channel (within the class) its next request tries first. */
  private final int[] vcRequestPointer;
  /** The input virtual channels holding a packet, and each one's place in that list (-1 when not in it). */
  private final int[] activeInputVcs;
  private final int[] activePosition;
  private int activeCount;
  private int heldFlits;

  // Output virtual channels, index ov = port * vcCount + vc.
  /** The input virtual channel whose packet holds it, or -1 when free. */
  private final int[] outputVcOwner;
  private final int[] outputCredits;
  private final VirtualChannelAllocator vcAllocator;
  private final SwitchAllocator switchAllocator;

  /** Per output port, the cycles it sent a flit in (a flit a cycle: flits sent = busy time / cycle). */
  private final BusyTimeline[] sentCycles;
  private final long[] packetsSent;
  private long lastMoveCycle;

  /** The fault handling: {@link RouterFaults#NONE} in a run without a fault plan. */
  private RouterFaults faults = RouterFaults.NONE;

  /**
   * @param vertex       the router's vertex (and device id)
   * @param topology     the network; the router's port {@link RouterRouting#LOCAL_PORT} goes to its host's NIC
   * @param routing      the network's routes and virtual-channel classes
   * @param spec         the routers and channels
   * @param stallLimitPs virtual time without any flit moving, while the router holds flits, after which it declares
   *                     a deadlock (positive; {@link Long#MAX_VALUE} turns the watchdog off); rounded up to cycles
   * @throws IllegalArgumentException when the vertex is a host, the virtual channels are not a positive multiple of
   *                                  the routing's classes, the cycle is below 2 ps or the stall limit not positive
   */
  public RouterCore(int vertex, Topology topology, RouterRouting routing, RouterSpec spec, long stallLimitPs) {
    this(vertex, topology, routing, null, spec, stallLimitPs);
  }

  /**
   * A router of a run with faults, routing by {@code detours} (over the network's routing), whose classes the
   * virtual channels must be a multiple of; {@code detours} null: as {@link #RouterCore(int, Topology,
   * RouterRouting, RouterSpec, long)}.
   */
  public RouterCore(int vertex, Topology topology, RouterRouting routing, DetourRouting detours, RouterSpec spec,
                    long stallLimitPs) {
    if (vertex < 0 || vertex >= topology.vertexCount() || topology.isHost(vertex)) {
      throw new IllegalArgumentException("router vertex must be a switch vertex of " + topology + ", got " + vertex);
    }
    if (stallLimitPs <= 0) {
      throw new IllegalArgumentException("router stall limit must be positive, got " + stallLimitPs + " ps");
    }
    RouterTiming.requireSupported(spec);
    this.deviceId = vertex;
    this.topology = topology;
    this.routing = routing;
    this.detours = detours;
    this.spec = spec;
    this.name = topology.vertexName(vertex);
    this.vcClasses = detours != null ? detours.vcClasses() : routing.vcClasses();
    this.vcsPerClass = RouterTiming.vcsPerClass(spec, vcClasses);
    this.portCount = topology.portCount(vertex);
    this.vcCount = spec.virtualChannels();
    this.depth = spec.bufferDepthFlits();
    this.ringSize = detours == null ? depth : depth + 1;
    this.cyclePs = spec.cyclePs();
    this.routingCycles = spec.routingCycles();
    this.vcAllocationCycles = spec.vcAllocationCycles();
    this.grantToArrivalCycles = spec.switchAllocationCycles() + spec.traversalCycles() + spec.linkLatencyCycles();
    this.creditDelayCycles = spec.creditDelayCycles();
    this.wholePacketSpace = spec.switching().needsWholePacketSpace();
    this.storeAndForward = spec.switching() == Switching.STORE_AND_FORWARD;
    this.stallCycles = stallLimitPs == Long.MAX_VALUE ? -1 : (stallLimitPs + cyclePs - 1) / cyclePs;
    this.schedule = new CycleSchedule(vertex, cyclePs);

    int inputVcs = portCount * vcCount;
    neighbour = new int[portCount];
    toRouter = new boolean[portCount];
    downstreamInputPort = new int[portCount];
    creditsToReturn = new Credit[2 * inputVcs];
    List<Link> links = topology.ports(vertex);
    for (int port = 0; port < portCount; port++) {
      Link link = links.get(port);
      neighbour[port] = link.to();
      toRouter[port] = !topology.isHost(link.to());
      downstreamInputPort[port] = link.toPort();
      // The credit for this input port names the upstream device's output port: the sender of the reverse link.
      int upstreamOutputPort = topology.reverse(link).fromPort();
      for (int vc = 0; vc < vcCount; vc++) {
        int iv = port * vcCount + vc;
        creditsToReturn[2 * iv] = new Credit(upstreamOutputPort, vc, false);
        creditsToReturn[2 * iv + 1] = new Credit(upstreamOutputPort, vc, true);
      }
    }
    buffer = new Flit[inputVcs * ringSize];
    bufferHead = new int[inputVcs];
    bufferCount = new int[inputVcs];
    state = new byte[inputVcs];
    routeOutputPort = new int[inputVcs];
    routeOutputClass = new int[inputVcs];
    allocatedOutputVc = new int[inputVcs];
    Arrays.fill(allocatedOutputVc, -1);
    stageReadyCycle = new long[inputVcs];
    tailsBuffered = new int[inputVcs];
    nextArrivingIndex = new int[inputVcs];
    holdStartCycle = new long[inputVcs];
    busyCycles = new long[inputVcs];
    windowBusyCycles = new long[inputVcs];
    windowFlitsArrived = new long[inputVcs];
    vcRequestPointer = new int[inputVcs];
    activeInputVcs = new int[inputVcs];
    activePosition = new int[inputVcs];
    Arrays.fill(activePosition, -1);

    outputVcOwner = new int[inputVcs];
    Arrays.fill(outputVcOwner, -1);
    outputCredits = new int[inputVcs];
    Arrays.fill(outputCredits, depth);
    vcAllocator = new VirtualChannelAllocator(inputVcs, inputVcs);
    switchAllocator = new SwitchAllocator(portCount, vcCount);

    sentCycles = new BusyTimeline[portCount];
    int busyPeriods = BusyTimeline.maxPeriodsFor(topology.links().size(), portCount);
    for (int port = 0; port < portCount; port++) sentCycles[port] = new BusyTimeline(busyPeriods);
    packetsSent = new long[portCount];
  }

  /**
   * Makes this router part of a run with faults (see the class comment): it applies the plan's events to its ports
   * and reports what it notices to {@code managementDevice}.
   *
   * @throws IllegalStateException when the router was not built with a detour routing
   */
  public void useFaults(FaultPlan plan, int managementDevice) {
    if (detours == null) {
      throw new IllegalStateException("router " + name + ": faults need the detour routing (build it with one)");
    }
    this.faults = new RouterFaults(new FaultView(), plan, managementDevice, spec);
  }

  @Override
  public int deviceId() {
    return deviceId;
  }

  @Override
  public void onEvent(Event event, Outbox outbox) {
    event.payload().handleWith(this, outbox);
  }

  @Override
  public String deviceName() {
    return "router " + deviceId;
  }

  // ---------------------------------------------------------------- arrivals

  @Override
  public void onFlit(Flit flit, Outbox outbox) {
    int port = flit.inputPort();
    int vc = flit.vc();
    if (port < 0 || port >= portCount || vc < 0 || vc >= vcCount) {
      throw new IllegalStateException("router " + name + " got a flit for input " + port + " vc " + vc
          + ", which it does not have");
    }
    long cycle = RouterTiming.cycleOfEdge(outbox.nowPs(), cyclePs);
    int iv = port * vcCount + vc;
    if (faults.active() && faults.dropsOnArrival(flit, iv, cycle, outbox)) return;
    if (bufferCount[iv] - faults.unpaidHeld(iv) == depth) {
      throw new IllegalStateException("router " + name + " input " + port + " vc " + vc + " overflowed its "
          + depth + " flits: a flit was sent without a credit");
    }
    if (flit.isHead()) {
      // A head behind the previous packet's tail waits in the buffer; it starts when that tail leaves.
      if (state[iv] == IDLE) startPacket(iv, flit, cycle);
    } else if (state[iv] == IDLE) {
      throw new IllegalStateException("router " + name + " input " + port + " vc " + vc + " got flit "
          + flit.flitIndex() + " of a packet whose head it never had");
    }
    if (flit.flitIndex() != nextArrivingIndex[iv]) {
      throw new IllegalStateException("router " + name + " input " + port + " vc " + vc + " got flit "
          + flit.flitIndex() + " where flit " + nextArrivingIndex[iv] + " was due");
    }
    nextArrivingIndex[iv]++;
    if (cycle >= measureStartCycle && cycle < measureEndCycle) windowFlitsArrived[iv]++;
    if (flit.isTail()) {
      tailsBuffered[iv]++;
      nextArrivingIndex[iv] = 0;
    }
    int slot = bufferHead[iv] + bufferCount[iv];
    if (slot >= ringSize) slot -= ringSize;
    buffer[iv * ringSize + slot] = flit;
    bufferCount[iv]++;
    if (heldFlits == 0) lastMoveCycle = cycle;
    heldFlits++;
    checkStall(cycle);
    schedule.requestEarliest(outbox);
  }

  /**
   * The packet whose head is {@code head}, now at the front of input virtual channel {@code iv}, starts: route
   * computation from {@code cycle} on.
   */
  private void startPacket(int iv, Flit head, long cycle) {
    int port = iv / vcCount;
    int vc = iv % vcCount;
    int destination = head.packet().destinationHost();
    int via = head.packet().viaHost();
    int inputClass = vc / vcsPerClass;
    int outputPort = detours != null ? detours.outputPort(deviceId, inputClass, destination, via)
        : routing.outputPort(deviceId, destination);
    if (outputPort < 0 || outputPort >= portCount) {
      throw new IllegalStateException("routing sends host " + destination + "'s packet out of router " + name
          + " by port " + outputPort + ", which it does not have");
    }
    int outputClass = detours != null
        ? detours.outputVcClass(deviceId, port, inputClass, outputPort, destination, via)
        : routing.outputVcClass(deviceId, port, inputClass, outputPort, destination);
    if (outputClass < 0 || outputClass >= vcClasses) {
      throw new IllegalStateException("routing gives host " + destination + "'s packet at router " + name
          + " virtual-channel class " + outputClass + " of " + vcClasses);
    }
    routeOutputPort[iv] = outputPort;
    routeOutputClass[iv] = outputClass;
    state[iv] = ROUTING;
    stageReadyCycle[iv] = cycle + routingCycles;
    holdStartCycle[iv] = cycle;
    if (activePosition[iv] < 0) {
      activePosition[iv] = activeCount;
      activeInputVcs[activeCount++] = iv;
    }
  }

  @Override
  public void onCredit(Credit credit, Outbox outbox) {
    int port = credit.outputPort();
    int vc = credit.vc();
    if (port < 0 || port >= portCount || vc < 0 || vc >= vcCount) {
      throw new IllegalStateException("router " + name + " got a credit for output " + port + " vc " + vc
          + ", which it does not have");
    }
    checkStall(RouterTiming.cycleOfEdge(outbox.nowPs(), cyclePs));
    int ov = port * vcCount + vc;
    if (outputCredits[ov] == depth) {
      throw new IllegalStateException("router " + name + " got a credit for output " + port + " vc " + vc
          + ", which has all its " + depth + " credits already");
    }
    // The output virtual channel was freed when the tail left (BookSim's default); a tail's credit is a credit.
    outputCredits[ov]++;
    // A credit may unblock a waiting packet; a router that holds nothing has nothing to evaluate.
    if (heldFlits > 0) schedule.requestEarliest(outbox);
  }

  @Override
  public void onRouterCycle(RouterCycle routerCycle, Outbox outbox) {
    long cycle = RouterTiming.cycleOfEvaluation(outbox.nowPs(), cyclePs);
    if (schedule.isDue(cycle)) {
      checkStall(cycle);
      evaluate(cycle, outbox);
    } else {
      throw new IllegalStateException("router " + name + " got a router cycle event for cycle " + cycle
          + ", which it did not schedule");
    }
  }

  // ---------------------------------------------------------------- one cycle

  private void evaluate(long cycle, Outbox outbox) {
    schedule.markEvaluated(cycle);
    allocateVirtualChannels(cycle);
    allocateSwitch(cycle, outbox);
    if (canMoveAfter(cycle)) schedule.requestEarliest(outbox);
  }

  /** Route computation ends, then each waiting head asks for an output virtual channel; each channel grants one. */
  private void allocateVirtualChannels(long cycle) {
    for (int i = 0; i < activeCount; i++) {
      int iv = activeInputVcs[i];
      if (state[iv] == ROUTING && stageReadyCycle[iv] <= cycle) state[iv] = VC_ALLOCATION;
      if (state[iv] != VC_ALLOCATION) continue;
      int ov = freeOutputVc(iv);
      if (ov >= 0) vcAllocator.request(iv, ov);
    }
    int grants = vcAllocator.allocate();
    for (int k = 0; k < grants; k++) {
      int iv = vcAllocator.grantedInput(k);
      int ov = vcAllocator.grantedOutput(k);
      outputVcOwner[ov] = iv;
      allocatedOutputVc[iv] = ov;
      state[iv] = ACTIVE;
      stageReadyCycle[iv] = cycle + vcAllocationCycles;
      vcRequestPointer[iv] = (ov % vcCount - routeOutputClass[iv] * vcsPerClass + 1) % vcsPerClass;
    }
  }

  /**
   * The output virtual channel a waiting head asks for: the first free one of its class from its pointer (with room
   * for the whole packet under virtual cut-through and store-and-forward), or -1 when there is none.
   */
  private int freeOutputVc(int iv) {
    int base = routeOutputPort[iv] * vcCount + routeOutputClass[iv] * vcsPerClass;
    // A dead port loses what it is given: it needs no credit.
    int flitCount = faults.isPortDead(routeOutputPort[iv]) ? 0
        : wholePacketSpace ? frontFlit(iv).packet().flitCount() : 1;
    int start = vcRequestPointer[iv];
    for (int k = 0; k < vcsPerClass; k++) {
      int j = start + k;
      if (j >= vcsPerClass) j -= vcsPerClass;
      int ov = base + j;
      if (outputVcOwner[ov] < 0 && outputCredits[ov] >= flitCount) return ov;
    }
    return -1;
  }

  /** Each input port picks one ready virtual channel, each output port grants one input port; winners cross. */
  private void allocateSwitch(long cycle, Outbox outbox) {
    for (int i = 0; i < activeCount; i++) {
      int iv = activeInputVcs[i];
      if (readyForSwitch(iv, cycle)) switchAllocator.offer(iv);
    }
    // Every grant is decided before the first flit crosses: a crossing tail starts the next packet's route.
    int grants = switchAllocator.allocate(routeOutputPort);
    for (int k = 0; k < grants; k++) {
      traverse(switchAllocator.granted(k), cycle, outbox);
    }
  }

  private boolean readyForSwitch(int iv, long cycle) {
    if (state[iv] != ACTIVE || stageReadyCycle[iv] > cycle || bufferCount[iv] == 0) return false;
    if (outputCredits[allocatedOutputVc[iv]] == 0 && !faults.losesAt(allocatedOutputVc[iv])) return false;
    return !storeAndForward || tailsBuffered[iv] > 0 || !frontFlit(iv).isHead();
  }

  /** The switch granted input virtual channel {@code iv}: its front flit leaves, its credit goes upstream. */
  private void traverse(int iv, long cycle, Outbox outbox) {
    int slot = iv * ringSize + bufferHead[iv];
    Flit flit = buffer[slot];
    buffer[slot] = null;
    boolean paid = faults.leavesPaid(slot, iv);
    bufferHead[iv] = bufferHead[iv] + 1 == ringSize ? 0 : bufferHead[iv] + 1;
    bufferCount[iv]--;
    heldFlits--;
    int ov = allocatedOutputVc[iv];
    int output = routeOutputPort[iv];
    boolean tail = flit.isTail();
    if (paid) returnCredit(iv, tail, cycle, outbox);
    if (faults.losesAt(ov)) {
      faults.loseAt(flit, ov, output);
    } else {
      outputCredits[ov]--;
      Flit sent = new Flit(flit.packet(), flit.flitIndex(), downstreamInputPort[output], ov - output * vcCount,
          toRouter[output] ? flit.hops() + 1 : flit.hops(), flit.cutByEvent());
      outbox.send(neighbour[output], RouterTiming.edgePs(cycle + grantToArrivalCycles, cyclePs), sent);
      sentCycles[output].add(cycle * cyclePs, cyclePs);
    }
    lastMoveCycle = cycle;
    if (tail) {
      packetsSent[output]++;
      busyCycles[iv] += cycle - holdStartCycle[iv] + 1;
      long from = Math.max(holdStartCycle[iv], measureStartCycle);
      long to = Math.min(cycle + 1, measureEndCycle);
      if (to > from) windowBusyCycles[iv] += to - from;
      // The output virtual channel is free for another packet as soon as this tail has left (BookSim's default,
      // wait_for_tail_credit = 0): the downstream buffer may then hold this tail and the next packet's head.
      outputVcOwner[ov] = -1;
      allocatedOutputVc[iv] = -1;
      tailsBuffered[iv]--;
      if (bufferCount[iv] > 0) {
        startPacket(iv, frontFlit(iv), cycle);
        // The tail's last cycle is counted as the previous packet's; the waiting head holds the channel after it.
        holdStartCycle[iv] = cycle + 1;
      } else {
        state[iv] = IDLE;
        removeActive(iv);
      }
    }
  }

  /** Returns upstream the credit of a flit of input channel {@code iv} that left (or was lost) at {@code cycle}. */
  private void returnCredit(int iv, boolean tail, long cycle, Outbox outbox) {
    outbox.send(neighbour[iv / vcCount], RouterTiming.edgePs(cycle + creditDelayCycles, cyclePs),
        creditsToReturn[2 * iv + (tail ? 1 : 0)]);
  }

  // ---------------------------------------------------------------- faults (RouterFaults)

  @Override
  public void onFaultCommand(FaultCommand command, Outbox outbox) {
    if (!faults.active()) throw cannotHandle(command);
    faults.onFaultCommand(command, outbox);
  }

  @Override
  public void onFaultDetected(FaultDetected detected, Outbox outbox) {
    if (!faults.active()) throw cannotHandle(detected);
    faults.onFaultDetected(detected, outbox);
  }

  /** The router's buffers and channels as its {@link RouterFaults} sees them. */
  private final class FaultView implements RouterFaults.Buffers {
    @Override
    public int deviceId() {
      return deviceId;
    }

    @Override
    public int portCount() {
      return portCount;
    }

    @Override
    public int vcCount() {
      return vcCount;
    }

    @Override
    public int ringSize() {
      return ringSize;
    }

    @Override
    public int neighbour(int port) {
      return neighbour[port];
    }

    @Override
    public boolean toRouter(int port) {
      return toRouter[port];
    }

    @Override
    public int bufferedFlits(int iv) {
      return bufferCount[iv];
    }

    @Override
    public int slotOf(int iv, int k) {
      return iv * ringSize + (bufferHead[iv] + k) % ringSize;
    }

    @Override
    public Flit flitAt(int slot) {
      return buffer[slot];
    }

    @Override
    public void setFlitAt(int slot, Flit flit) {
      buffer[slot] = flit;
    }

    @Override
    public int nextArrivingIndex(int iv) {
      return nextArrivingIndex[iv];
    }

    @Override
    public int append(int iv, Flit flit, long cycle) {
      int slot = slotOf(iv, bufferCount[iv]);
      buffer[slot] = flit;
      bufferCount[iv]++;
      if (heldFlits == 0) lastMoveCycle = cycle;
      heldFlits++;
      return slot;
    }

    @Override
    public void endArrivingWorm(int iv) {
      tailsBuffered[iv]++;
      nextArrivingIndex[iv] = 0;
    }

    @Override
    public int outputVcOwner(int ov) {
      return outputVcOwner[ov];
    }

    @Override
    public void returnCredit(int iv, boolean tail, long cycle, Outbox outbox) {
      RouterCore.this.returnCredit(iv, tail, cycle, outbox);
    }

    @Override
    public void emptyAll() {
      for (int iv = 0; iv < portCount * vcCount; iv++) {
        Arrays.fill(buffer, iv * ringSize, (iv + 1) * ringSize, null);
        bufferHead[iv] = 0;
        bufferCount[iv] = 0;
        tailsBuffered[iv] = 0;
        nextArrivingIndex[iv] = 0;
        allocatedOutputVc[iv] = -1;
        outputVcOwner[iv] = -1;
        if (state[iv] != IDLE) {
          state[iv] = IDLE;
          removeActive(iv);
        }
      }
      heldFlits = 0;
    }

    @Override
    public void wake(Outbox outbox) {
      if (heldFlits > 0) schedule.requestEarliest(outbox);
    }
  }

  private void removeActive(int iv) {
    int position = activePosition[iv];
    int last = activeInputVcs[--activeCount];
    activeInputVcs[position] = last;
    activePosition[last] = position;
    activePosition[iv] = -1;
  }

  /** Whether some packet may move in the next cycle without a flit or credit arriving first. */
  private boolean canMoveAfter(long cycle) {
    for (int i = 0; i < activeCount; i++) {
      int iv = activeInputVcs[i];
      switch (state[iv]) {
        case ROUTING:
          return true;
        case VC_ALLOCATION:
          if (freeOutputVc(iv) >= 0) return true;
          break;
        default:
          if (stageReadyCycle[iv] > cycle || readyForSwitch(iv, cycle + 1)) return true;
          break;
      }
    }
    return false;
  }

  private Flit frontFlit(int iv) {
    return buffer[iv * ringSize + bufferHead[iv]];
  }

  // ---------------------------------------------------------------- stall watchdog

  /** Throws when the router holds flits and none has left for the stall limit (see the class comment). */
  private void checkStall(long cycle) {
    if (stallCycles < 0 || heldFlits == 0 || cycle - lastMoveCycle < stallCycles) return;
    List<ChannelWait> waits = waits();
    StringBuilder message = new StringBuilder("router ").append(name).append(" (vertex ").append(deviceId)
        .append("): no flit moved for ").append(cycle - lastMoveCycle).append(" cycles (since cycle ")
        .append(lastMoveCycle).append(", ").append(heldFlits).append(" flits held)");
    for (ChannelWait wait : waits) {
      message.append("; ").append(wait.describe(topology));
    }
    throw new RouterDeadlockException(message.toString(), deviceId, waits);
  }

  /**
   * What each input virtual channel holding a packet waits for, in input order (port, then virtual channel). Read
   * it when the router is not handling an event.
   */
  public List<ChannelWait> waits() {
    List<ChannelWait> waits = new ArrayList<>();
    long cycle = schedule.lastEvaluatedCycle();
    for (int iv = 0; iv < portCount * vcCount; iv++) {
      if (state[iv] == IDLE) continue;
      int port = iv / vcCount;
      int vc = iv % vcCount;
      int output = routeOutputPort[iv];
      int ov = allocatedOutputVc[iv];
      int first = routeOutputClass[iv] * vcsPerClass;
      if (state[iv] == ROUTING) {
        waits.add(new ChannelWait(deviceId, port, vc, Kind.PIPELINE, output, first, vcsPerClass, List.of()));
      } else if (state[iv] == VC_ALLOCATION) {
        if (freeOutputVc(iv) >= 0) {
          waits.add(new ChannelWait(deviceId, port, vc, Kind.PIPELINE, output, first, vcsPerClass, List.of()));
          continue;
        }
        List<PortVc> holders = new ArrayList<>();
        for (int j = 0; j < vcsPerClass; j++) {
          int owner = outputVcOwner[output * vcCount + first + j];
          if (owner >= 0) holders.add(new PortVc(owner / vcCount, owner % vcCount));
        }
        waits.add(new ChannelWait(deviceId, port, vc, Kind.FREE_OUTPUT_VC, output, first, vcsPerClass, holders));
      } else {
        Kind kind;
        if (bufferCount[iv] == 0) {
          kind = Kind.UPSTREAM_FLIT;
        } else if (outputCredits[ov] == 0) {
          kind = Kind.CREDIT;
        } else if (storeAndForward && frontFlit(iv).isHead() && tailsBuffered[iv] == 0) {
          kind = Kind.TAIL;
        } else {
          kind = stageReadyCycle[iv] > cycle + 1 ? Kind.PIPELINE : Kind.SWITCH;
        }
        waits.add(new ChannelWait(deviceId, port, vc, kind, output, ov % vcCount, 1, List.of()));
      }
    }
    return waits;
  }

  // ---------------------------------------------------------------- counters

  /** Flits sent on output port {@code port}. */
  public long flitsSent(int port) {
    return sentCycles[port].totalPs() / cyclePs;
  }

  /** Packets whose tail left by output port {@code port}. */
  public long packetsSent(int port) {
    return packetsSent[port];
  }

  /**
   * Cycles input virtual channel {@code vc} of port {@code port} held a packet, over the packets whose tail has left:
   * from the cycle the head's route computation started (its arrival, or, behind another packet's tail, the cycle
   * after that tail left) to the tail's departure cycle, both counted.
   */
  public long busyCycles(int port, int vc) {
    return busyCycles[port * vcCount + vc];
  }

  /**
   * Counts, besides the whole run, what happens in cycles {@code [startCycle, endCycle)}: a synthetic-traffic run's
   * measurement window, over which channel and virtual-channel use are reported (as cycle-accurate simulators report
   * them over their sample period).
   */
  public void measureBetween(long startCycle, long endCycle) {
    if (startCycle < 0 || endCycle < startCycle) {
      throw new IllegalArgumentException("router " + name + ": measurement window [" + startCycle + ", " + endCycle
          + ") is no window of cycles");
    }
    measureStartCycle = startCycle;
    measureEndCycle = endCycle;
  }

  /** Credits held for output virtual channel {@code vc} of port {@code port}. */
  public int credits(int port, int vc) {
    return outputCredits[port * vcCount + vc];
  }

  /** Whether output virtual channel {@code vc} of port {@code port} is free (no packet holds it). */
  public boolean isOutputVcFree(int port, int vc) {
    return outputVcOwner[port * vcCount + vc] < 0;
  }

  /** Flits in the input buffers. */
  public int heldFlits() {
    return heldFlits;
  }

  /** Ports, the local one included. */
  public int portCount() {
    return portCount;
  }

  /**
   * One counter set per output port (bytes = flits * flitBytes, packets = tails sent, busy = flits * cycle, with the
   * cycles they left in) and one per
   * input virtual channel (its busy cycles).
   */
  @Override
  public DeviceReport report() {
    List<LinkCounters> links = new ArrayList<>(portCount);
    for (int port = 0; port < portCount; port++) {
      links.add(new LinkCounters(deviceId, neighbour[port], flitsSent(port) * spec.flitBytes(), packetsSent[port],
          sentCycles[port].profile(), 0L));
    }
    List<VcCounters> virtualChannels = new ArrayList<>(portCount * vcCount);
    for (int port = 0; port < portCount; port++) {
      for (int vc = 0; vc < vcCount; vc++) {
        int iv = port * vcCount + vc;
        virtualChannels.add(new VcCounters(neighbour[port], deviceId, vc, busyCycles[iv], windowBusyCycles[iv],
            windowFlitsArrived[iv]));
      }
    }
    return DeviceReport.builder(deviceId).links(links).virtualChannels(virtualChannels).part(faults.report())
        .build();
  }

  // ---------------------------------------------------------------- payloads a router never gets

  @Override
  public void onRouteUpdate(RouteUpdate update, Outbox outbox) {
    throw cannotHandle(update);
  }
}
