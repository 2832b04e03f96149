package io.fabemu.core.ethernet;

/** Bytes that are not an Ethernet II frame the codec accepts; the message says what is wrong and where. */
public final class EthernetFormatException extends IllegalArgumentException {
  private static final long serialVersionUID = 1L;

  public EthernetFormatException(String message) {
    super(message);
  }
}
