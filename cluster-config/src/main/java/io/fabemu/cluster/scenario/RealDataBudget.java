package io.fabemu.cluster.scenario;

import io.fabemu.collectives.WorkloadSpec;
import io.fabemu.fabric.ScenarioSpec;
import java.util.List;
import java.util.function.Predicate;

/**
 * How much real data a run can carry on a given heap: the scenario as written when it fits, else the same scenario on
 * real data up to the largest size that fits and on sizes only ({@code payload = synthetic}'s mode: the same
 * schedules, message sizes and virtual times, no buffers and no check) from the next size on, else on sizes only at
 * every size.
 *
 * <p>Contract: plain arithmetic over {@link ResourceEstimate} through the caller's {@code fits} test (the heap of
 * this JVM and of the member JVMs, {@link MemberHeapEstimate}); nothing is built. A workload on sizes only already,
 * synthetic traffic, or one that fits as written is returned unchanged, so a run that fits today is the same run
 * with the same digest. Only the sizes change payload, never the schedules, so the virtual times of every case are
 * those of the run as written ({@code SyntheticPayloadTest}).
 *
 * @param spec   the scenario to run: {@code spec} itself, or with {@link WorkloadSpec#syntheticFromBytes} set, or
 *               with a synthetic payload
 * @param fitted true when the payload had to change to fit; {@link #spec} is then the changed one
 */
public record RealDataBudget(ScenarioSpec spec, boolean fitted) {

  /**
   * The most real data of {@code spec} that {@code fits}: real below the smallest size whose cases do not fit
   * ({@code fits} must be monotone: what fits with a cut fits with any lower one, as the estimate's heap is). When
   * not even the smallest size fits on real data, the result is sizes only at every size, whether or not that fits
   * (the caller checks it).
   */
  public static RealDataBudget fit(ScenarioSpec spec, Predicate<ScenarioSpec> fits) {
    WorkloadSpec w = spec.workload();
    if (spec.runsTraffic() || w.syntheticPayload() || fits.test(spec)) return new RealDataBudget(spec, false);
    List<Long> sizes = w.sizesBytes().stream().distinct().sorted().toList();
    // The heap grows with every size that carries real data, so the cuts that fit are a prefix: the largest is
    // found by bisection (a scenario may list 20,000 sizes, each estimate a pass over every case).
    int low = 0;                 // sizes.get(low) as the cut is known to fit; 0: not even the smallest size real
    int high = sizes.size();     // the scenario as written (no cut) is known not to fit
    while (high - low > 1) {
      int mid = (low + high) >>> 1;
      if (fits.test(spec.withWorkload(w.withSyntheticFrom(sizes.get(mid))))) {
        low = mid;
      } else {
        high = mid;
      }
    }
    if (low > 0) return new RealDataBudget(spec.withWorkload(w.withSyntheticFrom(sizes.get(low))), true);
    return new RealDataBudget(spec.withWorkload(w.withSyntheticPayload(true)), true);
  }

  /**
   * The payload as the output says it: {@code real}, {@code synthetic}, or for a payload cut at a size
   * {@code real data up to 32 MiB, sizes only from 64 MiB}.
   */
  public static String describe(WorkloadSpec w) {
    return describe(w, 1);
  }

  /**
   * {@link #describe(WorkloadSpec)} with the sizes as a tool states them: each workload size (per rank) times
   * {@code blocks} (nccl-tests' size of an all-gather is the whole output, every rank's block).
   */
  public static String describe(WorkloadSpec w, long blocks) {
    if (w.syntheticPayload()) return "synthetic";
    if (!w.mixedPayload()) return "real";
    long from = w.syntheticFromBytes();
    long upTo = w.sizesBytes().stream().filter(s -> s < from).mapToLong(Long::longValue).max().orElse(0);
    long firstSynthetic = w.sizesBytes().stream().filter(s -> s >= from).mapToLong(Long::longValue).min()
        .orElse(from);
    return (upTo > 0 ? "real data up to " + Quantities.formatBytes(upTo * blocks) + ", " : "") + "sizes only from "
        + Quantities.formatBytes(firstSynthetic * blocks);
  }
}
