package io.fabemu.core.optical;

/**
 * The management device's first step (the optical patent, S801, paragraphs [0104]-[0111]): how many NPUs each of M servers
 * needs so that every pair of servers can be joined by one optical circuit, and the refusal of a cluster that has
 * too few.
 *
 * <p>A circuit joins two NPUs with the same number (a "plane", formula 2), so one plane is a matching of the M
 * servers: at most {@code floor(M / 2)} circuits. The M(M - 1) / 2 server pairs therefore need at least M planes
 * for odd M ([0107]: (M - 1) / 2 circuits per plane) and M - 1 planes for even M ([0108]: M / 2 per plane; M = 8
 * needs 7 NPUs and 28 circuits). Both bounds are met: by formula 1 for odd M, by formula 3 for even M (see
 * {@link ConnectionFormula}). Plain logic, no state.
 */
public final class OpticalSizing {

  private OpticalSizing() {}

  /**
   * The minimum number n of NPUs per server for a full interconnect of {@code servers} servers: M for odd M, M - 1
   * for even M. M = 1 gives n = 1 by the patent's rule, although a lone server needs no circuit.
   *
   * @throws IllegalArgumentException when {@code servers} is not positive
   */
  public static int minimumNpusPerServer(int servers) {
    if (servers < 1) throw new IllegalArgumentException("an optical cluster needs M >= 1 servers, got M = " + servers);
    return servers % 2 == 1 ? servers : servers - 1;
  }

  /**
   * Refuses a cluster whose servers have too few NPUs: returns n when {@code n <= N}, else throws with one line
   * naming M, N and n. The patent's S802 and claim 1 accept {@code n <= N}; [0111] says "if n is not less than N" the
   * cluster is refused, which would refuse n = N, the very clusters of its figures 10 and 13: we follow S802.
   *
   * @throws IllegalArgumentException when M or N is not positive, or when n > N
   */
  public static int requireEnoughNpus(int servers, int npusPerServer) {
    int n = minimumNpusPerServer(servers);
    if (npusPerServer < 1) {
      throw new IllegalArgumentException("an optical cluster needs N >= 1 NPUs per server, got N = " + npusPerServer);
    }
    if (n > npusPerServer) {
      throw new IllegalArgumentException("M = " + servers + " servers with N = " + npusPerServer
          + " NPUs per server cannot be fully interconnected: each server needs n = " + n + " NPUs (n = "
          + (servers % 2 == 1 ? "M for odd M" : "M - 1 for even M") + ")");
    }
    return n;
  }
}
