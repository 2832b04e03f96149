package io.fabemu.loadtests;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigException;
import com.typesafe.config.ConfigFactory;
import io.fabemu.app.report.PipelineTable;
import io.fabemu.cluster.EmbeddedCluster;
import io.fabemu.cluster.ScenarioRunner;
import io.fabemu.cluster.scenario.ScenarioException;
import io.fabemu.cluster.scenario.ScenarioLoader;
import io.fabemu.collectives.Algorithm;
import io.fabemu.collectives.Collective;
import io.fabemu.collectives.PipelineSpec;
import io.fabemu.collectives.WorkloadSpec;
import io.fabemu.core.optical.MethodCost;
import io.fabemu.core.optical.TransmissionCosts;
import io.fabemu.core.sim.ProgressListener;
import io.fabemu.core.time.Units;
import io.fabemu.core.topology.OpticalSpec;
import io.fabemu.fabric.Fabric;
import io.fabemu.fabric.ScenarioSpec;
import io.fabemu.fabric.result.RunResult;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeSet;

/**
 * The transmission-method grid (docs/performance.md, "The optical cluster"): "over
 * a grid of message sizes × intra/inter bandwidth ratios the chosen method is the measured fastest in at least 90 %
 * of cells". Runs a pipeline scenario (load-tests/optical/optical-grid-bench.conf) once per column of the grid and
 * compares, per cell, the cost model's choice with the method measured fastest on the emulated devices.
 *
 * <p>The grid: the scenario's {@code workload.sizes} (the activation per NPU) × {@link #RATIOS} (the intra-server
 * bandwidth as a multiple of the optical one, which the scenario fixes) × two data kinds: replicated
 * ({@code stage-collective = allreduce}, every method possible) and distinct ({@code none}, no send-broadcast). One
 * run per ratio and data kind measures every possible method at every size (a case each), and the cost model's
 * configuration is the cell's: the topology's two bandwidths, read and write delays of {@link #P2P_DELAY_PS}, and the
 * grid's peer-to-peer capability. Three grids: the full mesh without peer-to-peer (the cost file's default; the
 * target's check), the full mesh with peer-to-peer (p2p-bus possible), and {@code intra-server.kind = switch}
 * without peer-to-peer.
 *
 * <p>A cell's choice is the measured fastest when the chosen method's iteration time (the slowest rank's) is at most
 * every other measured method's, exactly (a tie counts, as in {@link PipelineTable.Verdict#chosenIsFastest}); a
 * miss prints by how much the choice is slower. Exit status 1 when the first grid's share is below
 * {@link #MIN_SHARE}, a run did not complete or an output was wrong; 0 otherwise; 2 on bad arguments or an invalid
 * scenario (one line).
 *
 * <p>Usage: {@code load-tests/run-optical-grid-benchmark.sh SCENARIO [--ratios=1,2,4] [--grids=mesh,p2p,switch]
 * [KEY=VALUE ...]}; each {@code KEY=VALUE} is laid over the scenario as {@code fabemu run --set} does (the keys the
 * grid sets, the intra-server bandwidth and kind, the stage collective and the algorithms, take precedence).
 */
public final class OpticalMethodGridBenchmark {

  /** The target's least share of cells whose choice is the measured fastest. */
  static final double MIN_SHARE = 0.9;

  /** The intra-server bandwidth as multiples of the optical bandwidth, by default. */
  static final List<Integer> RATIOS = List.of(1, 2, 4, 8, 16);

  /** The cost model's peer-to-peer read and write delays: the cost file's default, 1 us. */
  static final long P2P_DELAY_PS = Units.PS_PER_US;

  private static final List<Algorithm> METHODS = Algorithm.TRANSMISSION_METHODS;

  /** One grid: the server's inside and whether the servers can go peer-to-peer. */
  record Grid(String key, String title, String intraServerKind, boolean peerToPeer) {}

  static final List<Grid> GRIDS = List.of(
      new Grid("mesh", "full mesh inside the servers, no peer-to-peer (the target's grid)", "full-mesh", false),
      new Grid("p2p", "full mesh inside the servers, peer-to-peer (read and write 1 us)", "full-mesh", true),
      new Grid("switch", "a switch inside each server, no peer-to-peer", "switch", false));

