package io.fabemu.core.optical;

import java.util.Optional;

/**
 * The four ways of moving data from one pipeline stage's server to the next one's (the optical patent, [0148]-[0166]), numbered
 * as the seed numbers them. Every one crosses between the servers over the single circuit that joins them, from the
 * source server's gateway NPU to the same-numbered NPU of the target server ({@link ConnectionPolicy#gatewayNpu});
 * they differ in how the data gets onto the gateway and how it is spread in the target server.
 */
public enum TransmissionMethod {
  /** Send between the servers, then broadcast in the target server ([0149]-[0152]); replicated data only. */
  SEND_BROADCAST(1, "send-broadcast"),
  /**
   * The gateway reads the other NPUs' memories over the server's bus (peer-to-peer), sends, and the target gateway
   * writes into its neighbours' memories ([0153]-[0159]); servers with the peer-to-peer capability only.
   */
  P2P_BUS(2, "p2p-bus"),
  /** All-gather in the source server, send the spliced data, scatter it in the target server ([0160]-[0162]). */
  ALLGATHER_SEND_SCATTER(3, "allgather-send-scatter"),
  /** Send to the gateway through the server's switching device, send, send on in the target ([0163]-[0166]). */
  SWITCH_SEND(4, "switch-send");

  private final int number;
  private final String configName;

  TransmissionMethod(int number, String configName) {
    this.number = number;
    this.configName = configName;
  }

  /** The patent's number, 1..4: the order of ties in {@link TransmissionCostModel#choose}. */
  public int number() {
    return number;
  }

  /** The name in configuration files and results, e.g. {@code allgather-send-scatter}. */
  public String configName() {
    return configName;
  }

  /** The method named {@code name} ({@link #configName()}), if any. */
  public static Optional<TransmissionMethod> named(String name) {
    for (TransmissionMethod m : values()) {
      if (m.configName.equals(name)) return Optional.of(m);
    }
    return Optional.empty();
  }
}
