package io.fabemu.core.ethernet;

import java.util.Arrays;
import java.util.zip.CRC32;

/**
 * An Ethernet II frame as it crosses the cable between an I/O node's Ethernet NIC and the external Ethernet:
 * destination MAC (6 bytes), source MAC (6), EtherType (2, big-endian), payload padded with zeros to the 46-byte
 * minimum, FCS (4: the CRC-32 of everything before it, least significant byte first, as IEEE 802.3 sends it). The
 * preamble and inter-frame gap are not part of the bytes (the cable's timing adds them).
 *
 * <p>{@link #encode} and {@link #decode} are exact inverses for every payload of at least 46 bytes; a shorter
 * payload comes back with its padding. Decoding refuses, with an {@link EthernetFormatException} naming what is
 * wrong, anything shorter than the 64-byte minimum frame, longer than {@link #MAX_FRAME_BYTES}, or whose FCS does
 * not match (a corrupted frame).
 *
 * @param destination destination MAC (48 bits)
 * @param source      source MAC (48 bits)
 * @param etherType   EtherType, 0..0xFFFF (at least 0x0600: below, the field would be an 802.3 length)
 * @param payload     the payload as sent (not copied: callers do not change it)
 */
public record EthernetFrame(long destination, long source, int etherType, byte[] payload) {
  /** The EtherType of the emulator's frames: IEEE 802 local experimental EtherType 1. */
  public static final int ETHER_TYPE = 0x88B5;
  /** Header bytes: two MACs and the EtherType. */
  public static final int HEADER_BYTES = 2 * MacAddress.BYTES + 2;
  /** FCS bytes. */
  public static final int FCS_BYTES = 4;
  /** The smallest payload on the wire (shorter ones are padded). */
  public static final int MIN_PAYLOAD_BYTES = 46;
  /** The largest payload of a standard (untagged) frame. */
  public static final int MAX_PAYLOAD_BYTES = 1500;
  /** The smallest frame, 64 bytes. */
  public static final int MIN_FRAME_BYTES = HEADER_BYTES + MIN_PAYLOAD_BYTES + FCS_BYTES;
  /** The largest frame, 1518 bytes. */
  public static final int MAX_FRAME_BYTES = HEADER_BYTES + MAX_PAYLOAD_BYTES + FCS_BYTES;
  private static final long MAC_MASK = (1L << 48) - 1;

  /**
   * @throws IllegalArgumentException when a MAC does not fit 48 bits, the EtherType is out of range or the payload
   *                                  is null or longer than {@link #MAX_PAYLOAD_BYTES}
   */
  public EthernetFrame {
    if ((destination & ~MAC_MASK) != 0 || (source & ~MAC_MASK) != 0) {
      throw new IllegalArgumentException("a MAC address has 48 bits: " + Long.toHexString(destination) + ", "
          + Long.toHexString(source));
    }
    if (etherType < 0x0600 || etherType > 0xFFFF) {
      throw new IllegalArgumentException("EtherType must be in 0x0600..0xffff, got 0x"
          + Integer.toHexString(etherType));
    }
    if (payload == null || payload.length > MAX_PAYLOAD_BYTES) {
      throw new IllegalArgumentException("payload must be 0.." + MAX_PAYLOAD_BYTES + " bytes, got "
          + (payload == null ? "null" : payload.length));
    }
  }

  /** Bytes on the wire of a frame with {@code payloadBytes} of payload (padding and FCS included). */
  public static int wireBytes(int payloadBytes) {
    return HEADER_BYTES + Math.max(MIN_PAYLOAD_BYTES, payloadBytes) + FCS_BYTES;
  }

  /** The frame's bytes, padded, with its FCS. */
  public byte[] encode() {
    byte[] out = new byte[wireBytes(payload.length)];
    putMac(out, 0, destination);
    putMac(out, MacAddress.BYTES, source);
    out[12] = (byte) (etherType >>> 8);
    out[13] = (byte) etherType;
    System.arraycopy(payload, 0, out, HEADER_BYTES, payload.length);
    int fcsAt = out.length - FCS_BYTES;
    long crc = crc(out, fcsAt);
    for (int i = 0; i < FCS_BYTES; i++) out[fcsAt + i] = (byte) (crc >>> (8 * i));
    return out;
  }