  /** One cell's outcome. */
  record Cell(long sizeBytes, int ratio, boolean replicated, PipelineTable.Verdict verdict,
              Map<Algorithm, Double> measuredPs) {
    boolean hit() {
      return verdict.chosenIsFastest();
    }

    Algorithm chosen() {
      return Algorithm.of(verdict.choice().chosen());
    }

    double slowerPercent() {
      return 100 * (verdict.chosenPs() / verdict.fastestPs() - 1);
    }
  }

  private OpticalMethodGridBenchmark() {}

  /** Runs the grids; exits 0, 1 (the check failed) or 2 (bad arguments or scenario). */
  public static void main(String[] args) {
    if (args.length == 0) {
      System.err.println("usage: OpticalMethodGridBenchmark SCENARIO [--ratios=1,2,4,8,16] [--grids=mesh,p2p,switch] "
          + "[KEY=VALUE ...]");
      System.exit(2);
    }
    List<Integer> ratios = RATIOS;
    List<Grid> grids = GRIDS;
    Config overrides = ConfigFactory.empty();
    for (int i = args.length - 1; i >= 1; i--) {
      String arg = args[i];
      if (arg.startsWith("--ratios=")) {
        ratios = parseRatios(arg);
      } else if (arg.startsWith("--grids=")) {
        grids = parseGrids(arg);
      } else {
        try {
          overrides = overrides.withFallback(ConfigFactory.parseString(arg));
        } catch (ConfigException e) {
          System.err.println("argument " + i + " (" + arg + "): not KEY=VALUE: " + e.getMessage());
          System.exit(2);
        }
      }
    }
    Path scenario = Path.of(args[0]);
    org.slf4j.LoggerFactory.getILoggerFactory();
    boolean ok = true;
    Double meshShare = null;
    List<String> shares = new ArrayList<>();
    try (EmbeddedCluster cluster = EmbeddedCluster.startAlone()) {
      for (Grid grid : grids) {
        long startNs = System.nanoTime();
        long events = 0;
        List<Cell> cells = new ArrayList<>();
        String shape = null;
        for (boolean replicated : List.of(true, false)) {
          for (int ratio : ratios) {
            ScenarioSpec spec = cellSpec(scenario, overrides, grid, ratio, replicated);
            Fabric fabric = Fabric.build(spec);
            if (shape == null) shape = fabric.topology().description();
            RunResult result = ScenarioRunner.run(cluster, fabric, ProgressListener.NONE);
            events += result.events();
            if (!result.complete() || result.wrongElements() != 0) {
              System.out.printf(Locale.ROOT, "FAILED: ratio %d, %s: the run did not complete or an output was "
                  + "wrong (%d wrong elements)%n", ratio, replicated ? "replicated" : "distinct",
                  result.wrongElements());
              ok = false;
            }
            cells.addAll(cells(result, ratio, replicated));
          }
        }
        double wallSeconds = (System.nanoTime() - startNs) / 1e9;
        double share = print(grid, shape, cells, ratios, events, wallSeconds);
        shares.add(String.format(Locale.ROOT, "%s: %.1f %%", grid.key(), 100 * share));
        if (meshShare == null && grid.key().equals("mesh")) meshShare = share;
      }
    }
    System.out.println("shares: " + String.join(", ", shares));
    if (meshShare != null) {
      boolean met = meshShare >= MIN_SHARE;
      System.out.printf(Locale.ROOT, "check: full mesh without peer-to-peer, the choice is the measured fastest in "
          + "%.1f %% of cells (at least %.0f %%): %s%n", 100 * meshShare, 100 * MIN_SHARE, met ? "met" : "NOT MET");
      ok &= met;
    } else {
      System.out.println("check: not applicable (the mesh grid was not run)");
    }
    System.exit(ok ? 0 : 1);
  }

