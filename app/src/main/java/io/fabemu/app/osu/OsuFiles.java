package io.fabemu.app.osu;

import io.fabemu.collectives.Algorithm;
import io.fabemu.fabric.result.RunResult;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The OSU files of {@code --out DIR}: one per algorithm of the workload, {@code DIR/osu/<program>.<algorithm>.txt}
 * (e.g. {@code osu/osu_allreduce.ring.txt}, {@code osu/osu_latency.ping-pong.txt}, {@code osu/osu_bw.window.txt}),
 * each exactly the table the matching {@code fabemu osu-*} command prints for those cases ({@link OsuFormatter}): one
 * OMB table per file, so that a harness reading the file sees only that program's lines.
 *
 * <p>Contract: pure; the file names are relative to {@code DIR}, in workload order; an algorithm none of whose cases
 * finished (a run cut short) still gets its file, with no rows; send/recv over a ring gets none (no OMB program
 * measures it: it is nccl-tests' sendrecv_perf).
 */
public final class OsuFiles {
  /** The folder, under {@code DIR}, that holds the OSU files. */
  public static final String FOLDER = "osu";

  private OsuFiles() {}

  /** The file of the workload's {@code algorithm} of {@code result}, relative to the output folder. */
  static String fileName(RunResult result, Algorithm algorithm) {
    OsuBenchmark benchmark = OsuBenchmark.of(result.scenario().workload().collective(), algorithm);
    return FOLDER + "/" + benchmark.program() + "." + algorithm.configName() + ".txt";
  }

  /** Every OSU file of {@code result}: its name (relative to the output folder) and its text, with {@code columns}. */
  public static Map<String, String> files(RunResult result, OsuFormatter.Columns columns) {
    Map<String, String> files = new LinkedHashMap<>();
    for (Algorithm algorithm : result.scenario().workload().algorithms()) {
      // Send/recv over a ring is nccl-tests' figure; no OMB program prints it.
      if (!OsuBenchmark.measures(result.scenario().workload().collective(), algorithm)) continue;
      files.put(fileName(result, algorithm), OsuFormatter.table(result, algorithm, columns));
    }
    return files;
  }
}
