package io.fabemu.core.optical;

import java.util.AbstractList;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;

/**
 * The connection policy of an optical cluster (the optical patent, S802): which NPU of which server joins which NPU of which
 * other server through the optical circuit switch, for M servers of N NPUs each. Every circuit joins two NPUs with
 * the same number, its plane (formula 2; see {@link Circuit}). No NPU talks across servers except over its own
 * circuit, so server a reaches server b through {@link #gatewayNpu(int, int) one NPU}, and traffic of a's other NPUs
 * for b goes through it.
 *
 * <p>Made by a formula ({@link #byFormula}: the management device's sizing check, then formula 1 or 3, then the full
 * interconnect check) or from listed circuits ({@link #of}, unchecked: ask {@link #fullInterconnectProblems()}).
 * Circuits are kept in flat arrays, not objects, so that a policy for a thousand servers (half a million circuits)
 * is cheap to build and check. Immutable; the server-pair lookup table is built on first use.
 */
public final class ConnectionPolicy {

  /** What a lookup answers when there is no such circuit. */
  public static final int NO_CIRCUIT = ConnectionFormula.NO_CIRCUIT;

  /** The most problem lines {@link #fullInterconnectProblems()} lists before a closing count. */
  static final int MAX_PROBLEM_LINES = 20;

  private final int servers;
  private final int npusPerServer;
  private final ConnectionFormula formula;
  private final int[] serverA;
  private final int[] serverB;
  private final int[] plane;
  // Plane-major, index plane * M + server: a plane is one matching, so checking both ends stays in one row.
  private final int[] peerByNpu;
  private volatile int[] planeByPair;

  private ConnectionPolicy(int servers, int npusPerServer, ConnectionFormula formula, int[] serverA, int[] serverB,
      int[] plane, int[] peerByNpu) {
    this.servers = servers;
    this.npusPerServer = npusPerServer;
    this.formula = formula;
    this.serverA = serverA;
    this.serverB = serverB;
    this.plane = plane;
    this.peerByNpu = peerByNpu;
  }

  private static int[] peerTable(int servers, int npusPerServer, int[] serverA, int[] serverB, int[] plane) {
    int[] peer = new int[checkedProduct(servers, npusPerServer)];
    Arrays.fill(peer, NO_CIRCUIT);
    // A broken listed policy may name an NPU twice or one out of range: the lookups keep the first circuit of an
    // NPU and skip what does not fit; fullInterconnectProblems() says what is wrong.
    for (int i = 0; i < plane.length; i++) {
      if (serverB[i] >= servers || plane[i] >= npusPerServer) continue;
      int a = plane[i] * servers + serverA[i];
      int b = plane[i] * servers + serverB[i];
      if (peer[a] == NO_CIRCUIT) peer[a] = serverB[i];
      if (peer[b] == NO_CIRCUIT) peer[b] = serverA[i];
    }
    return peer;
  }

  /**
   * The management device's policy for M servers of N NPUs by {@code formula} (the optical patent, S801-S802): refuses the
   * cluster when it has fewer NPUs per server than the minimum n ({@link OpticalSizing#requireEnoughNpus}) or than
   * the formula uses (formula 1 for even M needs M), derives every NPU's circuit from the formula, checks that the
   * formula's two ends agree (the target's NPU on the same plane answers the source) and that the result is a full
   * interconnect. NPUs at or beyond the formula's planes stay idle.
   *
   * @throws IllegalArgumentException with one line naming M, N and what is needed, when the cluster is refused
   * @throws IllegalStateException when the formula's answers are no full interconnect (a bug here, not bad input)
   */
  public static ConnectionPolicy byFormula(int servers, int npusPerServer, ConnectionFormula formula) {
    int n = OpticalSizing.requireEnoughNpus(servers, npusPerServer);
    int planes = formula.planesNeeded(servers);
    if (planes > npusPerServer) {
      throw new IllegalArgumentException(formula.label() + " cannot connect M = " + servers + " servers with N = "
          + npusPerServer + " NPUs per server: for even M it leaves one plane idle in every server and so needs M = "
          + planes + " NPUs (formula 3 needs n = " + n + ")");
    }
    // One formula answer per NPU; the answer at the other end must name this server on the same plane.
    int[] peer = new int[checkedProduct(servers, npusPerServer)];
    Arrays.fill(peer, NO_CIRCUIT);
    int count = 0;
    for (int d = 0; d < planes; d++) {
      for (int s = 0; s < servers; s++) {
        int t = formula.targetServer(servers, s, d);
        peer[d * servers + s] = t;
        if (t > s) count++;
      }
    }
    int[] a = new int[count];
    int[] b = new int[count];
    int[] p = new int[count];
    int made = 0;
    for (int d = 0; d < planes; d++) {
      for (int s = 0; s < servers; s++) {
        int t = peer[d * servers + s];
        if (t == NO_CIRCUIT) continue;
        int back = t < 0 || t >= servers ? t : peer[d * servers + t];
        if (back != s) {
          throw new IllegalStateException(formula.label() + " for M = " + servers + ": NPU " + d + " of server " + s
              + " reaches server " + t + ", whose NPU " + d + " reaches server " + back);
        }
        if (t < s) continue;
        a[made] = s;
        b[made] = t;
        p[made] = d;
        made++;
      }
    }
    ConnectionPolicy policy = new ConnectionPolicy(servers, npusPerServer, formula, a, b, p, peer);
    policy.requireFullInterconnect();
    return policy;
  }