  /** The scenario for one column of a grid: its bandwidth ratio and data kind, every possible method measured. */
  static ScenarioSpec cellSpec(Path scenario, Config overrides, Grid grid, int ratio, boolean replicated) {
    ScenarioSpec base = load(scenario, overrides);
    OpticalSpec optical = base.topology().opticalCluster().orElse(null);
    if (optical == null || base.workload().collective() != Collective.PIPELINE) {
      System.err.println(scenario + ": the grid needs a pipeline scenario on an optical cluster");
      System.exit(2);
      return null;
    }
    long opticalBps = optical.optical().bandwidthBitsPerSecond();
    long intraBps = Math.multiplyExact(opticalBps, (long) ratio);
    List<Algorithm> methods = new ArrayList<>();
    for (Algorithm m : METHODS) {
      if (m == Algorithm.SEND_BROADCAST && !replicated) continue;
      if (m == Algorithm.P2P_BUS && !grid.peerToPeer()) continue;
      methods.add(m);
    }
    // The loader refuses p2p-bus unless the costs file says peer-to-peer, and the costs are set below: the run's
    // algorithms are set there too, the loader checks the others.
    List<String> loaded = methods.stream().filter(m -> m != Algorithm.P2P_BUS).map(Algorithm::configName).toList();
    Config cell = ConfigFactory.parseString("topology.intra-server.bandwidth = \"" + intraBps + " bps\"\n"
        + "topology.intra-server.kind = " + grid.intraServerKind() + "\n"
        + "pipeline.stage-collective = " + (replicated ? "allreduce" : "none") + "\n"
        + "workload.algorithms = [" + String.join(", ", loaded) + "]");
    ScenarioSpec spec = load(scenario, cell.withFallback(overrides));
    TransmissionCosts costs = new TransmissionCosts(intraBps, opticalBps, P2P_DELAY_PS, P2P_DELAY_PS,
        grid.peerToPeer());
    WorkloadSpec w = spec.workload();
    PipelineSpec p = w.pipeline();
    PipelineSpec pipeline = new PipelineSpec(p.servers(), p.npusPerServer(), p.microBatches(), p.stageCollective(),
        p.globalAllreduceBytes(), costs);
    WorkloadSpec workload = w.toBuilder().algorithms(methods).pipeline(pipeline).build();
    return spec.toBuilder().workload(workload).build();
  }

  private static ScenarioSpec load(Path scenario, Config overrides) {
    try {
      return ScenarioLoader.load(scenario, overrides).spec();
    } catch (ScenarioException e) {
      System.err.println(e.getMessage());
      System.exit(2);
      return null;
    }
  }

  /** The cells of one run: one per size, with every measured method's iteration time. */
  static List<Cell> cells(RunResult result, int ratio, boolean replicated) {
    PipelineTable table = PipelineTable.of(result);
    List<Cell> cells = new ArrayList<>();
    for (PipelineTable.Verdict v : table.verdicts()) {
      Map<Algorithm, Double> measured = new LinkedHashMap<>();
      for (PipelineTable.Row r : table.rows()) {
        if (r.sizeBytes() == v.sizeBytes()) measured.put(r.ran(), r.iterationPs());
      }
      cells.add(new Cell(v.sizeBytes(), ratio, replicated, v, measured));
    }
    return cells;
  }

  /** Prints one grid: the matrices, the cells in detail, the totals; returns the share of hits. */
  private static double print(Grid grid, String shape, List<Cell> cells, List<Integer> ratios, long events,
                              double wallSeconds) {
    System.out.println("## " + grid.title());
    System.out.println();
    System.out.println(shape);
    System.out.println();
    for (boolean replicated : List.of(true, false)) {
      printMatrix(cells, ratios, replicated);
    }
    System.out.println("Per cell (times in us: Model is the cost model's figure for one transfer between stages, "
        + "Measured the iteration's, by method number):");
    System.out.println();
    System.out.println("| data | size | ratio | choice | fastest | chosen (us) | fastest (us) | the fastest "
        + "| slower by | measured (us) | model (us) |");
    System.out.println("|---|---|---|---|---|---|---|---|---|---|---|");
    int hits = 0;
    for (Cell c : cells) {
      if (c.hit()) hits++;
      StringBuilder measured = new StringBuilder();
      for (Map.Entry<Algorithm, Double> e : c.measuredPs().entrySet()) {
        if (measured.length() > 0) measured.append(", ");
        measured.append(e.getKey().transmissionMethod().number()).append(String.format(Locale.ROOT, " = %.2f",
            e.getValue() / 1e6));
      }
      StringBuilder model = new StringBuilder();
      for (MethodCost cost : c.verdict().choice().costs()) {
        if (!cost.possible()) continue;
        if (model.length() > 0) model.append(", ");
        model.append(cost.method().number()).append(String.format(Locale.ROOT, " = %.2f", cost.totalPs() / 1e6));
      }
      System.out.printf(Locale.ROOT, "| %s | %s | %d | %s | %s | %.2f | %.2f | %s | %s | %s | %s |%n",
          c.replicated() ? "replicated" : "distinct", sizeName(c.sizeBytes()), c.ratio(), c.chosen().configName(),
          c.verdict().fastest().configName(), c.verdict().chosenPs() / 1e6, c.verdict().fastestPs() / 1e6,
          c.hit() ? "yes" : "no", c.hit() ? "" : String.format(Locale.ROOT, "%.2f %%", c.slowerPercent()), measured,
          model);
    }
    double share = cells.isEmpty() ? 0 : (double) hits / cells.size();
    System.out.println();
    System.out.printf(Locale.ROOT, "%s: the choice is the measured fastest in %d of %d cells (%.1f %%); %d runs, "
        + "%d events, %.1f s%n%n", grid.key(), hits, cells.size(), 100 * share, 2 * ratios.size(), events,
        wallSeconds);
    return share;
  }

