package io.fabemu.core.traffic;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/** Offered-load lists for traffic sweeps ({@link TrafficSpec#offeredFlitsPerNodeCycle()}). */
public final class LoadSweep {
  private LoadSweep() {}

  /**
   * {@code count} loads evenly spaced from {@code firstLoad} to {@code lastLoad}, both included, flits per node per
   * cycle: {@code first + i * (last - first) / (count - 1)}, the last one exactly {@code lastLoad}.
   *
   * @param firstLoad the lowest load, in (0, 1)
   * @param lastLoad  the highest load, above {@code firstLoad} and at most 1
   * @param count     how many loads, at least 2
   */
  public static List<Double> evenlySpacedLoads(double firstLoad, double lastLoad, int count) {
    if (!(firstLoad > 0.0 && firstLoad < 1.0)) {
      throw new IllegalArgumentException("sweep first load must be in (0, 1) flits/node/cycle, got " + firstLoad);
    }
    if (!(lastLoad > firstLoad && lastLoad <= 1.0)) {
      throw new IllegalArgumentException("sweep last load must be above the first " + firstLoad
          + " and at most 1 flits/node/cycle, got " + lastLoad);
    }
    if (count < 2) throw new IllegalArgumentException("sweep load count must be at least 2, got " + count);
    List<Double> loads = new ArrayList<>(count);
    double step = (lastLoad - firstLoad) / (count - 1);
    for (int i = 0; i < count - 1; i++) {
      loads.add(firstLoad + i * step);
    }
    loads.add(lastLoad);
    return Collections.unmodifiableList(loads);
  }
}