  /**
   * The patent's default policy: formula 3 for even M, formula 1 for odd M ({@link ConnectionFormula#defaultFor}).
   *
   * @throws IllegalArgumentException as {@link #byFormula}
   */
  public static ConnectionPolicy byDefaultFormula(int servers, int npusPerServer) {
    return byFormula(servers, npusPerServer, ConnectionFormula.defaultFor(servers));
  }

  /**
   * A policy of listed circuits, not checked: {@link #fullInterconnectProblems()} says whether it is a full
   * interconnect.
   *
   * @throws IllegalArgumentException when M or N is not positive
   */
  public static ConnectionPolicy of(int servers, int npusPerServer, List<Circuit> circuits) {
    if (servers < 1) throw new IllegalArgumentException("an optical cluster needs M >= 1 servers, got M = " + servers);
    if (npusPerServer < 1) {
      throw new IllegalArgumentException("an optical cluster needs N >= 1 NPUs per server, got N = " + npusPerServer);
    }
    int[] a = new int[circuits.size()];
    int[] b = new int[circuits.size()];
    int[] p = new int[circuits.size()];
    for (int i = 0; i < a.length; i++) {
      Circuit c = circuits.get(i);
      a[i] = c.serverA();
      b[i] = c.serverB();
      p[i] = c.plane();
    }
    return new ConnectionPolicy(servers, npusPerServer, null, a, b, p, peerTable(servers, npusPerServer, a, b, p));
  }

  /**
   * Every circuit of {@code policies}, once: the first policy's in its order, then each later policy's that no
   * earlier one has, in its order (a run whose policy changes cables them so: {@code Topologies.optical} of a list).
   */
  public static List<Circuit> unionOfCircuits(List<ConnectionPolicy> policies) {
    LinkedHashSet<Circuit> union = new LinkedHashSet<>();
    for (ConnectionPolicy p : policies) union.addAll(p.circuits());
    return List.copyOf(union);
  }

  /** The number M of servers. */
  public int servers() {
    return servers;
  }

  /** The number N of NPUs in each server. */
  public int npusPerServer() {
    return npusPerServer;
  }

  /** The formula this policy came from; empty for a listed policy. */
  public Optional<ConnectionFormula> formula() {
    return Optional.ofNullable(formula);
  }

  /** The number of circuits (M(M - 1) / 2 for a full interconnect). */
  public int circuitCount() {
    return plane.length;
  }

  /** The circuits, in the order made: by formula, by plane, then lower server. A view; each call makes records. */
  public List<Circuit> circuits() {
    return new AbstractList<>() {
      @Override
      public Circuit get(int index) {
        return new Circuit(serverA[index], serverB[index], plane[index]);
      }

      @Override
      public int size() {
        return plane.length;
      }
    };
  }

  /** True when {@code other} has exactly this policy's circuits, in whatever order (a change to it would be none). */
  public boolean sameCircuits(ConnectionPolicy other) {
    return new HashSet<>(circuits()).equals(new HashSet<>(other.circuits()));
  }

  /** The number of planes in use: the highest circuit plane plus one (0 without circuits). */
  public int planesUsed() {
    int highest = -1;
    for (int p : plane) highest = Math.max(highest, p);
    return highest + 1;
  }

