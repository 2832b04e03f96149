package io.fabemu.collectives;

import java.util.Locale;

/**
 * How the ranks of an INC Allreduce are led (the INC paper, section 3.3 and 3.5): by one leader per host node, or by
 * one leader per CPU socket of every node.
 */
public enum IncMode {
  /**
   * Node mode: one SRR per host node (its lowest rank); one INC group whose MRR is the lowest SRR. Needs the same
   * process count on every node, ranks contiguous per node and per TOR.
   */
  NODE,
  /**
   * Socket mode: one SRR per CPU socket of every node; the SRRs form one INC group per socket index, each with its
   * own MRR (the SRR of that socket on the first node). Needs at least 2 sockets per node, the same process count on
   * every socket, ranks contiguous per socket, per node and per TOR.
   */
  SOCKET;

  /** Name in scenarios: {@code inc-node}, {@code inc-socket}. */
  public String configName() {
    return "inc-" + name().toLowerCase(Locale.ROOT);
  }

  /** The mode named {@code name} in a scenario, or {@code null} when there is none. */
  public static IncMode fromConfigName(String name) {
    for (IncMode m : values()) {
      if (m.configName().equals(name)) return m;
    }
    return null;
  }
}
