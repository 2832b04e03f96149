package io.fabemu.core.router;

/**
 * How a router network's routers move a packet's flits (the router patent's wormhole and virtual cut-through, and
 * store-and-forward for comparison).
 */
public enum Switching {
  /**
   * A head flit takes an output virtual channel as soon as that channel is free, and the packet's flits stream
   * behind it as credits allow: a blocked packet holds its channels across several routers.
   */
  WORMHOLE("wormhole"),
  /**
   * A head flit takes an output virtual channel only when the next router's buffer (downstream) has room for the
   * whole packet, so a blocked packet collapses into one router.
   */
  VIRTUAL_CUT_THROUGH("virtual-cut-through"),
  /**
   * As virtual cut-through, and a packet's head leaves a router only when its tail has arrived there.
   */
  STORE_AND_FORWARD("store-and-forward");

  private final String configName;

  Switching(String configName) {
    this.configName = configName;
  }

  /** The name scenario files use. */
  public String configName() {
    return configName;
  }

  /** The mode a scenario file names, or null when none has that name. */
  public static Switching fromConfigName(String name) {
    for (Switching s : values()) {
      if (s.configName.equals(name)) return s;
    }
    return null;
  }

  /** Whether the next buffer must take the whole packet before its head may leave (VCT and store-and-forward). */
  public boolean needsWholePacketSpace() {
    return this != WORMHOLE;
  }
}
