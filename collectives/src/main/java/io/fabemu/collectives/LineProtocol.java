package io.fabemu.collectives;

import io.fabemu.core.protocol.LineFraming;
import java.util.Arrays;
import java.util.List;

/**
 * NCCL's protocols, as costs of their own ({@link ProtocolSpec}): how a message's payload is framed on the wire and,
 * in the profile, the latency each adds to a step.
 *
 * <ul>
 *   <li>{@link #SIMPLE}: the payload as it is, a step's data and then a flag behind a memory fence: full bandwidth,
 *       the highest latency per step;</li>
 *   <li>{@link #LL} (low latency): 8 bytes of data and an 8-byte flag per 16-byte line, so the receiver polls the
 *       data itself: half the bandwidth, the lowest latency;</li>
 *   <li>{@link #LL128}: 128-byte lines of 120 bytes of payload and an 8-byte flag, which needs NVLink's ordered
 *       stores: nearly full bandwidth at a latency between the two.</li>
 * </ul>
 */
public enum LineProtocol {
  SIMPLE("simple", null),
  LL("ll", new LineFraming("ll", 16, 8)),
  LL128("ll128", new LineFraming("ll128", 128, 120));

  private final String configName;
  private final LineFraming framing;

  LineProtocol(String configName, LineFraming framing) {
    this.configName = configName;
    this.framing = framing;
  }

  /** The name in a scenario ({@code workload.protocol}) and in results. */
  public String configName() {
    return configName;
  }

  /** How the protocol frames a message's payload on the wire; null for {@link #SIMPLE}, which sends it as it is. */
  public LineFraming framing() {
    return framing;
  }

  /** Bytes on the wire of {@code payloadBytes} of payload sent by this protocol. */
  public long wireBytes(long payloadBytes) {
    return framing == null ? payloadBytes : framing.wireBytes(payloadBytes);
  }

  /** The protocol named {@code name}; null when none is. */
  public static LineProtocol fromConfigName(String name) {
    for (LineProtocol p : values()) {
      if (p.configName.equals(name)) return p;
    }
    return null;
  }

  /** Every protocol's name, in declaration order. */
  public static List<String> configNames() {
    return Arrays.stream(values()).map(LineProtocol::configName).toList();
  }
}
