package io.fabemu.cluster.scenario;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabemu.collectives.Algorithm;
import io.fabemu.collectives.Collective;
import io.fabemu.collectives.WorkloadSpec;
import io.fabemu.fabric.Fabric;
import io.fabemu.fabric.ScenarioSpec;
import io.fabemu.fabric.result.RunResult;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.assertj.core.data.Offset;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * {@link ResourceEstimate}: the event count against the count small runs really handle (deterministic, so a fixed
 * tolerance), the heap's terms and the limit scenarios' answers.
 */
class ResourceEstimateTest {

  private static ScenarioSpec scenario(String topology, String workload) {
    return ScenarioLoader.parse("name = estimate-test\nseed = 5\ntopology { " + topology + " }\nworkload { " + workload
        + " }\n", "estimate-test.conf").spec();
  }

  /**
   * Events are deterministic, so the estimate is held to the count a run on the plain engine handles: never below
   * it (the estimate errs high) and at most twice it.
   */
  @ParameterizedTest(name = "{1}")
  @CsvSource(delimiter = '|', value = {
      "kind = leaf-spine, hosts = 16, hosts-per-tor = 4, spines = 2 | collective = allreduce, algorithms = [ring, "
          + "recursive-doubling], sizes = [4 B, 64 KiB, 1 MiB], iterations = 2, warmup = 1",
      "kind = leaf-spine, hosts = 32, hosts-per-tor = 8, spines = 2 | collective = allreduce, algorithms = "
          + "[rabenseifner], sizes = [256 KiB], iterations = 3, warmup = 1, ppn = 2",
      "kind = leaf-spine, hosts = 16, hosts-per-tor = 4, spines = 2 | collective = allgather, algorithms = [ring], "
          + "sizes = [4 KiB, 64 KiB], iterations = 2, warmup = 0",
      "kind = leaf-spine, hosts = 16, hosts-per-tor = 4, spines = 2 | collective = broadcast, algorithms = "
          + "[binomial], sizes = [1 MiB], iterations = 2, warmup = 1",
      "kind = leaf-spine, hosts = 24, hosts-per-tor = 4, spines = 2 | collective = alltoall, algorithms = "
          + "[pairwise], sizes = [8 KiB], iterations = 1, warmup = 0",
      "kind = leaf-spine, hosts = 16, hosts-per-tor = 4, spines = 2 | collective = allreduce, algorithms = [ring], "
          + "sizes = [1 MiB], iterations = 2, warmup = 0, payload = synthetic",
      // No router on a prism, though devices.router has defaults: once counted as 780 events a hop (7.7 G for the
      // prism example, which handles 3.9 M).
      "kind = prism, nodes-per-layer = 3, layers = 4 | collective = allreduce, algorithms = [single-ring, "
          + "multi-ring, line], sizes = [64 KiB, 1 MiB], iterations = 1, warmup = 0",
  })
  void shouldEstimateBetweenOnceAndTwiceTheEventsARunHandles(String topology, String workload) {
    ScenarioSpec spec = scenario(topology, workload);
    RunResult run = Fabric.build(spec).runOnPlainEngine();

    long estimated = ResourceEstimate.of(spec).events();

    assertThat(estimated).isBetween(run.events(), 2 * run.events());
  }

  /**
   * The estimate of shipped examples against what their runs measured (docs/performance.md, "The estimate against
   * the examples": peak heap used at the default heap, garbage included, and the whole command's elapsed time on the
   * 2-core machine): the measured peak within the printed heap range or 3x of its nearest end, the elapsed time
   * within 3x of the time's figure. The estimate is arithmetic over the scenario, so this holds it, not the machine.
   */
  @ParameterizedTest(name = "{0}")
  @CsvSource({
      "quickstart.conf, 326, 5.46",
      "leafspine128-spine-failure.conf, 2586, 9.85",
      "optical-8x8.conf, 4741, 12.7",
      "pt2pt.conf, 528, 7.49",
      "torus-allreduce.conf, 397, 14.69",
      "mesh8x8-uniform.conf, 326, 18.44",
  })
  void shouldEstimateTheExamplesWithinThreeTimesOfTheirMeasuredHeapAndTime(String example, long peakMiB,
                                                                          double elapsedSeconds) {
    ResourceEstimate e = ResourceEstimate.of(ScenarioLoader.load(Path.of("..", "examples", example)).spec());
    double peakBytes = peakMiB * (double) (1 << 20);

    assertThat((double) e.heapBytes()).as("the range's low end").isLessThanOrEqualTo(3 * peakBytes);
    assertThat((double) e.heapHighBytes()).as("the range's high end").isGreaterThanOrEqualTo(peakBytes / 3);
    assertThat(e.heapHighBytes()).isGreaterThan(e.heapBytes());
    assertThat(e.seconds()).isBetween(elapsedSeconds / 3, elapsedSeconds * 3);
  }

  @Test
  void shouldCountTheDataBuffersOfTheLargestCaseAndTheAnswersOnlyWithARealPayload() {
    String topology = "kind = leaf-spine, hosts = 16, hosts-per-tor = 4, spines = 2";
    String workload = "collective = allreduce, algorithms = [recursive-doubling], sizes = [4 KiB, 1 MiB], "
        + "iterations = 1, warmup = 0, payload = ";
    ResourceEstimate real = ResourceEstimate.of(scenario(topology, workload + "real"));
    ResourceEstimate synthetic = ResourceEstimate.of(scenario(topology, workload + "synthetic"));

    // Input, output and scratch of 1 MiB, and two messages of 1 MiB held, on each of the 16 ranks; and the exact
    // answers, one reduction per size, held once.
    double data = 16 * (3 + ResourceEstimate.MESSAGES_HELD) * (double) (1 << 20) + (1 << 20) + 4096;
    assertThat((double) (real.heapBytes() - synthetic.heapBytes()))
        .isCloseTo(data * ResourceEstimate.COLLECTOR_HEADROOM, Offset.offset(2.0));
    assertThat(real.events()).isEqualTo(synthetic.events());
  }

