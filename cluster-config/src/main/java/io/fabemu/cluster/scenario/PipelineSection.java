package io.fabemu.cluster.scenario;

import com.typesafe.config.ConfigList;
import com.typesafe.config.ConfigValue;
import io.fabemu.collectives.Algorithm;
import io.fabemu.collectives.Collective;
import io.fabemu.collectives.PipelineIteration;
import io.fabemu.collectives.PipelineSpec;
import io.fabemu.collectives.Schedules;
import io.fabemu.collectives.StageCollective;
import io.fabemu.collectives.WorkloadSpec;
import io.fabemu.core.optical.TransmissionCosts;
import io.fabemu.core.topology.OpticalSpec;
import io.fabemu.core.topology.TopologySpec;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;

/**
 * The {@code pipeline} section of a {@code workload.collective = pipeline} scenario (docs/optical.md, "The pipeline
 * workload"): micro-batches, the stage collective, the size of the global AllReduce, and the cost model's
 * configuration file.
 *
 * <p>Contract: {@link #spec} reads the section for the workload section, with the rules between it, the topology
 * (an optical cluster of at least 2 servers) and the workload (one rank per NPU, out of place, no hierarchical
 * mode; send-broadcast only on replicated data, p2p-bus only with the peer-to-peer capability, an allgather stage's
 * activation a multiple of N elements); the costs default to the topology's bandwidths and the cost file's defaults.
 * As a section of its own it only refuses a {@code pipeline} section written for another collective, and leaves the
 * section out of the echo then, so scenarios written before it existed echo as they did.
 */
final class PipelineSection implements ScenarioSection {
  static final String PATH = "pipeline";
  /** {@code global-allreduce-size = same}: as large as one activation. */
  static final String SAME = "same";

  @Override
  public void read(ScenarioReader in, ScenarioDraft draft) {
    if (draft.workload().collective() == Collective.PIPELINE) return;
    if (in.writtenByUser(PATH)) {
      String first = in.firstWrittenUnder(PATH).orElse(PATH);
      throw in.error(first, "the pipeline section is for workload.collective = pipeline (the collective is "
          + draft.workload().collective().configName() + ")");
    }
    draft.echo(draft.echo().withoutPath(PATH));
  }

  /**
   * The pipeline of a pipeline workload, read and checked against the topology and the rest of the workload.
   *
   * @param sizes        the activation sizes, bytes per NPU
   * @param elementBytes bytes per element
   * @param explicit     whether the sizes were listed ({@code workload.sizes}) rather than ranged
   */
  static PipelineSpec spec(ScenarioReader in, TopologySpec topology, List<Algorithm> algorithms, List<Long> sizes,
                           int elementBytes, boolean explicit) {
    OpticalSpec optical = topology.opticalCluster().orElse(null);
    if (optical == null) {
      throw in.error("workload.collective", "pipeline runs on an optical cluster (topology.kind = optical), not on "
          + topology.configName());
    }
    if (optical.servers() < 2) {
      throw in.error("topology.servers", "a pipeline needs at least 2 servers, one per stage (servers = "
          + optical.servers() + ")");
    }
    int npus = optical.npusPerServer();
    int microBatches = in.intValue(PATH + ".micro-batches", 1, PipelineSpec.MAX_MICRO_BATCHES);
    StageCollective stage = in.enumValue(PATH + ".stage-collective", StageCollective::fromConfigName,
        Arrays.stream(StageCollective.values()).map(StageCollective::configName).toList());
    long global = globalBytes(in, elementBytes);
    TransmissionCosts costs = costs(in, optical);
    for (int i = 0; i < algorithms.size(); i++) {
      Algorithm a = algorithms.get(i);
      if (a == Algorithm.SEND_BROADCAST && !stage.replicated()) {
        throw in.error("workload.algorithms", "send-broadcast sends one copy, so it needs replicated activations "
            + "(pipeline.stage-collective allreduce or allgather, not " + stage.configName() + ")");
      }
      if (a == Algorithm.P2P_BUS && !costs.peerToPeer()) {
        throw in.error("workload.algorithms", "p2p-bus needs servers with the peer-to-peer capability (set "
            + "peer-to-peer = true in the file pipeline.costs names)");
      }
    }
    PipelineSpec spec = new PipelineSpec(optical.servers(), npus, microBatches, stage, global, costs);
    for (int i = 0; i < sizes.size(); i++) {
      long count = sizes.get(i) / elementBytes;
      if (stage == StageCollective.ALLGATHER && count % npus != 0) {
        String path = explicit ? "workload.sizes[" + i + "]" : "workload.min-size";
        throw in.error(path, sizeValue(in, explicit, i, path), "an allgather stage cuts an activation into one "
            + "slice per NPU: " + Quantities.formatBytes(sizes.get(i)) + " is " + count + " elements, not a multiple "
            + "of " + npus);
      }
      long elements = PipelineIteration.largestBufferElements(spec, count, spec.globalBytes(sizes.get(i))
          / elementBytes);
      if (elements > Schedules.MAX_BUFFER_ELEMENTS) {
        // Sizes only grow along a range, so its largest is the one to blame.
        String path = explicit ? "workload.sizes[" + i + "]" : "workload.max-size";
        throw in.error(path, sizeValue(in, explicit, i, path), "an activation of "
            + Quantities.formatBytes(sizes.get(i)) + " needs a buffer of " + elements + " elements per NPU ("
            + microBatches + " micro-batches each way, " + npus + " NPUs' staging on a gateway), more than a Java "
            + "array holds (" + Schedules.MAX_BUFFER_ELEMENTS + ")");
      }
    }
    return spec;
  }