  /**
   * The server that NPU {@code npu} of server {@code server} reaches by its circuit, or {@link #NO_CIRCUIT} when
   * that NPU is idle.
   *
   * @throws IllegalArgumentException when the server or NPU is out of range
   */
  public int peerServer(int server, int npu) {
    checkServer(server);
    if (npu < 0 || npu >= npusPerServer) {
      throw new IllegalArgumentException("NPU " + npu + " is not in 0.." + (npusPerServer - 1));
    }
    return peerByNpu[npu * servers + server];
  }

  /**
   * The plane of the circuit that joins servers {@code a} and {@code b} (the same from either end), or
   * {@link #NO_CIRCUIT} when none does or {@code a == b}.
   *
   * @throws IllegalArgumentException when a server is out of range
   */
  public int planeBetween(int a, int b) {
    checkServer(a);
    checkServer(b);
    if (a == b) return NO_CIRCUIT;
    return planeByPair()[a * servers + b];
  }

  /**
   * The NPU of server {@code a} whose circuit reaches server {@code b}: every byte from a to b leaves a through it
   * (from a's other NPUs over the intra-server fabric first). Its number is {@link #planeBetween} by formula 2, and
   * the NPU it reaches in b has the same number. {@link #NO_CIRCUIT} when no circuit joins them or {@code a == b}.
   *
   * @throws IllegalArgumentException when a server is out of range
   */
  public int gatewayNpu(int a, int b) {
    return planeBetween(a, b);
  }

  /**
   * Why this policy is no full interconnect of its M servers, one line per problem, empty when it is one: a circuit
   * names a server outside 0..M-1 or a plane outside 0..N-1; an NPU is in more than one circuit; a pair of servers is
   * joined by no circuit or by more than one. Both ends of a circuit are on one plane by construction
   * ({@link Circuit}); a formula's agreement at both ends is checked by {@link #byFormula}. At most
   * {@value #MAX_PROBLEM_LINES} lines, then one line counting the rest.
   */
  public List<String> fullInterconnectProblems() {
    List<String> problems = new ArrayList<>();
    int[] rest = {0};
    // Bit sets "used at least once" and "used twice or more" rather than counters: a thousand servers have a million
    // pairs. Exact counts are taken only for the few items reported.
    int npus = checkedProduct(servers, npusPerServer);
    int pairs = checkedProduct(servers, servers);
    long[] npuOnce = new long[(npus + 63) >>> 6];
    long[] npuTwice = new long[npuOnce.length];
    long[] pairOnce = new long[(pairs + 63) >>> 6];
    long[] pairTwice = new long[pairOnce.length];
    for (int i = 0; i < plane.length; i++) {
      if (serverB[i] >= servers) {
        add(problems, rest, "circuit " + i + " (servers " + serverA[i] + " and " + serverB[i] + ", plane " + plane[i]
            + ") names server " + serverB[i] + ", not in 0.." + (servers - 1));
        continue;
      }
      if (plane[i] >= npusPerServer) {
        add(problems, rest, "circuit " + i + " (servers " + serverA[i] + " and " + serverB[i] + ") is on plane "
            + plane[i] + ", but servers have N = " + npusPerServer + " NPUs (planes 0.." + (npusPerServer - 1) + ")");
        continue;
      }
      mark(npuOnce, npuTwice, plane[i] * servers + serverA[i]);
      mark(npuOnce, npuTwice, plane[i] * servers + serverB[i]);
      mark(pairOnce, pairTwice, serverA[i] * servers + serverB[i]);
    }
    if (!allClear(npuTwice)) {
      for (int s = 0; s < servers; s++) {
        for (int d = 0; d < npusPerServer; d++) {
          if (!isSet(npuTwice, d * servers + s)) continue;
          if (problems.size() >= MAX_PROBLEM_LINES) {
            rest[0]++;
            continue;
          }
          problems.add("NPU " + d + " of server " + s + " is in " + circuitsAt(s, d) + " circuits");
        }
      }
    }
    // Only pairs a < b are marked, so all are joined when as many bits are set as there are pairs.
    if (!allClear(pairTwice) || countSet(pairOnce) != (long) servers * (servers - 1) / 2) {
      for (int a = 0; a < servers; a++) {
        for (int b = a + 1; b < servers; b++) {
          int pair = a * servers + b;
          if (!isSet(pairOnce, pair)) add(problems, rest, "servers " + a + " and " + b + " are joined by no circuit");
          if (!isSet(pairTwice, pair)) continue;
          if (problems.size() >= MAX_PROBLEM_LINES) {
            rest[0]++;
            continue;
          }
          problems.add("servers " + a + " and " + b + " are joined by " + circuitsBetween(a, b) + " circuits");
        }
      }
    }
    if (rest[0] > 0) problems.add("... and " + rest[0] + " more problems");
    return List.copyOf(problems);
  }

