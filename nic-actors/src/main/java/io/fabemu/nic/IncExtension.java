package io.fabemu.nic;

import io.fabemu.core.fault.FaultPlan;
import io.fabemu.core.inc.ControlPayload;
import io.fabemu.core.inc.IncFrame;
import io.fabemu.core.inc.IncPacketType;
import io.fabemu.core.inc.IncRequest;
import io.fabemu.core.link.EgressPort;
import io.fabemu.core.link.PacketForwarder;
import io.fabemu.core.protocol.DeviceProtocol.IncRetransmitTimer;
import io.fabemu.core.protocol.DeviceProtocol.NicSend;
import io.fabemu.core.protocol.DeviceProtocol.Packet;
import io.fabemu.core.protocol.DeviceProtocol.RouteUpdate;
import io.fabemu.core.protocol.Message;
import io.fabemu.core.sim.Outbox;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;

/**
 * INC on a NIC (the INC patent's NIC transceiver): a message with an INC request, and a received packet with an INC
 * frame, go to the NIC's {@link NicIncUnit}. A task is cut into fragments addressed to the host's TOR: one work
 * request for the whole task, the DMA read of its data as for any message, then each fragment through the INC unit (a
 * FIFO, {@code engineLatencyPs} each) onto the link; a retransmission timer (a self-event) resends the fragments whose
 * result is still missing. Result fragments go through the INC unit and are DMA-written as they come; once the last
 * is in, the whole result is delivered as one message, a PCIe latency later. Control messages travel as one packet
 * each, through the INC unit both ways.
 *
 * <p>In a run with faults the management node's views break the INC groups whose tree they cut
 * ({@link NicIncUnit#onDeadLinks}): their leaders here are told, and the MRRs' NIC records why; a task resent
 * {@code maxRetransmits} times is given up on with a line instead of failing the run.
 */
public final class IncExtension implements NicExtension, NicClaims.Inc {
  private final NicServices services;
  private final NicIncUnit unit;
  /** The port to the host's TOR, which every INC packet takes. */
  private final EgressPort incPort;
  /** The run's fault plan; {@link FaultPlan#NONE} (inactive) in a run without faults. */
  private final FaultPlan faultPlan;
  /** INC tasks given up on (a run with faults), one line each. */
  private final List<String> gaveUp = new ArrayList<>();
  /** INC groups a fault broke whose notifies this NIC sent (it hosts their MRRs), one line each. */
  private final List<String> fallbacks = new ArrayList<>();
  /** The groups whose notifies this NIC sent: it records their fallback. */
  private final Set<Long> mrrGroups = new TreeSet<>();

  /**
   * @param incNic    the NIC's INC unit settings
   * @param faultPlan the run's fault plan ({@link FaultPlan#NONE} without faults): while it is active, a task resent
   *                  too often is given up on
   * @throws IllegalArgumentException when the host hangs off no TOR
   */
  public IncExtension(NicServices services, IncNicSpec incNic, FaultPlan faultPlan) {
    int tor = services.topology().torOf(services.host());
    if (tor < 0) {
      throw new IllegalArgumentException("NIC " + services.host() + ": INC needs a host that hangs off a TOR");
    }
    this.services = services;
    this.faultPlan = faultPlan;
    this.incPort = services.linkPort("INC").portTo(tor);
    this.unit = new NicIncUnit(services.host(), tor, incNic, services.nic().headerBytes());
  }

  @Override
  public void claim(NicClaims claims) {
    claims.inc(this);
  }

  /** The INC unit. */
  public NicIncUnit unit() {
    return unit;
  }

  /**
   * An INC message: one work request, the DMA read of its data (a task's) or control payload, then every packet
   * through the INC unit onto the link to the TOR. A task's retransmission timer starts when its last fragment has
   * left.
   */
  @Override
  public void send(NicSend send, Outbox outbox) {
    Message message = send.message();
    IncRequest request = IncRequest.of(message);
    long messageId = services.nextMessageId();
    long start = services.workRequestDonePs(outbox.nowPs());
    long readStart = services.dmaReadStartPs(HostBus.NETWORK, start);
    if (request.type() != IncPacketType.TASK_UP) {
      ControlPayload control = request.control();
      if (request.type() == IncPacketType.TREE_DOWN && control.failCause() == 0 && control.spineIp() != 0) {
        mrrGroups.add(control.trueCommId());
      }
      Packet packet = unit.controlPacket(message, send.destinationHost(), messageId);
      long readyPs = services.dmaReadReadyPs(HostBus.NETWORK, readStart, ControlPayload.WIRE_BYTES);
      services.dmaReadDone(HostBus.NETWORK, readyPs);
      PacketForwarder.transmit(incPort, unit.process(readyPs), packet, outbox);
      return;
    }
    if (request.task() != null && unit.isBroken(request.task().groupId())) {
      return; // the tree is broken: the leader, told so, recovers the task on the host
    }
    Packet[] fragments = unit.startTask(message, send.destinationHost(), messageId);
    transmitTask(message.sourceRank(), fragments, readStart, outbox);
  }

