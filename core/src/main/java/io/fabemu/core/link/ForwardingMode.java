package io.fabemu.core.link;

/** When a device that relays a packet may start sending it on: after the whole packet is in, or after its head. */
public enum ForwardingMode {
  STORE_AND_FORWARD("store-and-forward"), CUT_THROUGH("cut-through");

  private final String configName;

  ForwardingMode(String configName) {
    this.configName = configName;
  }

  /** The name scenario files use. */
  public String configName() {
    return configName;
  }

  /** The mode a scenario file names, or null when none has that name. */
  public static ForwardingMode fromConfigName(String name) {
    for (ForwardingMode m : values()) {
      if (m.configName.equals(name)) return m;
    }
    return null;
  }
}