  /** Sizes down, ratios across: the choice's number, = or ≠ the fastest's, and how much slower a miss is. */
  private static void printMatrix(List<Cell> cells, List<Integer> ratios, boolean replicated) {
    System.out.println((replicated ? "Replicated (stage-collective allreduce)" : "Distinct (stage-collective none)")
        + ": the model's choice / the measured fastest (method numbers), a miss with the choice's excess");
    System.out.println();
    StringBuilder header = new StringBuilder("| size |");
    StringBuilder rule = new StringBuilder("|---|");
    for (int r : ratios) {
      header.append(" ").append(r).append(" : 1 |");
      rule.append("---|");
    }
    System.out.println(header);
    System.out.println(rule);
    TreeSet<Long> sizes = new TreeSet<>();
    cells.forEach(c -> sizes.add(c.sizeBytes()));
    for (long size : sizes) {
      StringBuilder row = new StringBuilder("| ").append(sizeName(size)).append(" |");
      for (int r : ratios) {
        Cell c = cells.stream().filter(x -> x.sizeBytes() == size && x.ratio() == r && x.replicated() == replicated)
            .findFirst().orElse(null);
        if (c == null) {
          row.append(" |");
          continue;
        }
        int chosen = c.chosen().transmissionMethod().number();
        int fastest = c.verdict().fastest().transmissionMethod().number();
        row.append(c.hit() ? String.format(Locale.ROOT, " %d / %d |", chosen, fastest)
            : String.format(Locale.ROOT, " **%d / %d** (+%.1f %%) |", chosen, fastest, c.slowerPercent()));
      }
      System.out.println(row);
    }
    System.out.println();
  }

  private static List<Integer> parseRatios(String arg) {
    List<Integer> ratios = new ArrayList<>();
    for (String s : arg.substring("--ratios=".length()).split(",")) {
      try {
        int r = Integer.parseInt(s.strip());
        if (r < 1) throw new NumberFormatException();
        ratios.add(r);
      } catch (NumberFormatException e) {
        System.err.println(arg + ": '" + s + "' is not a positive whole ratio");
        System.exit(2);
      }
    }
    return ratios;
  }

  private static List<Grid> parseGrids(String arg) {
    List<Grid> grids = new ArrayList<>();
    for (String s : arg.substring("--grids=".length()).split(",")) {
      Grid grid = GRIDS.stream().filter(g -> g.key().equals(s.strip())).findFirst().orElse(null);
      if (grid == null) {
        System.err.println(arg + ": unknown grid '" + s + "' (mesh, p2p or switch)");
        System.exit(2);
      }
      grids.add(grid);
    }
    return grids;
  }

  private static String sizeName(long sizeBytes) {
    if (sizeBytes >= 1 << 20 && sizeBytes % (1 << 20) == 0) return (sizeBytes >> 20) + " MiB";
    if (sizeBytes >= 1 << 10 && sizeBytes % (1 << 10) == 0) return (sizeBytes >> 10) + " KiB";
    return sizeBytes + " B";
  }
}
