package io.fabemu.core.ethernet;

import java.util.Locale;

/**
 * The emulator's MAC addresses, as 48-bit values in a {@code long}, all locally administered (first octet 02):
 * node {@code h} is {@code 02:00:00:00:00:00 + h}, external host {@code e} is {@code 02:00:00:01:00:00 + e}, and
 * the addresses no device owns ("unknown", which an I/O node's Ethernet NIC broadcasts) are
 * {@code 02:00:00:02:xx:xx}. Each block holds 65,536 addresses.
 */
public final class MacAddress {
  /** Bytes of a MAC address on the wire. */
  public static final int BYTES = 6;
  private static final long NODE_BASE = 0x02_00_00_00_00_00L;
  private static final long EXTERNAL_BASE = 0x02_00_00_01_00_00L;
  private static final long UNKNOWN_BASE = 0x02_00_00_02_00_00L;
  private static final long BLOCK = 1L << 16;
  /** How many nodes (and external hosts) have a MAC: one block of addresses each. */
  public static final int NUMBERED = (int) BLOCK;

  private MacAddress() {}

  /** Node (host) {@code h}'s MAC. */
  public static long ofNode(int h) {
    return NODE_BASE + checkedIndex(h, "node");
  }

  /** External host {@code e}'s MAC. */
  public static long ofExternalHost(int e) {
    return EXTERNAL_BASE + checkedIndex(e, "external host");
  }

  /** The {@code i}-th address no device owns (taken modulo the block). */
  public static long unknown(long i) {
    return UNKNOWN_BASE + Math.floorMod(i, BLOCK);
  }

  /** The node whose MAC {@code mac} is, or -1. */
  public static int nodeOf(long mac) {
    return mac >= NODE_BASE && mac < NODE_BASE + BLOCK ? (int) (mac - NODE_BASE) : -1;
  }

  /** The external host whose MAC {@code mac} is, or -1. */
  public static int externalHostOf(long mac) {
    return mac >= EXTERNAL_BASE && mac < EXTERNAL_BASE + BLOCK ? (int) (mac - EXTERNAL_BASE) : -1;
  }

  /** {@code 02:00:00:00:00:2a}. */
  public static String format(long mac) {
    StringBuilder out = new StringBuilder(17);
    for (int i = BYTES - 1; i >= 0; i--) {
      out.append(String.format(Locale.ROOT, "%02x", (mac >>> (8 * i)) & 0xFF));
      if (i > 0) out.append(':');
    }
    return out.toString();
  }

  private static long checkedIndex(int index, String what) {
    if (index < 0 || index >= BLOCK) {
      throw new IllegalArgumentException(what + " " + index + " has no MAC: at most " + BLOCK + " are numbered");
    }
    return index;
  }
}
