package io.fabemu.app.nccl;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The rules by which harnesses read nccl-tests' stdout, written here from their documented behaviour (not their
 * code), so that tests can hold fabemu's output to them:
 * <ul>
 *   <li>CloudAI's nccl_test workload: a run succeeded only if the output holds both {@code # Out of bounds values}
 *       and {@code # Avg bus bandwidth} (and no {@code Test failure}); its rows are the lines that, stripped, start
 *       with a digit and split on white space into exactly 13 fields; the device lines are those holding
 *       {@code Rank}, {@code device} and {@code NVIDIA}.</li>
 *   <li>SuperBench's nccl-bw benchmark: the table is what lies between the last line holding {@code out-of-place}
 *       and the last holding {@code Out of bounds values}; the column positions come from the first line there that
 *       holds {@code time} and {@code busbw}, counted from the end of the line (the out-of-place half by default,
 *       the in-place half from the end of the line); rows are the lines whose first field is a number, sizes 0
 *       left out.</li>
 *   <li>ReFrame-style checks: the first match of {@code # Avg bus bandwidth : VALUE}.</li>
 * </ul>
 * Each parser fails (throws) where its harness would mark the run failed or unreadable.
 */
final class NcclHarnessParsers {
  private static final Pattern LEADING_DIGIT = Pattern.compile("^\\d.*");
  private static final Pattern AVG_BUS_BANDWIDTH = Pattern.compile("# Avg bus bandwidth\\s+:\\s+(\\S+)");

  private NcclHarnessParsers() {}

  /** One table row as a harness keeps it: the size and the time, algbw and busbw of one half. */
  record Figures(long sizeBytes, double timeUs, double algBwGBps, double busBwGBps) {}

  /** CloudAI's success rule. */
  static boolean cloudAiSucceeded(String stdout) {
    return !stdout.contains("Test failure") && !stdout.contains("Test NCCL failure")
        && stdout.contains("# Out of bounds values") && stdout.contains("# Avg bus bandwidth");
  }

  /** CloudAI's rows: every stripped line starting with a digit that has exactly 13 fields. */
  static List<String[]> cloudAiRows(String stdout) {
    List<String[]> rows = new ArrayList<>();
    for (String line : stdout.split("\n", -1)) {
      String stripped = line.strip();
      if (!LEADING_DIGIT.matcher(stripped).matches()) continue;
      String[] parts = stripped.split("\\s+");
      if (parts.length == 13) rows.add(parts);
    }
    return rows;
  }

  /** CloudAI's count of device lines (it requires the GPU vendor's name in them). */
  static int cloudAiDeviceLines(String stdout) {
    return (int) stdout.lines().filter(l -> l.contains("Rank") && l.contains("device") && l.contains("NVIDIA"))
        .count();
  }

  /** SuperBench's reading of the last table: size to figures, the out-of-place half or the in-place one. */
  static Map<Long, Figures> superBench(String stdout, boolean inPlace) {
    List<String> lines = Arrays.asList(stdout.split("\n", -1));
    int outOfPlace = -1;
    int outOfBounds = -1;
    for (int i = 0; i < lines.size(); i++) {
      if (lines.get(i).contains("out-of-place")) outOfPlace = i;
      if (lines.get(i).contains("Out of bounds values")) outOfBounds = i;
    }
    if (outOfPlace < 0 || outOfBounds < 0 || outOfBounds < outOfPlace) {
      throw new IllegalStateException("SuperBench: no table between an out-of-place line and Out of bounds values");
    }
    List<String> content = lines.subList(outOfPlace + 1, outOfBounds);
    int size = -1;
    int time = 0;
    int algBw = 0;
    int busBw = 0;
    for (String line : content) {
      if (line.contains("time") && line.contains("busbw")) {
        List<String> names = Arrays.asList(line.substring(1).strip().split(" +"));
        size = names.indexOf("size");
        time = inPlace ? names.lastIndexOf("time") - names.size() : names.indexOf("time") - names.size();
        algBw = inPlace ? names.lastIndexOf("algbw") - names.size() : names.indexOf("algbw") - names.size();
        busBw = inPlace ? names.lastIndexOf("busbw") - names.size() : names.indexOf("busbw") - names.size();
        break;
      }
    }
    if (size < 0) throw new IllegalStateException("SuperBench: no column header with time and busbw");
    Map<Long, Figures> figures = new LinkedHashMap<>();
    for (String line : content) {
      String[] fields = line.strip().split(" +");
      if (fields.length == 0 || !fields[0].matches("\\d+.*")) continue;
      long bytes = Long.parseLong(fields[size]);
      if (bytes == 0) continue;
      figures.put(bytes, new Figures(bytes, Double.parseDouble(fields[fields.length + time]),
          Double.parseDouble(fields[fields.length + algBw]), Double.parseDouble(fields[fields.length + busBw])));
    }
    return figures;
  }

  /** The ReFrame-style reading: the first average bus bandwidth. */
  static double reframeAverageBusBandwidth(String stdout) {
    Matcher m = AVG_BUS_BANDWIDTH.matcher(stdout);
    if (!m.find()) throw new IllegalStateException("ReFrame: no '# Avg bus bandwidth' line");
    return Double.parseDouble(m.group(1));
  }
}
