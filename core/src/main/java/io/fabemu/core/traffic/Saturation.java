package io.fabemu.core.traffic;

/**
 * Where a traffic sweep saturated, as {@link SaturationFinder} found it: the saturation load lies between the last
 * load that was not saturated and the first one that was. Immutable.
 *
 * @param saturatedIndex        index in the sweep of the first saturated load point
 * @param lastStableLoad        offered load (flits/node/cycle) of the point before it; NaN when the sweep's first
 *                              point is already saturated
 * @param saturatedLoad         offered load of the first saturated point
 * @param reason                the criterion that point failed first (drain, then latency, then throughput)
 * @param zeroLoadLatencyCycles the zero-load latency the latency criterion compared with; NaN when it had none
 */
public record Saturation(int saturatedIndex, double lastStableLoad, double saturatedLoad, Reason reason,
                         double zeroLoadLatencyCycles) {

  /** Why a load point counts as saturated. */
  public enum Reason {
    /** Some measured packet had not arrived by the end of the drain. */
    DRAIN_INCOMPLETE("drain incomplete"),
    /** Average latency above the latency factor times the zero-load latency. */
    LATENCY("latency"),
    /** Accepted throughput below the generated load by more than the tolerance. */
    THROUGHPUT("throughput");

    private final String label;

    Reason(String label) {
      this.label = label;
    }

    /** A short lowercase name for tables and logs. */
    public String label() {
      return label;
    }
  }

  public Saturation {
    if (saturatedIndex < 0) {
      throw new IllegalArgumentException("saturated index must be 0 or more, got " + saturatedIndex);
    }
    if (reason == null) throw new IllegalArgumentException("saturation needs a reason, got none");
  }

  /** Whether some load of the sweep was below saturation. */
  public boolean hasStableLoad() {
    return saturatedIndex > 0;
  }
}
