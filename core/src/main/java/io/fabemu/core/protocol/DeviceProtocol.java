package io.fabemu.core.protocol;

import io.fabemu.core.data.DataBuffer;
import io.fabemu.core.data.DataType;
import java.util.List;

/**
 * The payloads of events between devices (and of a device's events to itself). Every class here crosses members
 * in a distributed run, so each is registered with the wire serializer.
 *
 * Each record belongs to one payload family (its sealed interface, in a file of its own in this package), which says
 * which devices receive it.
 *
 * <p>Past 500 lines: it declares every payload that crosses members in one place, next to the wire registration they
 * all need (the wire names are {@code DeviceProtocol$Record}, so the records stay nested here; their families are in
 * their own files).
 */
public final class DeviceProtocol {
  private DeviceProtocol() {}

  /** Engine to compute node at time 0: start the workload. */
  public enum StartWorkload implements WorkloadPayload {
    INSTANCE;

    @Override
    public <C> void handleWith(PayloadHandlers<C> handlers, C context) {
      handlers.workload(this).onStartWorkload(this, context);
    }
  }

  /** Compute node to its NIC: send {@code message} to the NIC of {@code destinationHost}. */
  public record NicSend(int destinationHost, Message message) implements HostPayload {
    @Override
    public <C> void handleWith(PayloadHandlers<C> handlers, C context) {
      handlers.host(this).onNicSend(this, context);
    }

    @Override
    public long dataBytes() {
      return message.dataBytes();
    }
  }

  /** NIC to its compute node: {@code message} has fully arrived in host memory. */
  public record NicDeliver(Message message) implements HostPayload {
    @Override
    public <C> void handleWith(PayloadHandlers<C> handlers, C context) {
      handlers.host(this).onNicDeliver(this, context);
    }

    @Override
    public long dataBytes() {
      return message.dataBytes();
    }

    @Override
    public long dataWorkBytes() {
      return message.dataBytes();
    }
  }

  /** Compute node to itself: an intra-node copy from one process to another has completed. */
  public record LocalDelivery(Message message) implements HostPayload {
    @Override
    public <C> void handleWith(PayloadHandlers<C> handlers, C context) {
      handlers.host(this).onLocalDelivery(this, context);
    }

    @Override
    public long dataBytes() {
      return message.dataBytes();
    }

    @Override
    public long dataWorkBytes() {
      return message.dataBytes();
    }
  }

  /**
   * Facts about a message that every one of its packets carries, so the receiving NIC can reassemble it. A message
   * without data (zero bytes, or synthetic) has no data type and no elements, only its size.
   *
   * @param totalElements elements in the whole message (0 when it carries no data)
   * @param dataType      element type (null when the message carries no data)
   * @param withLocations elements carry MAXLOC/MINLOC locations
   * @param totalBytes    payload bytes of the whole message, data or not
   */
  public record MessageInfo(int sourceRank, int destinationRank, long tag, int totalElements, DataType dataType,
                            boolean withLocations, long totalBytes) {

    /**
     * @throws IllegalArgumentException when a message without data has elements or a negative size, or the size
     *                                  of one with data is not its elements' size
     */
    public MessageInfo {
      boolean consistent = dataType == null
          ? totalElements == 0 && !withLocations && totalBytes >= 0
          : totalBytes == (long) totalElements
              * (dataType.sizeBytes() + (withLocations ? DataBuffer.LOCATION_BYTES : 0));
      if (!consistent) {
        throw new IllegalArgumentException("inconsistent message info: " + totalElements + " elements of "
            + dataType + (withLocations ? " with locations" : "") + " in " + totalBytes + " B");
      }
    }
  }

