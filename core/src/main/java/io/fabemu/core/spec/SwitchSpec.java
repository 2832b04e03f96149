package io.fabemu.core.spec;

/**
 * Timing of a packet switch.
 *
 * @param pipelineLatencyPs time from the moment a packet may be forwarded until it can start on the egress port
 * @param forwarding        store-and-forward (wait for the whole packet) or cut-through (start after the head)
 */
public record SwitchSpec(long pipelineLatencyPs, ForwardingMode forwarding) {

  public enum ForwardingMode {
    STORE_AND_FORWARD("store-and-forward"), CUT_THROUGH("cut-through");

    private final String configName;

    ForwardingMode(String configName) {
      this.configName = configName;
    }

    public String configName() {
      return configName;
    }

    public static ForwardingMode fromConfigName(String name) {
      for (ForwardingMode m : values()) {
        if (m.configName.equals(name)) return m;
      }
      return null;
    }
  }
}
