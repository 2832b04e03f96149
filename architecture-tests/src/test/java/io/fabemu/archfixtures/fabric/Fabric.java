package io.fabemu.archfixtures.fabric;

/** Mirrors the real Fabric: runOnPlainEngine may time itself for the report; no other method may. */
public final class Fabric {
  /** Allowed: named in ArchitectureRules.WALL_CLOCK_FOR_REPORT_ONLY. */
  public double runOnPlainEngine() {
    long start = System.nanoTime();
    return (System.nanoTime() - start) / 1e9;
  }

  /** The violation: same call, in a method not named as report-only. */
  public long wallClockInLogic() {
    return System.nanoTime();
  }
}
