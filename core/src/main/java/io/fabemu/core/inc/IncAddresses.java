package io.fabemu.core.inc;

/**
 * IPv4 addresses of the fabric's vertices (hosts' NICs and switches) as INC headers carry them: vertex v has
 * 10.0.0.0 + v + 1 (never 0, which the control payload uses for "none").
 */
public final class IncAddresses {
  private static final long BASE = 0x0A000000L;

  private IncAddresses() {}

  public static long ofVertex(int vertex) {
    if (vertex < 0 || vertex >= 0x00FFFFFE) {
      throw new IllegalArgumentException("vertex " + vertex + " has no 10.0.0.0/8 address");
    }
    return BASE + vertex + 1;
  }

  /** The vertex with this address. */
  public static int vertexOf(long ip) {
    long v = ip - BASE - 1;
    if (v < 0 || v >= 0x00FFFFFE) {
      throw new IllegalArgumentException("address " + dotted(ip) + " is no fabric vertex");
    }
    return (int) v;
  }

  public static String dotted(long ip) {
    return ((ip >>> 24) & 0xFF) + "." + ((ip >>> 16) & 0xFF) + "." + ((ip >>> 8) & 0xFF) + "." + (ip & 0xFF);
  }
}
