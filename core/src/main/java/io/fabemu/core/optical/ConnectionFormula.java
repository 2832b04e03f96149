package io.fabemu.core.optical;

/**
 * The patent's rules (the optical patent, S802, paragraphs [0117]-[0135]) that give each NPU of each server the server its
 * optical circuit reaches. Servers are numbered 0..M-1 and the NPUs of a server 0..N-1 ([0114]-[0115]); by formula 2
 * ({@code dev_dst = dev_src}, [0119]-[0120]) a circuit joins two NPUs with the same number, so the NPU number is the
 * circuit's plane and a formula only has to name the target server {@code node_dst} for a source server
 * {@code node_src} and a source NPU {@code dev_src}.
 *
 * <p>A formula's answer equal to the source server means that NPU has no circuit ([0125]). Each formula is an
 * involution on every plane (the target's NPU on the same plane answers the source), which is what makes a circuit
 * out of two answers; {@link ConnectionPolicy#byFormula} checks this for every NPU.
 */
public enum ConnectionFormula {

  /**
   * Formula 1 ([0117], claim 3): {@code node_dst = (dev_src - node_src + M) mod M}, for any M, on planes 0..M-1.
   * Servers a and b meet on plane {@code (a + b) mod M}. For odd M each plane leaves one server idle ([0107]) and
   * M planes are the minimum; for even M the even planes leave two servers idle, every server has one idle plane
   * among M, and the formula needs M NPUs where M - 1 would do ([0130]).
   */
  FORMULA_1("formula 1") {
    @Override
    public int planesNeeded(int servers) {
      checkServers(servers);
      return servers;
    }

    @Override
    public int targetServer(int servers, int sourceServer, int sourceNpu) {
      checkArguments(servers, sourceServer, sourceNpu);
      if (sourceNpu >= servers) return NO_CIRCUIT;
      int target = (sourceNpu - sourceServer + servers) % servers;
      return target == sourceServer ? NO_CIRCUIT : target;
    }
  },

  /**
   * Formula 3 ([0130], claim 4), for even M only, with {@code n = M - 1} planes 0..n-1 (NPU n and above stay idle:
   * [0139], [0141]). Read as:
   *
   * <ul>
   *   <li>(1) when {@code node_src = n} (the last server): {@code node_dst = ((dev_src + M) / 2) mod n} for even
   *       {@code dev_src} ("dev/2 = Math.floor(dev/2)"), {@code node_dst = (dev_src + 1) / 2} for odd
   *       {@code dev_src};
   *   <li>otherwise, with {@code r = (dev_src + 1 - node_src + n) mod n}: (2) when {@code r = node_src},
   *       {@code node_dst = n}; (3) else {@code node_dst = r}.
   * </ul>
   *
   * <p>Servers a, b below n meet on plane {@code (a + b - 1) mod n}; server s below n meets server n on the plane d
   * with {@code 2s = d + 1 (mod n)}, and (1) is exactly the inverse of that ({@code (d + 1) / 2 mod n}, n odd). This
   * is the round-robin 1-factorization of the complete graph K_M: n planes of M / 2 circuits, no NPU idle. The
   * variant of [0133] (no {@code mod n} in (1), {@code dev_src = n - 1} sent to (3)) gives the same answers.
   */
  FORMULA_3("formula 3") {
    @Override
    public int planesNeeded(int servers) {
      checkEven(servers);
      return servers - 1;
    }

    @Override
    public int targetServer(int servers, int sourceServer, int sourceNpu) {
      checkArguments(servers, sourceServer, sourceNpu);
      checkEven(servers);
      int n = servers - 1;
      if (sourceNpu >= n) return NO_CIRCUIT;
      if (sourceServer == n) {
        return sourceNpu % 2 == 0 ? ((sourceNpu + servers) / 2) % n : (sourceNpu + 1) / 2;
      }
      int r = (sourceNpu + 1 - sourceServer + n) % n;
      return r == sourceServer ? n : r;
    }
  };

  /** What {@link #targetServer} answers for an NPU that joins no circuit. */
  public static final int NO_CIRCUIT = -1;

  private final String label;

  ConnectionFormula(String label) {
    this.label = label;
  }

  /** How the seed names this formula, for messages: "formula 1" or "formula 3". */
  public String label() {
    return label;
  }

  /**
   * The NPUs per server this formula uses for {@code servers} servers: its planes are 0..planesNeeded-1. Formula 1:
   * M (for even M one more than the minimum n); formula 3: M - 1 = n.
   *
   * @throws IllegalArgumentException when M is not positive, or odd for formula 3
   */
  public abstract int planesNeeded(int servers);

  /**
   * The server that NPU {@code sourceNpu} of server {@code sourceServer} reaches by its circuit (to that server's
   * NPU with the same number, formula 2), or {@link #NO_CIRCUIT} when the formula leaves that NPU idle (its answer
   * is the source server itself, or the NPU is at or beyond {@link #planesNeeded}).
   *
   * @throws IllegalArgumentException when M is not positive (or odd, for formula 3), a server is outside 0..M-1 or
   *     the NPU is negative
   */
  public abstract int targetServer(int servers, int sourceServer, int sourceNpu);

  /**
   * The patent's choice for M servers: formula 3 for even M (fewer NPUs, [0130]), formula 1 for odd M (the only one
   * that applies).
   */
  public static ConnectionFormula defaultFor(int servers) {
    checkServers(servers);
    return servers % 2 == 0 ? FORMULA_3 : FORMULA_1;
  }

  private static void checkServers(int servers) {
    if (servers < 1) throw new IllegalArgumentException("an optical cluster needs M >= 1 servers, got M = " + servers);
  }

  private static void checkEven(int servers) {
    checkServers(servers);
    if (servers % 2 != 0) {
      throw new IllegalArgumentException("formula 3 is for an even number of servers, but M = " + servers
          + " (use formula 1)");
    }
  }

  private static void checkArguments(int servers, int sourceServer, int sourceNpu) {
    checkServers(servers);
    if (sourceServer < 0 || sourceServer >= servers) {
      throw new IllegalArgumentException("server " + sourceServer + " is not in 0.." + (servers - 1));
    }
    if (sourceNpu < 0) throw new IllegalArgumentException("NPU " + sourceNpu + " is negative");
  }
}