  /**
   * One packet on a link. The event that carries it is due when the packet's first bit arrives at the receiver;
   * {@code tailTimePs} is when its last bit does (equal to the event time plus the serialization time).
   *
   * <p>An INC packet ({@code extension != null}) is addressed by its frame's IP addresses: {@code sourceHost} and
   * {@code destinationHost} are then the vertices of its IP source and destination, which may be switches (a
   * fragment goes to its TOR, a partial result to the SPINE), and {@code messageId}/{@code segmentIndex} play no
   * part in reassembly: the frame's Header2 identifies a fragment.
   *
   * @param sourceHost      host whose NIC created the packet (INC: the IP source's vertex)
   * @param destinationHost host whose NIC consumes it (INC: the IP destination's vertex)
   * @param messageId       per-source-NIC message counter
   * @param segmentIndex    0..segmentCount-1
   * @param segmentCount    packets in the message
   * @param wireBytes       bytes on the wire: payload plus header (INC: plus the INC frame)
   * @param tailTimePs      arrival time of the last bit at the receiving device
   * @param info            message facts, shared by all its packets
   * @param elementOffset   index of the first element of {@code slice} in the message (0 without data)
   * @param slice           this packet's part of the data (null when the message carries none: zero bytes, or
   *                        synthetic; the packet's payload is then {@code wireBytes} minus the NIC's header)
   * @param extension       a feature's frame that rides with the packet, which the kernel carries as an
   *                        {@link Extension}; null on an ordinary packet. The INC feature's is the one there is: the
   *                        INC frame (the INC patent's INC flag and headers, the INC paper's MPI header), which it
   *                        reads as its {@code IncFrame} ({@code IncFrame.of(packet)})
   * @param ack             an acknowledgement of the reliable transport (a run with faults): the receiving NIC of
   *                        message {@code messageId} (its sequence number from {@code destinationHost} to
   *                        {@code sourceHost}) got all of it; it carries no message ({@code info} is null)
   * @param corrupted       a lossy link flipped bits in it: its checksum fails where it is checked (the receiving
   *                        NIC, or a store-and-forward switch), which drops it
   * @param transmission    the reliable transport's copy of the message this packet belongs to (0: its first send,
   *                        k: its k-th resend); on an acknowledgement, the copy whose arrival it answers, so that
   *                        the sender can tell a resend that was needed from a spurious one. 0 without the transport
   */
  public record Packet(int sourceHost, int destinationHost, long messageId, int segmentIndex, int segmentCount,
                       int wireBytes, long tailTimePs, MessageInfo info, int elementOffset, DataBuffer slice,
                       Extension extension, boolean ack, boolean corrupted, int transmission) implements LinkPayload {

    /**
     * A feature's frame that a packet carries past the kernel: the INC feature's {@code IncFrame} (core.inc) is the
     * one there is. The kernel asks it the two things a link needs to know and names no feature type.
     */
    public interface Extension {

      /**
       * True when the frame carries a task's data, which the receiving device copies or reduces, and which injected
       * loss may hit (an INC task fragment); false for a control frame.
       */
      boolean carriesTaskData();

      /** The same frame marked as a retransmission (a task fragment's frame). */
      Extension asRetransmission();
    }

    /** An ordinary or INC packet (no acknowledgement, not corrupted, a first send). */
    public Packet(int sourceHost, int destinationHost, long messageId, int segmentIndex, int segmentCount,
                  int wireBytes, long tailTimePs, MessageInfo info, int elementOffset, DataBuffer slice,
                  Extension extension) {
      this(sourceHost, destinationHost, messageId, segmentIndex, segmentCount, wireBytes, tailTimePs, info,
          elementOffset, slice, extension, false, false, 0);
    }

    @Override
    public <C> void handleWith(PayloadHandlers<C> handlers, C context) {
      handlers.link(this).onPacket(this, context);
    }

    /** A builder with every component 0 or null (an ordinary packet unless {@link Builder#extension} is set). */
    public static Builder builder() {
      return new Builder();
    }

    /** A builder holding every component of this packet, to build a copy with some of them changed. */
    public Builder toBuilder() {
      return new Builder().sourceHost(sourceHost).destinationHost(destinationHost).messageId(messageId)
          .segmentIndex(segmentIndex).segmentCount(segmentCount).wireBytes(wireBytes).tailTimePs(tailTimePs)
          .info(info).elementOffset(elementOffset).slice(slice).extension(extension).ack(ack).corrupted(corrupted)
          .transmission(transmission);
    }

    @Override
    public long dataBytes() {
      return slice == null ? 0L : slice.sizeBytes();
    }

    /**
     * Task data ({@link #carriesTaskData}: the INC feature's task fragments) is aggregated or merged where it arrives;
     * an ordinary slice is passed on.
     */
    @Override
    public long dataWorkBytes() {
      return carriesTaskData() ? dataBytes() : 0L;
    }

    /** Same packet, arriving at the next device at a new tail time. */
    public Packet withTailTimePs(long newTailTimePs) {
      return new Packet(sourceHost, destinationHost, messageId, segmentIndex, segmentCount, wireBytes,
          newTailTimePs, info, elementOffset, slice, extension, ack, corrupted, transmission);
    }

    /** The same packet with bits flipped on a lossy link: its checksum fails. */
    public Packet asCorrupted() {
      return new Packet(sourceHost, destinationHost, messageId, segmentIndex, segmentCount, wireBytes, tailTimePs,
          info, elementOffset, slice, extension, ack, true, transmission);
    }

    /**
     * The same packet with its extension marked as a retransmission ({@link Extension#asRetransmission}): with INC, a
     * task packet with its Header2's retransmission flag set (a streamed chunk keeps its header).
     */
    public Packet asRetransmission() {
      return new Packet(sourceHost, destinationHost, messageId, segmentIndex, segmentCount, wireBytes, tailTimePs,
          info, elementOffset, slice, extension.asRetransmission(), ack, corrupted, transmission);
    }

    /**
     * True when the packet's extension carries a task's data ({@link Extension#carriesTaskData}), which injected loss
     * may hit: with INC, a packet of an aggregation task (TASK_UP or TASK_DOWN).
     */
    public boolean carriesTaskData() {
      return extension != null && extension.carriesTaskData();
    }

    /**
     * Names the components of a {@link Packet}, one setter each (named as the component, see the record for their
     * meaning); a component never set is 0 or null. Not thread-safe; {@link #build()} may be called more than once.
     */
    public static final class Builder {
      private int sourceHost;
      private int destinationHost;
      private long messageId;
      private int segmentIndex;
      private int segmentCount;
      private int wireBytes;
      private long tailTimePs;
      private MessageInfo info;
      private int elementOffset;
      private DataBuffer slice;
      private Extension extension;
      private boolean ack;
      private boolean corrupted;
      private int transmission;

      private Builder() {}

      /** Sets {@link Packet#sourceHost()}. */
      public Builder sourceHost(int sourceHost) {
        this.sourceHost = sourceHost;
        return this;
      }

      /** Sets {@link Packet#destinationHost()}. */
      public Builder destinationHost(int destinationHost) {
        this.destinationHost = destinationHost;
        return this;
      }

      /** Sets {@link Packet#messageId()}. */
      public Builder messageId(long messageId) {
        this.messageId = messageId;
        return this;
      }

      /** Sets {@link Packet#segmentIndex()}. */
      public Builder segmentIndex(int segmentIndex) {
        this.segmentIndex = segmentIndex;
        return this;
      }

      /** Sets {@link Packet#segmentCount()}. */
      public Builder segmentCount(int segmentCount) {
        this.segmentCount = segmentCount;
        return this;
      }

      /** Sets {@link Packet#wireBytes()}. */
      public Builder wireBytes(int wireBytes) {
        this.wireBytes = wireBytes;
        return this;
      }

      /** Sets {@link Packet#tailTimePs()}. */
      public Builder tailTimePs(long tailTimePs) {
        this.tailTimePs = tailTimePs;
        return this;
      }

      /** Sets {@link Packet#info()}. */
      public Builder info(MessageInfo info) {
        this.info = info;
        return this;
      }

      /** Sets {@link Packet#elementOffset()}. */
      public Builder elementOffset(int elementOffset) {
        this.elementOffset = elementOffset;
        return this;
      }

      /** Sets {@link Packet#slice()}. */
      public Builder slice(DataBuffer slice) {
        this.slice = slice;
        return this;
      }

      /** Sets {@link Packet#extension()}: null (the default) for an ordinary packet. */
      public Builder extension(Extension extension) {
        this.extension = extension;
        return this;
      }

      /** Sets {@link Packet#ack()}. */
      public Builder ack(boolean ack) {
        this.ack = ack;
        return this;
      }

      /** Sets {@link Packet#corrupted()}. */
      public Builder corrupted(boolean corrupted) {
        this.corrupted = corrupted;
        return this;
      }

      /** Sets {@link Packet#transmission()}. */
      public Builder transmission(int transmission) {
        this.transmission = transmission;
        return this;
      }

      /** A packet of the components set so far, through the canonical constructor. */
      public Packet build() {
        return new Packet(sourceHost, destinationHost, messageId, segmentIndex, segmentCount, wireBytes, tailTimePs,
            info, elementOffset, slice, extension, ack, corrupted, transmission);
      }
    }
  }

