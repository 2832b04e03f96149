package io.fabemu.app.report;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabemu.collectives.Algorithm;
import io.fabemu.collectives.Collective;
import io.fabemu.collectives.PipelineSpec;
import io.fabemu.collectives.WorkloadSpec;
import io.fabemu.core.optical.MethodCost;
import io.fabemu.core.optical.TransmissionChoice;
import io.fabemu.core.optical.TransmissionCosts;
import io.fabemu.core.time.Units;
import io.fabemu.fabric.result.CaseResult;
import io.fabemu.fabric.result.RunResult;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.TreeSet;

/**
 * The pipeline iterations of a {@code collective = pipeline} run (docs/optical.md, "The pipeline workload"): per
 * case the transmission method asked for and run (the cost model's choice for {@code auto}), the model's cost of one
 * transfer between stages, the measured iteration time and its parts (forward pass, backward pass, global
 * AllReduce); then per size the cost model's choice against the measured fastest method. Printed after the tables
 * ({@link #text}), shown in the report ({@link #html}) and written to results.json ({@link #json}).
 *
 * @param pipeline the workload's pipeline
 * @param rows     one per finished case, in workload order
 * @param verdicts one per size with a finished case, ascending
 */
public record PipelineTable(PipelineSpec pipeline, List<Row> rows, List<Verdict> verdicts) {

  /**
   * One case.
   *
   * @param sizeBytes   activation bytes per NPU
   * @param asked       the algorithm the workload names ({@code auto} or a method)
   * @param ran         the method the case ran
   * @param modelPs     the cost model's cost of one transfer between stages by {@code ran}; -1 when the model says
   *                    the method is not possible
   * @param iterationPs the iteration's time: from its first rank's start to its last rank's end, the mean over the
   *                    measured iterations
   * @param forwardPs   the forward pass, from the iteration's start to its end on the last rank
   * @param backwardPs  the backward pass, from the forward's end to its end on the last rank
   * @param globalPs    the global AllReduce, from the backward's end to the iteration's end
   * @param wrong       wrong elements (0 when not checked)
   * @param checked     whether the outputs were checked (false for a synthetic payload)
   */
  public record Row(long sizeBytes, Algorithm asked, Algorithm ran, long modelPs, double iterationPs,
                    long forwardPs, long backwardPs, long globalPs, long wrong, boolean checked) {}

  /**
   * One size: what the cost model chose, and when two or more methods were measured, the fastest of them.
   *
   * @param sizeBytes activation bytes per NPU
   * @param choice    the cost model's costs and choice
   * @param fastest   the fastest measured method (the lowest number on a tie); null when fewer than two were
   *                  measured
   * @param fastestPs its iteration time
   * @param chosenPs  the chosen method's measured iteration time; NaN when it was not measured
   */
  public record Verdict(long sizeBytes, TransmissionChoice choice, Algorithm fastest, double fastestPs,
                        double chosenPs) {
    /** True when the chosen method is no slower than the fastest measured (they tie or are the same). */
    public boolean chosenIsFastest() {
      return fastest != null && !Double.isNaN(chosenPs) && chosenPs <= fastestPs;
    }
  }

  public PipelineTable {
    rows = List.copyOf(rows);
    verdicts = List.copyOf(verdicts);
  }

  /** The table of {@code result}, or null when it is not a pipeline run. */
  public static PipelineTable of(RunResult result) {
    WorkloadSpec w = result.scenario().workload();
    if (w.collective() != Collective.PIPELINE) return null;
    PipelineSpec pipeline = w.pipeline();
    List<Row> rows = new ArrayList<>();
    TreeSet<Long> sizes = new TreeSet<>();
    for (CaseResult c : result.cases()) {
      long[] parts = c.partEndsPs();
      double iteration = c.timed() ? c.iterationPs() : c.maxLatencyPs();
      long forward = parts.length > 0 ? parts[0] : 0;
      long backward = parts.length > 1 ? parts[1] - forward : 0;
      long global = Math.max(0, Math.round(iteration) - forward - backward);
      MethodCost cost = pipeline.choice(c.sizeBytes()).cost(c.algorithm().transmissionMethod());
      rows.add(new Row(c.sizeBytes(), w.algorithmOfCase(c.caseIndex()), c.algorithm(),
          cost.possible() ? cost.totalPs() : -1, iteration, forward, backward, global, c.wrongElements(),
          c.checked()));
      sizes.add(c.sizeBytes());
    }
    List<Verdict> verdicts = new ArrayList<>();
    for (long size : sizes) {
      TransmissionChoice choice = pipeline.choice(size);
      Algorithm chosen = Algorithm.of(choice.chosen());
      Algorithm fastest = null;
      double fastestPs = Double.NaN;
      double chosenPs = Double.NaN;
      int measured = 0;
      // Methods are compared in the patent's order, so a tie goes to the lower number, as the model's choice does. A
      // method is timed by its own case where the workload names it (auto's case starts with another skew).
      for (Algorithm method : Algorithm.TRANSMISSION_METHODS) {
        Row row = rows.stream().filter(r -> r.sizeBytes() == size && r.ran() == method)
            .min(Comparator.comparing((Row r) -> r.asked() != method)).orElse(null);
        if (row == null) continue;
        measured++;
        if (fastest == null || row.iterationPs() < fastestPs) {
          fastest = method;
          fastestPs = row.iterationPs();
        }
        if (method == chosen) chosenPs = row.iterationPs();
      }
      verdicts.add(new Verdict(size, choice, measured >= 2 ? fastest : null, fastestPs, chosenPs));
    }
    return new PipelineTable(pipeline, rows, verdicts);
  }