  @Test
  void shouldAnswerFarAboveAnyHeapForTheDocumentedLimits() {
    String sizes = IntStream.rangeClosed(1, 20_000).mapToObj(i -> (4 * i) + " KiB")
        .collect(Collectors.joining(", "));
    ScenarioSpec ranks = scenario("kind = leaf-spine, hosts = 1048576, hosts-per-tor = 64, spines = 2",
        "collective = allreduce, algorithms = [ring], sizes = [1 MiB], ppn = 4");
    ScenarioSpec ppn = scenario("kind = leaf-spine, hosts = 16, hosts-per-tor = 4, spines = 2",
        "collective = allreduce, algorithms = [ring], sizes = [1 MiB], ppn = 4096");
    ScenarioSpec manySizes = scenario("kind = leaf-spine, hosts = 256, hosts-per-tor = 16, spines = 4",
        "collective = allreduce, algorithms = [ring], sizes = [" + sizes + "], iterations = 1, warmup = 0");

    assertThat(ResourceEstimate.of(ranks).heapBytes()).isGreaterThan(1L << 40);
    assertThat(ResourceEstimate.of(ppn).heapBytes()).isGreaterThan(1L << 40);
    assertThat(ResourceEstimate.of(manySizes).heapBytes()).isGreaterThan(64L << 30);
    assertThat(ResourceEstimate.of(manySizes).resultBytes()).isGreaterThan(1L << 30);
  }

  @Test
  void shouldCountEveryChannelsMessagesWhenTheRingRunsOnChannels() {
    long size = 16L << 20;
    ResourceEstimate.Traffic one = ResourceEstimate.traffic(Collective.ALLREDUCE, Algorithm.RING, 16, size, 1, 1);
    WorkloadSpec.Builder w = WorkloadSpec.builder(Collective.ALLREDUCE, List.of(Algorithm.RING), List.of(size));
    // 16 MiB on 16 ranks: 16 channels' worth at 64 KiB per rank, capped at the 8 asked for.
    assertThat(ResourceEstimate.onChannels(one, w.channels(8).build(), Algorithm.RING, 16, size, 4))
        .isEqualTo(new ResourceEstimate.Traffic(8 * one.messages(), one.bytes(), one.largestMessageBytes() / 8));
    assertThat(ResourceEstimate.onChannels(one, w.channels(1).build(), Algorithm.RING, 16, size, 4)).isEqualTo(one);
    assertThat(ResourceEstimate.onChannels(one, w.channels(8).build(), Algorithm.TREE, 16, size, 4)).isEqualTo(one);
    assertThat(ResourceEstimate.onChannels(one, w.channels(8).hierarchical(true).build(), Algorithm.RING, 16, size,
        4)).isEqualTo(one);
  }

  @Test
  void shouldCountRingAndRecursiveDoublingMessagesByTheirFormulas() {
    assertThat(ResourceEstimate.traffic(Collective.ALLREDUCE, Algorithm.RING, 8, 1024, 1, 1))
        .isEqualTo(new ResourceEstimate.Traffic(14, 2048, 128));
    assertThat(ResourceEstimate.traffic(Collective.ALLREDUCE, Algorithm.RECURSIVE_DOUBLING, 8, 1024, 1, 1))
        .isEqualTo(new ResourceEstimate.Traffic(3, 3072, 1024));
    assertThat(ResourceEstimate.traffic(Collective.ALLREDUCE, Algorithm.RECURSIVE_DOUBLING, 12, 1024, 1, 1))
        .isEqualTo(new ResourceEstimate.Traffic(6, 6144, 1024));
    assertThat(ResourceEstimate.logCeil(1)).isZero();
    assertThat(ResourceEstimate.logCeil(4_194_304)).isEqualTo(22);
    assertThat(ResourceEstimate.logCeil(4_194_305)).isEqualTo(23);
  }

  @Test
  void shouldSummarizeInOneLine() {
    ResourceEstimate e = new ResourceEstimate(2_469_606_195L, 0, 0, 41_000_000, 40);
    ResourceEstimate small = new ResourceEstimate(69L << 20, 0, 0, 9_000, 4);

    assertThat(e.summary()).isEqualTo("about 2.3–4.6 GiB of heap, 41 M events (~20–80 s)");
    assertThat(small.summary()).isEqualTo("about 69–581 MiB of heap, 9000 events (~2.0–8.0 s)");
    assertThat(ResourceEstimate.formatRange(900L << 20, 1800L << 20)).isEqualTo("900 MiB–1.8 GiB");
    assertThat(ResourceEstimate.formatSecondsRange(100, 400)).isEqualTo("100 s–7 min");
    assertThat(ResourceEstimate.formatBytes(300L << 20)).isEqualTo("300 MiB");
    assertThat(ResourceEstimate.formatBytes(41L << 30)).isEqualTo("41 GiB");
    assertThat(ResourceEstimate.formatBytes(3L << 40)).isEqualTo("3.0 TiB");
    assertThat(ResourceEstimate.formatSeconds(4 * 86400.0)).isEqualTo("4 days");
  }
}