  /**
   * NIC to itself: the retransmission timer of an INC task (the INC patent's fragments are kept until their result is
   * in). It fires {@code retransmitTimeoutPs} after the task's fragments were last sent; a timer whose task has
   * completed, or was re-armed since ({@code serial} differs), is ignored.
   *
   * @param leaderRank the rank whose contribution the task is (a host may run several leaders of one group)
   * @param taskId     the task (group and req_id, see {@code IncCodes#taskId})
   * @param serial     the NIC's number of this arming of the task's timer
   */
  public record IncRetransmitTimer(int leaderRank, long taskId, long serial) implements RetransmitPayload {
    @Override
    public <C> void handleWith(PayloadHandlers<C> handlers, C context) {
      handlers.retransmit(this).onIncRetransmitTimer(this, context);
    }
  }
  /**
   * A packet crossing a router network (mesh, torus, group-ring), which moves it as flits: the facts every flit of
   * it shares. Traffic packets of a synthetic workload carry nothing else; a packet that carries a NIC's segment
   * ({@link #carried}) is delivered to the destination NIC when its tail flit is ejected.
   *
   * @param packetId        unique per source NIC: the NIC's count of packets it created
   * @param sourceHost      host whose NIC injected it
   * @param destinationHost host whose NIC ejects it
   * @param flitCount       flits in the packet, at least 1 (a 1-flit packet's flit is head and tail)
   * @param createdPs       when the packet was created at its source (before any source queueing): latency is
   *                        measured from here to the tail's ejection, as cycle-accurate simulators measure it
   * @param measured        whether the packet was created inside the measurement window of a traffic workload
   * @param carried         the NIC segment it carries; null for synthetic traffic
   * @param viaHost         a detour's via node (the router patent's): the packet goes by dimension order to this
   *                        host's router, then by dimension order to its destination, each leg in a virtual-channel
   *                        class set of its own; -1 for the direct route (every packet of a run without faults)
   * @param ethernet        the Ethernet frame it carries (a datagram: no segment, no acknowledgement); null otherwise
   */
  public record RoutedPacket(long packetId, int sourceHost, int destinationHost, int flitCount, long createdPs,
                             boolean measured, Packet carried, int viaHost, EthernetCarriage ethernet) {
    /** A packet that carries no Ethernet frame. */
    public RoutedPacket(long packetId, int sourceHost, int destinationHost, int flitCount, long createdPs,
                        boolean measured, Packet carried, int viaHost) {
      this(packetId, sourceHost, destinationHost, flitCount, createdPs, measured, carried, viaHost, null);
    }

    /** A packet on the direct route. */
    public RoutedPacket(long packetId, int sourceHost, int destinationHost, int flitCount, long createdPs,
                        boolean measured, Packet carried) {
      this(packetId, sourceHost, destinationHost, flitCount, createdPs, measured, carried, -1);
    }
  }

