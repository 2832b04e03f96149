package io.fabemu.loadtests;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import io.fabemu.cluster.scenario.ScenarioLoader;
import io.fabemu.fabric.Fabric;
import io.fabemu.fabric.ScenarioSpec;
import io.fabemu.fabric.result.CaseResult;
import io.fabemu.fabric.result.RunResult;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * Compares a hardware profile with the published osu_allreduce table of the INC paper
 * ({@code reference/inc-allreduce-4nodes.csv}: 4 nodes, PPN 8/32/64, 4-256 B, host vs INC Node vs INC
 * Socket), and fits the profile's physical delays to it.
 *
 * <p>{@code check PROFILE CSV}: emulates every cell (osu_allreduce as {@code fabemu osu-allreduce} runs it: float
 * sum, sizes in bytes), prints the table side by side with the per-cell error, the mean absolute percentage error
 * (MAPE) and how many host-vs-INC orderings (per PPN, size and INC mode: is INC faster than host?) match; exits 1
 * when the MAPE is above 10 % or fewer than 90 % of the orderings match.
 *
 * <p>{@code predict PROFILE CSV NODES}: the same cells emulated on another node count, printed in the CSV's layout
 * (the profile's prediction, e.g. for the paper's 9- and 16-node tables kept aside as an independent check).
 *
 * <p>{@code fit PROFILE CSV [ROUNDS]}: coordinate descent in log space over the parameters of {@link #PARAMETERS}
 * (each tried at x/f and x*f for a shrinking factor f, kept when the MAPE drops), starting from the profile's
 * values; prints the best values as HOCON to paste into the profile. Only physical delays are fitted, never a
 * per-cell constant, so the profile predicts other node counts.
 */
public final class Calibration {
  /** The delays the fit may change: HOCON path and unit. */
  static final List<Parameter> PARAMETERS = List.of(
      new Parameter("devices.host.send-overhead", "ns"),
      new Parameter("devices.host.recv-overhead", "ns"),
      new Parameter("devices.host.memory-latency", "ns"),
      new Parameter("devices.host.shm-message-occupancy", "ns"),
      new Parameter("devices.host.cross-socket-latency", "ns"),
      new Parameter("devices.host.reduce-rate", "MBps"),
      new Parameter("devices.host.memory-bandwidth", "MBps"),
      new Parameter("devices.host.pcie-latency", "ns"),
      new Parameter("devices.nic.per-message-overhead", "ns"),
      new Parameter("devices.switch.pipeline-latency", "ns"),
      new Parameter("devices.inc.tor.unit-latency", "ns"),
      new Parameter("devices.inc.spine.unit-latency", "ns"),
      new Parameter("devices.inc.nic.engine-latency", "ns"));

  /** The modes of the table, as {@code fabemu osu-allreduce --mode} names them, and the algorithm each runs. */
  static final Map<String, String> MODES = modes();

  record Parameter(String path, String unit) {}

  /** One cell of the table: mode, PPN, size, and the published average latency. */
  record Cell(String mode, int ppn, long sizeBytes, double referenceUs) {}

  /** Emulated and published latency of every cell, with the summary figures. */
  record Comparison(List<Cell> cells, double[] emulatedUs, double mapePercent, int orderingsRight,
                    int orderings) {}

  private Calibration() {}

  private static Map<String, String> modes() {
    Map<String, String> m = new LinkedHashMap<>();
    m.put("host", "auto");
    m.put("inc-node", "inc-node");
    m.put("inc-socket", "inc-socket");
    return m;
  }

  /** Reads the 4-node table: columns {@code <mode>_ppn<P>}, one row per size. */
  static List<Cell> readReference(Path csv) throws IOException {
    List<Cell> cells = new ArrayList<>();
    String[] header = null;
    for (String line : Files.readAllLines(csv)) {
      if (line.isBlank() || line.startsWith("#")) continue;
      String[] fields = line.split(",");
      if (header == null) {
        header = fields;
        continue;
      }
      long bytes = Long.parseLong(fields[1].strip());
      for (int c = 2; c < fields.length; c++) {
        String column = header[c].strip();
        int split = column.lastIndexOf("_ppn");
        String mode = column.substring(0, split).replace('_', '-');
        int ppn = Integer.parseInt(column.substring(split + 4));
        cells.add(new Cell(mode, ppn, bytes, Double.parseDouble(fields[c].strip())));
      }
    }
    return cells;
  }

  /** Emulates every cell with {@code profile} and {@code overrides}, on {@code nodes} nodes, in parallel. */
  static Comparison compare(Path profile, Config overrides, List<Cell> cells, int nodes) throws Exception {
    Map<String, List<Cell>> byRun = new LinkedHashMap<>();
    for (Cell cell : cells) byRun.computeIfAbsent(cell.mode() + "/" + cell.ppn(), k -> new ArrayList<>()).add(cell);
    int threads = Math.max(1, Math.min(byRun.size(), Runtime.getRuntime().availableProcessors()));
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    try {
      Map<String, Future<RunResult>> runs = new LinkedHashMap<>();
      for (Map.Entry<String, List<Cell>> e : byRun.entrySet()) {
        Cell first = e.getValue().get(0);
        List<Long> sizes = e.getValue().stream().map(Cell::sizeBytes).distinct().sorted().toList();
        ScenarioSpec spec = ScenarioLoader.load(profile, osuOverrides(first.mode(), first.ppn(), nodes, sizes)
            .withFallback(overrides)).spec();
        runs.put(e.getKey(), pool.submit(() -> Fabric.build(spec).runOnPlainEngine()));
      }
      double[] emulated = new double[cells.size()];
      for (int i = 0; i < cells.size(); i++) {
        Cell cell = cells.get(i);
        RunResult result = runs.get(cell.mode() + "/" + cell.ppn()).get();
        CaseResult c = result.cases().stream().filter(r -> r.sizeBytes() == cell.sizeBytes()).findFirst()
            .orElseThrow();
        if (c.wrongElements() != 0) {
          throw new IllegalStateException(cell + ": " + c.wrongElements() + " wrong elements");
        }
        emulated[i] = c.avgLatencyPs() / 1e6;
      }
      return summarize(cells, emulated);
    } finally {
      pool.shutdownNow();
    }
  }

  /** What {@code fabemu osu-allreduce} lays over a profile for one run. */
  static Config osuOverrides(String mode, int ppn, int nodes, List<Long> sizes) {
    Map<String, Object> o = new LinkedHashMap<>();
    o.put("topology.hosts", nodes);
    o.put("workload.collective", "allreduce");
    o.put("workload.algorithms", List.of(MODES.get(mode)));
    o.put("workload.ppn", ppn);
    o.put("workload.datatype", "float32");
    o.put("workload.op", "sum");
    o.put("workload.sizes", sizes.stream().map(s -> s + " B").toList());
    // Virtual time is deterministic: after the warm-up every iteration takes the same time.
    o.put("workload.iterations", 2);
    o.put("workload.warmup", 1);
    return ConfigFactory.parseMap(o, "calibration");
  }

  static Comparison summarize(List<Cell> cells, double[] emulated) {
    double sum = 0;
    for (int i = 0; i < cells.size(); i++) {
      sum += Math.abs(emulated[i] - cells.get(i).referenceUs()) / cells.get(i).referenceUs();
    }
    int right = 0;
    int total = 0;
    for (int i = 0; i < cells.size(); i++) {
      Cell inc = cells.get(i);
      if (inc.mode().equals("host")) continue;
      for (int j = 0; j < cells.size(); j++) {
        Cell host = cells.get(j);
        if (!host.mode().equals("host") || host.ppn() != inc.ppn() || host.sizeBytes() != inc.sizeBytes()) continue;
        total++;
        boolean publishedIncFaster = inc.referenceUs() < host.referenceUs();
        boolean emulatedIncFaster = emulated[i] < emulated[j];
        if (publishedIncFaster == emulatedIncFaster) right++;
      }
    }
    return new Comparison(cells, emulated, 100 * sum / cells.size(), right, total);
  }

  static String table(Comparison c) {
    StringBuilder out = new StringBuilder();
    out.append(String.format(Locale.ROOT, "%-11s %4s %6s %10s %10s %8s%n", "mode", "ppn", "bytes", "paper_us",
        "fabemu_us", "error"));
    for (int i = 0; i < c.cells().size(); i++) {
      Cell cell = c.cells().get(i);
      double err = 100 * (c.emulatedUs()[i] - cell.referenceUs()) / cell.referenceUs();
      out.append(String.format(Locale.ROOT, "%-11s %4d %6d %10.2f %10.2f %+7.1f%%%n", cell.mode(), cell.ppn(),
          cell.sizeBytes(), cell.referenceUs(), c.emulatedUs()[i], err));
    }
    out.append(String.format(Locale.ROOT, "MAPE %.2f %% over %d cells; host-vs-INC orderings right: %d of %d "
        + "(%.0f %%)%n", c.mapePercent(), c.cells().size(), c.orderingsRight(), c.orderings(),
        100.0 * c.orderingsRight() / c.orderings()));
    return out.toString();
  }

  /** Emulated latencies in the reference CSV's layout (one row per size, one column per mode and PPN). */
  static String predictionTable(Comparison c, int nodes) {
    List<String> columns = new ArrayList<>();
    List<Long> sizes = new ArrayList<>();
    for (Cell cell : c.cells()) {
      String column = cell.mode().replace('-', '_') + "_ppn" + cell.ppn();
      if (!columns.contains(column)) columns.add(column);
      if (!sizes.contains(cell.sizeBytes())) sizes.add(cell.sizeBytes());
    }
    StringBuilder out = new StringBuilder("nodes,bytes," + String.join(",", columns) + "\n");
    for (long size : sizes) {
      out.append(nodes).append(',').append(size);
      for (String column : columns) {
        for (int i = 0; i < c.cells().size(); i++) {
          Cell cell = c.cells().get(i);
          if (cell.sizeBytes() == size && column.equals(cell.mode().replace('-', '_') + "_ppn" + cell.ppn())) {
            out.append(String.format(Locale.ROOT, ",%.2f", c.emulatedUs()[i]));
          }
        }
      }
      out.append('\n');
    }
    return out.toString();
  }

  /** The profile's value of every parameter, in the parameter's unit. */
  static double[] startingPoint(Path profile) {
    Config merged = ConfigFactory.parseFile(profile.toFile()).withFallback(ScenarioLoader.defaults()).resolve();
    double[] x = new double[PARAMETERS.size()];
    for (int i = 0; i < x.length; i++) {
      String raw = merged.getString(PARAMETERS.get(i).path()).strip();
      x[i] = Double.parseDouble(raw.replaceAll("[^0-9.eE+-].*$", "").strip());
    }
    return x;
  }

  static Config overridesOf(double[] x) {
    Map<String, Object> o = new LinkedHashMap<>();
    for (int i = 0; i < x.length; i++) {
      Parameter p = PARAMETERS.get(i);
      o.put(p.path(), String.format(Locale.ROOT, "%.0f %s", Math.max(x[i], 0), p.unit()));
    }
    return ConfigFactory.parseMap(o, "calibration fit");
  }

  public static void main(String[] args) throws Exception {
    if (args.length < 3 || !List.of("check", "fit", "predict").contains(args[0])) {
      System.err.println("usage: Calibration check|fit|predict PROFILE REFERENCE_CSV [ROUNDS | NODES]");
      System.exit(2);
    }
    Path profile = Path.of(args[1]);
    List<Cell> cells = readReference(Path.of(args[2]));
    if (args[0].equals("predict")) {
      // The same cells on another node count: the profile's prediction, in the reference table's layout.
      int nodes = args.length > 3 ? Integer.parseInt(args[3]) : 16;
      Comparison c = compare(profile, ConfigFactory.empty(), cells, nodes);
      System.out.println(predictionTable(c, nodes));
      return;
    }
    if (args[0].equals("check")) {
      Comparison c = compare(profile, ConfigFactory.empty(), cells, 4);
      System.out.print(table(c));
      boolean met = c.mapePercent() <= 10.0 && c.orderingsRight() * 10 >= c.orderings() * 9;
      System.out.println(met ? "calibration bar met" : "calibration bar NOT met (MAPE <= 10 %, orderings >= 90 %)");
      System.exit(met ? 0 : 1);
    }
    int rounds = args.length > 3 ? Integer.parseInt(args[3]) : 6;
    double[] best = startingPoint(profile);
    double bestMape = compare(profile, overridesOf(best), cells, 4).mapePercent();
    System.out.printf(Locale.ROOT, "start: MAPE %.2f %%%n", bestMape);
    double factor = 2.0;
    for (int round = 0; round < rounds; round++) {
      for (int i = 0; i < best.length; i++) {
        for (double f : new double[] {factor, 1 / factor}) {
          double[] trial = best.clone();
          // A parameter at 0 can only grow; start it from a small value.
          trial[i] = best[i] == 0 ? (f > 1 ? 10 : 0) : best[i] * f;
          if (trial[i] == best[i]) continue;
          double mape = compare(profile, overridesOf(trial), cells, 4).mapePercent();
          if (mape < bestMape) {
            bestMape = mape;
            best = trial;
            System.out.printf(Locale.ROOT, "round %d: %s -> %.0f %s: MAPE %.2f %%%n", round,
                PARAMETERS.get(i).path(), best[i], PARAMETERS.get(i).unit(), bestMape);
          }
        }
      }
      factor = Math.sqrt(factor);
    }
    System.out.println("# best fit, MAPE " + String.format(Locale.ROOT, "%.2f", bestMape) + " %");
    for (int i = 0; i < best.length; i++) {
      System.out.printf(Locale.ROOT, "%s = %.0f %s%n", PARAMETERS.get(i).path(), best[i], PARAMETERS.get(i).unit());
    }
    System.out.print(table(compare(profile, overridesOf(best), cells, 4)));
  }
}
