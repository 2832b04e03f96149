package io.fabemu.core.ethernet;

import java.util.List;

/**
 * A scenario's I/O nodes and external Ethernet (the {@code ethernet} section; router networks only).
 *
 * @param ioNodes              hosts whose router carries an Ethernet NIC, ascending, distinct
 * @param standby              those of {@code ioNodes} whose Ethernet NIC starts disabled, ascending
 * @param rateBitsPerSecond    each Ethernet NIC's cable to the external Ethernet
 * @param latencyPs            that cable's latency
 * @param externalHosts        hosts on the Ethernet side, at least 1
 * @param corruptProbability   probability that a frame from the Ethernet arrives with a bad FCS, in [0, 1)
 * @param inboundFrames        frames each external host sends
 * @param outboundFrames       frames each node sends to the external hosts
 * @param unknownMacEvery      every this-th inbound frame of a host goes to an unknown MAC; 0: none
 * @param frameBytes           payload bytes of every frame
 * @param intervalPs           time between a source's frames
 * @param startPs              when the sources send their first frame
 */
public record EthernetSpec(List<Integer> ioNodes, List<Integer> standby, long rateBitsPerSecond, long latencyPs,
                           int externalHosts, double corruptProbability, int inboundFrames, int outboundFrames,
                           int unknownMacEvery, int frameBytes, long intervalPs, long startPs) {
  /**
   * Bytes a frame occupies on the cable besides its own: preamble and start delimiter (8) and the inter-frame gap
   * (12).
   */
  public static final int WIRE_OVERHEAD_BYTES = 20;

  /** @throws IllegalArgumentException when a value is out of its range or standby is not among the I/O nodes */
  public EthernetSpec {
    ioNodes = List.copyOf(ioNodes);
    standby = List.copyOf(standby);
    if (ioNodes.isEmpty()) throw new IllegalArgumentException("ethernet needs at least one I/O node");
    if (!ioNodes.containsAll(standby)) {
      throw new IllegalArgumentException("standby I/O nodes " + standby + " must be among " + ioNodes);
    }
    if (rateBitsPerSecond <= 0 || latencyPs <= 0 || externalHosts < 1 || inboundFrames < 0 || outboundFrames < 0
        || unknownMacEvery < 0 || intervalPs <= 0 || startPs < 0 || !(corruptProbability >= 0)
        || !(corruptProbability < 1) || frameBytes < FramePayloads.MIN_BYTES
        || frameBytes > EthernetFrame.MAX_PAYLOAD_BYTES) {
      throw new IllegalArgumentException("ethernet settings out of range: " + this);
    }
  }

  /** The I/O nodes whose Ethernet NIC starts enabled, ascending. */
  public List<Integer> initiallyEnabled() {
    return ioNodes.stream().filter(h -> !standby.contains(h)).toList();
  }

  /** Picoseconds frame {@code wireBytes} holds its cable (its bits plus preamble and gap), rounded up. */
  public long serializationPs(int wireBytes) {
    long bits = 8L * (wireBytes + WIRE_OVERHEAD_BYTES);
    return (bits * 1_000_000_000_000L + rateBitsPerSecond - 1) / rateBitsPerSecond;
  }
}