  /** The title line: the pipeline's shape and the cost model's configuration. */
  public String title() {
    TransmissionCosts c = pipeline.costs();
    return "# fabemu pipeline: " + pipeline.servers() + " stages on " + pipeline.servers() + " servers x "
        + pipeline.npusPerServer() + " NPUs, " + pipeline.microBatches() + " micro-batches, stage collective "
        + pipeline.stageCollective().configName() + (pipeline.stageCollective().replicated() ? " (replicated)"
        : " (distinct)") + ", global allreduce " + (pipeline.globalAllreduceBytes() == PipelineSpec.SAME_AS_ACTIVATION
        ? "of an activation's size" : Formats.sizeLabel(pipeline.globalAllreduceBytes()) + " per NPU")
        + "\n# cost model: intra-server " + gbps(c.intraServerBitsPerSecond()) + ", inter-server "
        + gbps(c.interServerBitsPerSecond()) + ", p2p read " + Units.format(c.p2pReadPs()) + ", write "
        + Units.format(c.p2pWritePs()) + (c.peerToPeer() ? ", peer-to-peer" : ", no peer-to-peer");
  }

  /** The printed table and the per-size verdicts. */
  public String text() {
    StringBuilder sb = new StringBuilder(title()).append('\n');
    sb.append(String.format(Locale.ROOT, "%-10s %-22s %-24s %12s %14s %12s %12s %12s%n", "# Size", "Asked",
        "Method", "Model(us)", "Iteration(us)", "Forward(us)", "Backward(us)", "Global(us)"));
    for (Row r : rows) {
      sb.append(String.format(Locale.ROOT, "%-10d %-22s %-24s %12s %14.2f %12.2f %12.2f %12.2f%n", r.sizeBytes(),
          r.asked().configName(), r.ran().configName(), r.modelPs() < 0 ? "-" : us(r.modelPs()), r.iterationPs() / 1e6,
          r.forwardPs() / 1e6, r.backwardPs() / 1e6, r.globalPs() / 1e6));
    }
    for (Verdict v : verdicts) sb.append(verdictLine(v)).append('\n');
    return sb.toString();
  }

  /** {@code # 64 KiB: the cost model chooses send-broadcast (...); measured fastest: ... (the choice)}. */
  static String verdictLine(Verdict v) {
    String line = "# " + Formats.sizeLabel(v.sizeBytes()) + ": the cost model chooses " + v.choice().summary();
    if (v.fastest() == null) return line;
    return line + "; measured fastest: " + v.fastest().configName() + " (" + us(Math.round(v.fastestPs()))
        + " us)" + (v.chosenIsFastest() ? ", the choice" : Double.isNaN(v.chosenPs()) ? ", the choice not measured"
        : ", the choice is " + String.format(Locale.ROOT, "%.1f", 100 * (v.chosenPs() / v.fastestPs() - 1))
        + " % slower");
  }

  /** The table in the report. */
  public void html(Markup out) {
    Tables.note(out, title().replace("# ", "").replace("\n", "; ") + ". Times in microseconds; Model is the cost "
        + "model's figure for one transfer between two stages; Iteration runs from the first rank's start to the last "
        + "rank's end.");
    List<String> header = List.of("size", "asked", "method", "model", "iteration", "forward", "backward", "global");
    List<List<String>> table = new ArrayList<>();
    for (Row r : rows) {
      table.add(List.of(Formats.sizeLabel(r.sizeBytes()), r.asked().configName(), r.ran().configName(),
          r.modelPs() < 0 ? "-" : us(r.modelPs()), us(Math.round(r.iterationPs())), us(r.forwardPs()),
          us(r.backwardPs()), us(r.globalPs())));
    }
    Tables.table(out, header, table, new TreeSet<>(List.of(3, 4, 5, 6, 7)));
    for (Verdict v : verdicts) Tables.note(out, verdictLine(v).substring(2));
  }

  /** The {@code pipeline} object of results.json. */
  public void json(ObjectNode node) {
    node.put("servers", pipeline.servers());
    node.put("npusPerServer", pipeline.npusPerServer());
    node.put("microBatches", pipeline.microBatches());
    node.put("stageCollective", pipeline.stageCollective().configName());
    ArrayNode cases = node.putArray("cases");
    for (Row r : rows) {
      ObjectNode c = cases.addObject();
      c.put("sizeBytes", r.sizeBytes());
      c.put("asked", r.asked().configName());
      c.put("method", r.ran().configName());
      if (r.modelPs() >= 0) c.put("modelTransferPs", r.modelPs());
      c.put("iterationPs", Math.round(r.iterationPs()));
      c.put("forwardPs", r.forwardPs());
      c.put("backwardPs", r.backwardPs());
      c.put("globalAllreducePs", r.globalPs());
      c.put("wrongElements", r.wrong());
    }
    ArrayNode choices = node.putArray("choices");
    for (Verdict v : verdicts) {
      ObjectNode c = choices.addObject();
      c.put("sizeBytes", v.sizeBytes());
      c.put("chosen", v.choice().chosen().configName());
      ObjectNode model = c.putObject("modelPs");
      for (MethodCost cost : v.choice().costs()) {
        if (cost.possible()) model.put(cost.method().configName(), cost.totalPs());
      }
      if (v.fastest() != null) {
        c.put("measuredFastest", v.fastest().configName());
        c.put("chosenIsFastest", v.chosenIsFastest());
      }
    }
  }

  private static String gbps(long bitsPerSecond) {
    return new BigDecimal(bitsPerSecond).divide(BigDecimal.valueOf(Units.GBPS)).stripTrailingZeros().toPlainString()
        + " Gbps";
  }

  private static String us(long ps) {
    return String.format(Locale.ROOT, "%.2f", ps / 1e6);
  }
}