  /**
   * An Ethernet frame inside a router network packet (the patent's figure 8). Outbound, from a node's NIC to its I/O
   * node's Ethernet NIC, it carries the send command: the source node and the detour from the I/O node back to it
   * (external=>internal), which the I/O NIC registers in its address table. Inbound, from the I/O NIC to a node (or,
   * broadcast, to every node), it carries the frame alone.
   *
   * @param frame      the frame's bytes (FCS included)
   * @param sourceNode the node that sent it (outbound); the I/O node (inbound)
   * @param detourVia  outbound: the via node from the I/O node to {@code sourceNode} ({@code DetourTable.DIRECT}
   *                   for the direct route); inbound: -1
   * @param outbound   toward the external Ethernet (to the I/O NIC), else from it (to a node)
   */
  public record EthernetCarriage(byte[] frame, int sourceNode, int detourVia, boolean outbound) {}

  /**
   * A frame on the cable between an I/O node's Ethernet NIC and the external Ethernet, due when its last bit arrives:
   * at the NIC, a frame from the Ethernet (inbound); at the external device, one from the NIC of {@code ioHost}.
   *
   * @param ioHost the I/O node whose cable it crossed
   * @param frame  the frame's bytes as they arrived (a corrupted one fails its FCS)
   */
  public record CableFrame(int ioHost, byte[] frame) implements EthernetPayload {
    @Override
    public <C> void handleWith(PayloadHandlers<C> handlers, C context) {
      handlers.ethernet(this).onCableFrame(this, context);
    }
  }

