package io.fabemu.core.optical;

/**
 * One optical circuit through the circuit switch: it joins NPU {@code plane} of server {@code serverA} to NPU
 * {@code plane} of server {@code serverB}. Both ends carry the same NPU number by construction: that is the patent's
 * formula 2 ({@code dev_dst = dev_src}, the optical patent, [0119]-[0120]), the only kind of circuit an optical switch that
 * connects NPUs on one plane can make.
 *
 * <p>Normalized so that {@code serverA < serverB}: the circuit between 3 and 1 on plane 4 equals the one between 1
 * and 3.
 *
 * @param serverA the lower-numbered server
 * @param serverB the higher-numbered server
 * @param plane   the NPU number at both ends
 */
public record Circuit(int serverA, int serverB, int plane) {

  /**
   * Normalizes the server order.
   *
   * @throws IllegalArgumentException when a number is negative or both ends are on one server (a circuit from an
   *     NPU to itself)
   */
  public Circuit {
    if (serverA < 0 || serverB < 0 || plane < 0) {
      throw new IllegalArgumentException("a circuit has no negative server or plane: servers " + serverA + " and "
          + serverB + ", plane " + plane);
    }
    if (serverA == serverB) {
      throw new IllegalArgumentException("a circuit joins two servers, not server " + serverA + " to itself");
    }
    if (serverA > serverB) {
      int lower = serverB;
      serverB = serverA;
      serverA = lower;
    }
  }

  /** The server at the other end from {@code server}, which must be one of the two ends. */
  public int otherEnd(int server) {
    if (server == serverA) return serverB;
    if (server == serverB) return serverA;
    throw new IllegalArgumentException("server " + server + " is no end of " + this);
  }
}
