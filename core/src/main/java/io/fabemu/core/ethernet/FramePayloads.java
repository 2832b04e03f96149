package io.fabemu.core.ethernet;

import java.util.SplittableRandom;

/**
 * The payload bytes of the emulator's frames, a function of (source MAC, sequence, length, seed), so that a receiver
 * checks every byte it got: bytes 0-7 hold the sequence, 8-9 the length (big-endian), the rest come from a random
 * stream seeded by the scenario seed, the source MAC and the sequence. A frame's padding (after {@code length}
 * bytes) must be zeros.
 */
public final class FramePayloads {
  /** The shortest payload: the sequence and the length. */
  public static final int MIN_BYTES = 10;

  private FramePayloads() {}

  /** The payload of frame {@code sequence} from {@code sourceMac}, {@code length} bytes. */
  public static byte[] of(long sourceMac, long sequence, int length, long seed) {
    if (length < MIN_BYTES || length > EthernetFrame.MAX_PAYLOAD_BYTES) {
      throw new IllegalArgumentException("a frame payload has " + MIN_BYTES + ".." + EthernetFrame.MAX_PAYLOAD_BYTES
          + " bytes, got " + length);
    }
    byte[] out = new byte[length];
    for (int i = 0; i < 8; i++) out[i] = (byte) (sequence >>> (8 * (7 - i)));
    out[8] = (byte) (length >>> 8);
    out[9] = (byte) length;
    SplittableRandom random = stream(sourceMac, sequence, seed);
    for (int i = MIN_BYTES; i < length; i++) out[i] = (byte) random.nextInt(256);
    return out;
  }

  /**
   * Whether {@code payload} (as decoded, padding included) is exactly what {@code sourceMac} sent as the frame whose
   * sequence it names.
   */
  public static boolean verify(long sourceMac, byte[] payload, long seed) {
    if (payload.length < MIN_BYTES) return false;
    long sequence = 0;
    for (int i = 0; i < 8; i++) sequence = (sequence << 8) | (payload[i] & 0xFF);
    int length = ((payload[8] & 0xFF) << 8) | (payload[9] & 0xFF);
    if (length < MIN_BYTES || length > payload.length) return false;
    SplittableRandom random = stream(sourceMac, sequence, seed);
    for (int i = MIN_BYTES; i < length; i++) {
      if (payload[i] != (byte) random.nextInt(256)) return false;
    }
    for (int i = length; i < payload.length; i++) {
      if (payload[i] != 0) return false;
    }
    return true;
  }

  /** The sequence a payload names (bytes 0-7); -1 when it is too short to name one. */
  public static long sequenceOf(byte[] payload) {
    if (payload.length < MIN_BYTES) return -1;
    long sequence = 0;
    for (int i = 0; i < 8; i++) sequence = (sequence << 8) | (payload[i] & 0xFF);
    return sequence;
  }

  private static SplittableRandom stream(long sourceMac, long sequence, long seed) {
    return new SplittableRandom(seed ^ (sourceMac * 0x9E3779B97F4A7C15L) ^ (sequence * 0xC2B2AE3D27D4EB4FL));
  }
}
