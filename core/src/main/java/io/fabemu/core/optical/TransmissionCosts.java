package io.fabemu.core.optical;

/**
 * What the cost model of the transmission methods reads from its configuration file (the optical patent, [0173]): quantities
 * fixed for a cluster, that do not change during a run.
 *
 * @param intraServerBitsPerSecond the bandwidth between two NPUs of one server, bits per second, positive
 * @param interServerBitsPerSecond the bandwidth between servers (an optical circuit), bits per second, positive
 * @param p2pReadPs                the delay for an NPU to read data from the memory of another NPU of its server
 *                                 (method 2's first step, [0170]), picoseconds, not negative
 * @param p2pWritePs               the delay for an NPU to write data into the memory of another NPU of its server
 *                                 (method 2's last step, [0170]), picoseconds, not negative
 * @param peerToPeer               whether every server has the peer-to-peer capability ([0153]-[0154], "a system
 *                                 architecture variable"): without it method 2 is not possible
 */
public record TransmissionCosts(long intraServerBitsPerSecond, long interServerBitsPerSecond, long p2pReadPs,
    long p2pWritePs, boolean peerToPeer) {

  /**
   * Checks the ranges.
   *
   * @throws IllegalArgumentException when a bandwidth is not positive or a delay is negative
   */
  public TransmissionCosts {
    if (intraServerBitsPerSecond <= 0 || interServerBitsPerSecond <= 0) {
      throw new IllegalArgumentException("bandwidths must be positive: intra-server " + intraServerBitsPerSecond
          + " bps, inter-server " + interServerBitsPerSecond + " bps");
    }
    if (p2pReadPs < 0 || p2pWritePs < 0) {
      throw new IllegalArgumentException("peer-to-peer delays must not be negative: read " + p2pReadPs + " ps, write "
          + p2pWritePs + " ps");
    }
  }
}
