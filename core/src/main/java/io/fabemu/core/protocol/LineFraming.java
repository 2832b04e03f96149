package io.fabemu.core.protocol;

/**
 * How the protocol that sent a message frames its payload on the wire: in lines of {@code lineBytes}, each carrying
 * {@code payloadBytesPerLine} bytes of payload and the rest flags the receiver polls (NCCL's LL protocol: 8 of every
 * 16 bytes; LL128: 120 of every 128). It rides with an ordinary message as its {@link Message.Extension}; a NIC
 * whose framing is claimed sends each segment as {@link #wireBytes} of the segment's payload (plus its header), so
 * the flags take link time and host-bus time like the payload. A message without one is sent as its payload.
 *
 * @param protocol            the protocol's name, for messages (e.g. "ll128")
 * @param lineBytes           bytes of a line on the wire, payload and flags
 * @param payloadBytesPerLine payload bytes of a line, at least 1 and at most {@code lineBytes}
 */
public record LineFraming(String protocol, int lineBytes, int payloadBytesPerLine) implements Message.Extension {

  public LineFraming {
    if (payloadBytesPerLine < 1 || lineBytes < payloadBytesPerLine) {
      throw new IllegalArgumentException("protocol " + protocol + ": lines of " + lineBytes + " B with "
          + payloadBytesPerLine + " B of payload: a line carries at least 1 B of payload and no more than its size");
    }
  }

  /** Bytes on the wire of {@code payloadBytes} of payload: whole lines, the last one padded. */
  public long wireBytes(long payloadBytes) {
    return (payloadBytes + payloadBytesPerLine - 1) / payloadBytesPerLine * lineBytes;
  }

  /** The framing {@code message} carries; null when it carries none (an ordinary or an INC message). */
  public static LineFraming of(Message message) {
    return message.extension() instanceof LineFraming framing ? framing : null;
  }
}
