package io.fabemu.core.protocol;

/** One direction of a cable: from vertex {@code from} to vertex {@code to}. */
public record DirectedLink(int from, int to) implements Comparable<DirectedLink> {
  public DirectedLink {
    if (from < 0 || to < 0 || from == to) {
      throw new IllegalArgumentException("a link joins two different vertices, got " + from + " -> " + to);
    }
  }

  public DirectedLink reversed() {
    return new DirectedLink(to, from);
  }

  @Override
  public int compareTo(DirectedLink other) {
    return from != other.from ? Integer.compare(from, other.from) : Integer.compare(to, other.to);
  }

  @Override
  public String toString() {
    return from + "->" + to;
  }
}
