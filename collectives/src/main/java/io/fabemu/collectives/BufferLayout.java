package io.fabemu.collectives;

import java.util.Locale;

/**
 * Where a collective's result goes relative to its input, as nccl-tests measures both: {@link #OUT_OF_PLACE} (a
 * separate receive buffer, the default) or {@link #IN_PLACE} (the send buffer is the receive buffer, MPI_IN_PLACE /
 * {@code sendbuff == recvbuff + offset} in NCCL). In place, the local copies that move a rank's own input into its
 * output cost nothing, since the data is already there ({@link InPlaceAlias}).
 */
public enum BufferLayout {
  OUT_OF_PLACE,
  IN_PLACE;

  /** Name in scenarios and reports: {@code out-of-place} or {@code in-place}. */
  public String configName() {
    return name().toLowerCase(Locale.ROOT).replace('_', '-');
  }

  /** Parses a scenario name (case-sensitive, as {@link #configName()} writes it); null when unknown. */
  public static BufferLayout fromConfigName(String name) {
    for (BufferLayout b : values()) {
      if (b.configName().equals(name)) return b;
    }
    return null;
  }
}