  /**
   * A device to itself: its Ethernet traffic source's frame (or round of frames) {@code round} is due: a node's NIC
   * sends its frame {@code round}, the external device each external host's.
   */
  public record EthernetTimer(int round) implements EthernetPayload {
    @Override
    public <C> void handleWith(PayloadHandlers<C> handlers, C context) {
      handlers.ethernet(this).onEthernetTimer(this, context);
    }
  }

  /**
   * The management node to the NICs and the external Ethernet: from now on the Ethernet NICs of
   * {@code enabledIoHosts} are enabled, every other one disabled (the patent's enable/disable register).
   * {@code causeEventId} is the fault event whose notice made the change.
   */
  public record EthernetControl(List<Integer> enabledIoHosts, int causeEventId) implements EthernetPayload {
    public EthernetControl {
      enabledIoHosts = List.copyOf(enabledIoHosts);
    }

    @Override
    public <C> void handleWith(PayloadHandlers<C> handlers, C context) {
      handlers.ethernet(this).onEthernetControl(this, context);
    }
  }

  /**
   * One flit on a channel of a router network: from a NIC to its router (injection), between routers, or from a
   * router to its NIC (ejection). The receiver takes it into input port {@code inputPort}'s virtual channel
   * {@code vc} and, when the flit leaves that buffer, returns a {@link Credit} to the sender.
   *
   * @param packet    the packet it belongs to; every flit of a packet refers to the same facts (a flit that
   *                  crossed members carries a copy, so compare packets by source and id, never by identity)
   * @param flitIndex 0 for the head, {@code packet.flitCount() - 1} for the tail
   * @param inputPort the receiver's port the flit arrives on (the port of the reverse link at the receiver)
   * @param vc        the virtual channel it occupies at the receiver's input
   * @param hops      router-to-router channels the packet crossed before this one arrived (0 on injection)
   * @param cutByEvent -1 for a flit of a whole packet; else the fault event that cut the packet's worm (its later
   *                   flits were lost): this flit closes the worm as its tail, and the packet is lost where it ends
   */
  public record Flit(RoutedPacket packet, int flitIndex, int inputPort, int vc, int hops, int cutByEvent)
      implements RouterPayload {
    /** A flit of a whole packet. */
    public Flit(RoutedPacket packet, int flitIndex, int inputPort, int vc, int hops) {
      this(packet, flitIndex, inputPort, vc, hops, -1);
    }

    public boolean isHead() {
      return flitIndex == 0;
    }

    /** The packet's last flit, or the one that closes a worm cut by a fault. */
    public boolean isTail() {
      return flitIndex == packet.flitCount() - 1 || cutByEvent >= 0;
    }

    /** Whether this flit closes a worm whose later flits a fault lost. */
    public boolean isCut() {
      return cutByEvent >= 0;
    }

    /** This flit as the closing flit of a worm cut by event {@code eventId}. */
    public Flit cutBy(int eventId) {
      return new Flit(packet, flitIndex, inputPort, vc, hops, eventId);
    }

    /** Only the tail flit counts its packet's segment data, so a packet's data is counted once. */
    @Override
    public long dataBytes() {
      return isTail() && !isCut() && packet.carried() != null ? packet.carried().dataBytes() : 0L;
    }

    @Override
    public <C> void handleWith(PayloadHandlers<C> handlers, C context) {
      handlers.router(this).onFlit(this, context);
    }
  }

  /**
   * Credit-based flow control: one buffer slot of virtual channel {@code vc} at the far end of the receiver's
   * output port {@code outputPort} was freed (a flit left it), so the receiver may send one more flit on it.
   * {@code tail} says the flit that left was a packet's tail; the sender freed its virtual channel for a new packet
   * when it sent that tail (BookSim's default), so today nothing waits for it: it is there for a router that waits
   * for the tail's credit before reusing a channel (BookSim's {@code wait_for_tail_credit}).
   */
  public record Credit(int outputPort, int vc, boolean tail) implements RouterPayload {
    @Override
    public <C> void handleWith(PayloadHandlers<C> handlers, C context) {
      handlers.router(this).onCredit(this, context);
    }
  }

