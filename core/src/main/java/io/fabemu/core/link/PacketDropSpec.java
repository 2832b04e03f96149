package io.fabemu.core.link;

/**
 * Injected loss: INC packets leaving vertex {@code fromVertex} on its link to {@code toVertex} are dropped with
 * {@code probability}, decided by a random stream seeded from the scenario seed and the link, so a run drops the
 * same packets every time.
 */
public record PacketDropSpec(int fromVertex, int toVertex, double probability) {
  public PacketDropSpec {
    if (!(probability >= 0 && probability < 1)) {
      throw new IllegalArgumentException("drop probability must be in [0, 1), got " + probability);
    }
  }
}