  /** The value at a size's path: an item of {@code workload.sizes}, or the range key. */
  private static ConfigValue sizeValue(ScenarioReader in, boolean explicit, int index, String path) {
    return explicit ? ((ConfigList) in.value("workload.sizes")).get(index) : in.value(path);
  }

  /** The other workload keys a pipeline fixes: one rank per NPU, out of place, not hierarchical. */
  static void checkWorkload(ScenarioReader in, WorkloadSpec workload) {
    if (workload.ppn() != 1) {
      throw in.error("workload.ppn", "a pipeline runs one rank per NPU; set ppn = 1");
    }
    if (workload.hierarchical()) {
      throw in.error("workload.hierarchical", "a pipeline has no hierarchical mode");
    }
    if (!workload.buffers().equals(WorkloadSpec.DEFAULT_BUFFERS)) {
      throw in.error("workload.buffers", "a pipeline runs out of place only");
    }
  }

  private static long globalBytes(ScenarioReader in, int elementBytes) {
    String path = PATH + ".global-allreduce-size";
    ConfigValue v = in.value(path);
    if (SAME.equals(ScenarioReader.text(v).strip())) return PipelineSpec.SAME_AS_ACTIVATION;
    long bytes = in.sizeBytes(path, v, 0, ScenarioLoader.MAX_SIZE_BYTES);
    if (bytes % elementBytes != 0) {
      throw in.error(path, v, "'" + ScenarioReader.text(v) + "' is not a multiple of the element size ("
          + elementBytes + " B)");
    }
    return bytes;
  }

  /** The file {@code pipeline.costs} names (relative to the scenario), or the topology's bandwidths. */
  private static TransmissionCosts costs(ScenarioReader in, OpticalSpec optical) {
    String path = PATH + ".costs";
    String file = ScenarioReader.text(in.value(path)).strip();
    if (file.isEmpty()) {
      TransmissionCosts defaults = OpticalCostsLoader.parse("", "defaults");
      return new TransmissionCosts(optical.intraServerLink().bandwidthBitsPerSecond(),
          optical.optical().bandwidthBitsPerSecond(), defaults.p2pReadPs(), defaults.p2pWritePs(),
          defaults.peerToPeer());
    }
    Path resolved = Path.of(in.source()).toAbsolutePath().resolveSibling(file).normalize();
    if (!Files.isRegularFile(resolved)) {
      throw in.error(path, in.value(path), "'" + file + "' is not a file (read relative to the scenario: " + resolved
          + ")");
    }
    // The file's own problems are told at its own line.
    return OpticalCostsLoader.load(resolved);
  }
}