  /**
   * The frame in {@code bytes}; its payload includes any padding.
   *
   * @throws EthernetFormatException when {@code bytes} is null, shorter than 64 or longer than 1518 bytes, its FCS
   *                                 does not match, or its EtherType is below 0x0600 (an 802.3 length field)
   */
  public static EthernetFrame decode(byte[] bytes) {
    checkLength(bytes);
    if (!fcsMatches(bytes)) {
      throw new EthernetFormatException("frame of " + bytes.length + " bytes: FCS " + hex(storedFcs(bytes))
          + " does not match its CRC-32 " + hex(crc(bytes, bytes.length - FCS_BYTES)));
    }
    int etherType = ((bytes[12] & 0xFF) << 8) | (bytes[13] & 0xFF);
    if (etherType < 0x0600) {
      throw new EthernetFormatException("frame of " + bytes.length + " bytes: EtherType 0x"
          + Integer.toHexString(etherType) + " is an 802.3 length, not an Ethernet II type");
    }
    return new EthernetFrame(mac(bytes, 0), mac(bytes, MacAddress.BYTES), etherType,
        Arrays.copyOfRange(bytes, HEADER_BYTES, bytes.length - FCS_BYTES));
  }

  /**
   * Whether {@code bytes} has a frame's length and its FCS matches (the receive check of the patent's figure 13).
   *
   * @throws EthernetFormatException when {@code bytes} is null or not a frame's length
   */
  public static boolean fcsMatches(byte[] bytes) {
    checkLength(bytes);
    return storedFcs(bytes) == crc(bytes, bytes.length - FCS_BYTES);
  }

  /**
   * The destination MAC of frame {@code bytes}, read without checking its FCS (what a switch reads first).
   *
   * @throws EthernetFormatException when {@code bytes} is null or not a frame's length
   */
  public static long destinationOf(byte[] bytes) {
    checkLength(bytes);
    return mac(bytes, 0);
  }

  private static void checkLength(byte[] bytes) {
    if (bytes == null) throw new EthernetFormatException("no frame (null)");
    if (bytes.length < MIN_FRAME_BYTES || bytes.length > MAX_FRAME_BYTES) {
      throw new EthernetFormatException("a frame has " + MIN_FRAME_BYTES + ".." + MAX_FRAME_BYTES + " bytes, got "
          + bytes.length);
    }
  }

  private static long storedFcs(byte[] bytes) {
    int at = bytes.length - FCS_BYTES;
    long fcs = 0;
    for (int i = 0; i < FCS_BYTES; i++) fcs |= (bytes[at + i] & 0xFFL) << (8 * i);
    return fcs;
  }

  private static long crc(byte[] bytes, int length) {
    CRC32 crc = new CRC32();
    crc.update(bytes, 0, length);
    return crc.getValue();
  }

  private static void putMac(byte[] out, int at, long mac) {
    for (int i = 0; i < MacAddress.BYTES; i++) out[at + i] = (byte) (mac >>> (8 * (MacAddress.BYTES - 1 - i)));
  }

  private static long mac(byte[] bytes, int at) {
    long mac = 0;
    for (int i = 0; i < MacAddress.BYTES; i++) mac = (mac << 8) | (bytes[at + i] & 0xFF);
    return mac;
  }

  private static String hex(long value) {
    return String.format("0x%08x", value);
  }

  // A record compares arrays by identity; frames are values.
  @Override
  public boolean equals(Object o) {
    return o instanceof EthernetFrame f && destination == f.destination && source == f.source
        && etherType == f.etherType && Arrays.equals(payload, f.payload);
  }

  @Override
  public int hashCode() {
    return 31 * (31 * (31 * Long.hashCode(destination) + Long.hashCode(source)) + etherType)
        + Arrays.hashCode(payload);
  }

  @Override
  public String toString() {
    return "EthernetFrame[" + MacAddress.format(source) + " -> " + MacAddress.format(destination) + ", type 0x"
        + Integer.toHexString(etherType) + ", " + payload.length + " B]";
  }
}