  /**
   * Throws unless this policy is a full interconnect.
   *
   * @throws IllegalStateException naming the first problem and how many there are in all
   */
  public void requireFullInterconnect() {
    List<String> problems = fullInterconnectProblems();
    if (problems.isEmpty()) return;
    throw new IllegalStateException("the connection policy for M = " + servers + " servers is no full interconnect: "
        + problems.get(0) + (problems.size() > 1 ? " (and more: " + String.join("; ", problems.subList(1,
        problems.size())) + ")" : ""));
  }

  /**
   * One line for the results: how the policy was made, M, N, n, the circuits and planes, e.g. "formula 3: M = 8
   * servers, N = 7 NPUs per server, n = 7, 28 circuits on planes 0..6".
   */
  public String summary() {
    int used = planesUsed();
    return (formula == null ? "listed" : formula.label()) + ": M = " + servers + (servers == 1 ? " server" : " servers")
        + ", N = " + npusPerServer + (npusPerServer == 1 ? " NPU" : " NPUs") + " per server, n = "
        + OpticalSizing.minimumNpusPerServer(servers) + ", " + circuitCount()
        + (circuitCount() == 1 ? " circuit" : " circuits") + (used == 0 ? "" : " on planes 0.." + (used - 1));
  }

  @Override
  public String toString() {
    return "ConnectionPolicy[" + summary() + "]";
  }

  private int circuitsAt(int server, int npu) {
    int count = 0;
    for (int i = 0; i < plane.length; i++) {
      if (fits(i) && plane[i] == npu && (serverA[i] == server || serverB[i] == server)) count++;
    }
    return count;
  }

  private int circuitsBetween(int a, int b) {
    int count = 0;
    for (int i = 0; i < plane.length; i++) {
      if (fits(i) && serverA[i] == a && serverB[i] == b) count++;
    }
    return count;
  }

  private static void mark(long[] once, long[] twice, int bit) {
    long mask = 1L << bit;
    int word = bit >>> 6;
    twice[word] |= once[word] & mask;
    once[word] |= mask;
  }

  private static boolean isSet(long[] bits, int bit) {
    return (bits[bit >>> 6] & (1L << bit)) != 0;
  }

  private static boolean allClear(long[] bits) {
    for (long word : bits) {
      if (word != 0) return false;
    }
    return true;
  }

  private static long countSet(long[] bits) {
    long count = 0;
    for (long word : bits) count += Long.bitCount(word);
    return count;
  }

  private boolean fits(int i) {
    return serverB[i] < servers && plane[i] < npusPerServer;
  }

  private int[] planeByPair() {
    int[] table = planeByPair;
    if (table != null) return table;
    // Built once on first use; a race builds two equal tables, which is harmless.
    table = new int[checkedProduct(servers, servers)];
    Arrays.fill(table, NO_CIRCUIT);
    for (int i = plane.length - 1; i >= 0; i--) {
      if (!fits(i)) continue;
      table[serverA[i] * servers + serverB[i]] = plane[i];
      table[serverB[i] * servers + serverA[i]] = plane[i];
    }
    planeByPair = table;
    return table;
  }

  private void checkServer(int server) {
    if (server < 0 || server >= servers) {
      throw new IllegalArgumentException("server " + server + " is not in 0.." + (servers - 1));
    }
  }

  private static void add(List<String> problems, int[] rest, String problem) {
    if (problems.size() < MAX_PROBLEM_LINES) {
      problems.add(problem);
    } else {
      rest[0]++;
    }
  }

  private static int checkedProduct(int x, int y) {
    long product = (long) x * y;
    if (product > Integer.MAX_VALUE - 8) {
      throw new IllegalArgumentException("an optical cluster of " + x + " x " + y + " is too large to tabulate");
    }
    return (int) product;
  }
}