  /**
   * Reads a task's fragments by DMA from {@code readStart} on and sends them through the INC unit, then arms the
   * retransmission timer of each task among them (a streamed task's chunks each have their own).
   */
  private void transmitTask(int leaderRank, Packet[] fragments, long readStart, Outbox outbox) {
    if (fragments.length == 0) {
      return; // queued behind the leader's task of the group in flight
    }
    long dmaBytes = 0;
    long readyPs = readStart;
    for (Packet fragment : fragments) {
      // As for ordinary segments, reads are pipelined with the wire and counted from the task's first read.
      dmaBytes += IncFrame.of(fragment).header2().fragmentBytes();
      readyPs = services.dmaReadReadyPs(HostBus.NETWORK, readStart, dmaBytes);
      PacketForwarder.transmit(incPort, unit.process(readyPs), fragment, outbox);
    }
    services.dmaReadDone(HostBus.NETWORK, readyPs);
    long armed = -1;
    for (Packet fragment : fragments) {
      long key = NicIncUnit.taskKey(IncFrame.of(fragment));
      if (key != armed) armRetransmitTimer(leaderRank, key, outbox);
      armed = key;
    }
  }

  /**
   * A task's retransmission timer fired: resend the fragments whose result is missing (kept in the NIC, so no DMA
   * read; each goes through the INC unit again) and re-arm.
   */
  @Override
  public void onTimer(IncRetransmitTimer timer, Outbox outbox) {
    if (faultPlan.isActive() && unit.retransmitsExhausted(timer)) {
      // A leader cut off by a partition never contributes: give up as the transport does, the run ends incomplete.
      gaveUp.add(unit.abandon(timer, outbox.nowPs()));
      return;
    }
    Packet[] resend = unit.onTimer(timer);
    if (resend == null) {
      return; // the task completed, or the timer was re-armed since
    }
    for (Packet fragment : resend) {
      PacketForwarder.transmit(incPort, unit.process(outbox.nowPs()), fragment, outbox);
    }
    armRetransmitTimer(timer.leaderRank(), timer.taskId(), outbox);
  }

  /**
   * Arms the timer to fire the task's timeout (with backoff, see {@link NicIncUnit#timeoutPs}) after the last packet
   * sent to the TOR has left the NIC.
   */
  private void armRetransmitTimer(int leaderRank, long taskId, Outbox outbox) {
    long leftPs = incPort.lastTailArrivalPs() - incPort.latencyPs();
    outbox.send(services.host(), Math.max(outbox.nowPs(), leftPs) + unit.timeoutPs(leaderRank, taskId),
        unit.armTimer(leaderRank, taskId));
  }

  /**
   * A received INC packet, through the INC unit: a result fragment is merged (a new one DMA-written to host memory)
   * and the result delivered once complete; a control packet is written and delivered at once.
   */
  @Override
  public void receive(Packet packet, Outbox outbox) {
    IncFrame frame = IncFrame.of(packet);
    long processedPs = unit.process(packet.tailTimePs());
    switch (frame.type()) {
      case TASK_DOWN -> {
        if (unit.acceptResultFragment(packet)) {
          long writtenPs = services.dmaWrittenPs(HostBus.NETWORK, processedPs, frame.header2().fragmentBytes());
          Message result = unit.takeCompletedResult(packet.info().destinationRank(), NicIncUnit.taskKey(frame));
          if (result != null) {
            // The write channel is FIFO in arrival order: the last fragment accepted is the last one written.
            services.deliver(result, writtenPs, outbox);
          }
          // A streamed task's chunk done: the next chunk of its window position is read and sent.
          for (NicIncUnit.ReadyChunk chunk : unit.takeReadyChunks()) {
            transmitTask(chunk.leaderRank(), chunk.fragments(), services.dmaReadStartPs(HostBus.NETWORK, processedPs), outbox);
          }
        }
      }
      case TREE_UP, TREE_DOWN, RELEASE -> {
        long writtenPs = services.dmaWrittenPs(HostBus.NETWORK, processedPs, ControlPayload.WIRE_BYTES);
        services.deliver(unit.onControlPacket(packet), writtenPs, outbox);
      }
      case TASK_UP -> throw new IllegalStateException("NIC of host " + services.host() + " got an INC task fragment "
          + "(task " + frame.header2().taskId() + ") addressed to it: fragments go to a TOR's INC unit");
    }
  }

  /**
   * The INC groups the update's dead links break: each of their leaders here gets a notice (through the PCIe, as a
   * delivery), and for the groups whose MRRs are here one line says what broke and when.
   */
  @Override
  public void routesChanged(RouteUpdate update, Outbox outbox) {
    for (NicIncUnit.BrokenGroup broken : unit.onDeadLinks(update.deadLinks())) {
      for (int leader : broken.leaders()) {
        services.deliver(NicIncUnit.breakNotice(broken.groupId(), leader), outbox.nowPs(), outbox);
      }
      if (mrrGroups.contains(broken.groupId())) {
        String cause = update.causeEventId() < 0 ? "a fault"
            : faultPlan.event(update.causeEventId()).describe() + " (event " + update.causeEventId()
                + ")";
        fallbacks.add(String.format(Locale.ROOT, "INC group %d over %s broken by %s: its leaders finish the case "
            + "with a host reduce and broadcast at their lowest rank, from the notice at %.3f us", broken.groupId(),
            services.topology().vertex(broken.spineVertex()).name(), cause, outbox.nowPs() / 1e6));
      }
    }
  }

  @Override
  public void report(NicReportParts parts) {
    parts.inc(gaveUp, fallbacks);
  }
}