  /**
   * A router's (or a router network NIC's) event to itself: evaluate the clock cycle the event falls in (it is due
   * in the middle of that cycle, after every flit and credit arriving at the cycle's start; see {@code
   * RouterTiming}). A device schedules one only while it has work, so an idle network costs no events.
   */
  public enum RouterCycle implements RouterPayload {
    INSTANCE;

    @Override
    public <C> void handleWith(PayloadHandlers<C> handlers, C context) {
      handlers.router(this).onRouterCycle(this, context);
    }
  }

  /**
   * The fault plan to a device, at the event's time: the device applies what the event does to it (a link of its,
   * or itself, goes down or up; its links degrade or get lossy; its processes straggle). A neighbour of what went
   * down or up also starts noticing it (see {@link FaultDetected}). Injected by the run, as {@link StartWorkload} is.
   */
  public record FaultCommand(Order event) implements FaultPayload {

    /**
     * What a command orders, carried past the kernel: the fault feature's {@code FaultEvent} (core.fault), which its
     * devices read back with {@code FaultEvent.of(command)}. A marker, so that the kernel names no feature type.
     */
    public interface Order {}
    @Override
    public <C> void handleWith(PayloadHandlers<C> handlers, C context) {
      handlers.fault(this).onFaultCommand(this, context);
    }
  }

  /**
   * The OCS controller to an NPU's NIC (docs/optical.md, "The OCS controller"): the circuit from this NPU to host
   * {@code peerHost} is up now. The controller started it at {@code requestedAtPs} and sends this at the time it
   * comes up; until then the NIC's port toward {@code peerHost} holds what it is handed, and now sends it.
   */
  public record CircuitUp(int peerHost, long requestedAtPs) implements CircuitPayload {
    @Override
    public <C> void handleWith(PayloadHandlers<C> handlers, C context) {
      handlers.circuit(this).onCircuitUp(this, context);
    }
  }

  /**
   * The OCS controller to an NPU's NIC (docs/optical.md, "The OCS controller"): a connection-policy change at
   * {@code atPs} (now) tears down the circuit from this NPU to host {@code peerHost}, which the new policy lacks. The
   * port toward {@code peerHost} still sends what is queued on it (it drains) and then carries nothing more: from now
   * on it holds what it is handed, as before a {@link CircuitUp}.
   */
  public record CircuitDown(int peerHost, long atPs) implements CircuitPayload {
    @Override
    public <C> void handleWith(PayloadHandlers<C> handlers, C context) {
      handlers.circuit(this).onCircuitDown(this, context);
    }
  }

  /**
   * A device to itself: the heartbeats of a neighbour or link have been missing (or are back) long enough to declare
   * event {@code eventId}'s change; if the change still holds, the device reports it to the management node.
   */
  public record FaultDetected(int eventId) implements FaultPayload {
    @Override
    public <C> void handleWith(PayloadHandlers<C> handlers, C context) {
      handlers.fault(this).onFaultDetected(this, context);
    }
  }

  /**
   * A device to the management node: it noticed event {@code eventId}'s change (a neighbour or link down, or up
   * again) at {@code detectedPs}.
   */
  public record FailureNotice(int eventId, int reporterDevice, long detectedPs) implements ManagementPayload {
    @Override
    public <C> void handleWith(PayloadHandlers<C> handlers, C context) {
      handlers.management(this).onFailureNotice(this, context);
    }
  }

  /**
   * The management node to a switch or NIC: route from now on around {@code deadLinks} (every link the management
   * node knows to be down; empty: the fabric as built). {@code version} counts the management node's views;
   * {@code causeEventId} is the event whose notice made this one.
   */
  public record RouteUpdate(int version, List<DirectedLink> deadLinks, int causeEventId) implements FaultPayload {
    public RouteUpdate {
      deadLinks = List.copyOf(deadLinks);
    }

    @Override
    public <C> void handleWith(PayloadHandlers<C> handlers, C context) {
      handlers.fault(this).onRouteUpdate(this, context);
    }
  }

  /**
   * A NIC to itself: the retransmission timer of its message {@code sequence} to {@code destinationHost}. Ignored
   * when the message was acknowledged or the timer re-armed since ({@code serial} differs).
   */
  public record TransportTimer(int destinationHost, long sequence, long serial) implements RetransmitPayload {
    @Override
    public <C> void handleWith(PayloadHandlers<C> handlers, C context) {
      handlers.retransmit(this).onTransportTimer(this, context);
    }
  }
}
