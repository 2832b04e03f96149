package io.fabemu.collectives;

import io.fabemu.core.time.Units;

/**
 * What one protocol costs a rank beyond its framing on the wire ({@link LineProtocol#framing}): a latency every
 * message waits before it leaves (the engine goes on meanwhile), and the payload rate at which one engine (a channel's
 * SMs) can send by it, which holds the engine. In a GPU profile both are fitted, as NCCL's tuner keeps per protocol
 * a latency per hop and a bandwidth of its own.
 *
 * @param latencyPs     what the protocol adds to every message's departure, at least 0
 * @param bitsPerSecond the payload rate of one engine sending by the protocol; 0: no limit (the engine's time is
 *                      the send overhead alone)
 */
public record ProtocolCost(long latencyPs, long bitsPerSecond) {

  /** Nothing: no latency, no limit (the model without protocols). */
  public static final ProtocolCost NONE = new ProtocolCost(0, 0);

  public ProtocolCost {
    if (latencyPs < 0 || bitsPerSecond < 0) {
      throw new IllegalArgumentException("a protocol's latency and rate must not be negative, got " + latencyPs
          + " ps and " + bitsPerSecond + " bit/s");
    }
  }

  /** The engine time to send {@code payloadBytes} by the protocol, rounded up: 0 without a limit. */
  public long enginePs(long payloadBytes) {
    return Units.transferPs(payloadBytes, bitsPerSecond);
  }
}
