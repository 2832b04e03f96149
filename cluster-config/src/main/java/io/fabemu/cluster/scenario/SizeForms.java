package io.fabemu.cluster.scenario;

import com.typesafe.config.Config;
import java.util.List;
import java.util.Set;

/**
 * The two forms of a workload's message sizes, a list ({@code workload.sizes}) and a range ({@code workload.min-size}
 * and {@code workload.max-size}), across the layers a scenario is made of. The rule: within one layer, giving both
 * forms is refused ({@link WorkloadSection}); across layers, the later layer's form wins and the other form of the
 * layers before it is dropped. The layers, first to last: the files the scenario includes, the scenario file itself,
 * the command line ({@code --set}, {@code --vary}, the options of the OSU and nccl-tests commands). So a profile that
 * includes a base with {@code min-size}/{@code max-size} may list {@code sizes}, and {@code --set
 * workload.sizes=[8,16]} replaces a file's range (and {@code --set workload.max-size=...} a file's list).
 *
 * <p>Contract: pure; returns the configuration unchanged when no later layer gives a form. Files included by
 * included files are one layer with them (both forms there are refused).
 */
final class SizeForms {
  static final String LIST = "workload.sizes";
  static final List<String> RANGE = List.of("workload.min-size", "workload.max-size");

  private SizeForms() {}

  /** {@code file} without the form that {@code overrides} replaces: the command line is the last layer. */
  static Config underOverrides(Config file, Config overrides) {
    boolean list = overrides.hasPath(LIST);
    boolean range = RANGE.stream().anyMatch(overrides::hasPath);
    // Neither (nothing replaced), both (refused), or both forms in the file (refused where the file says so).
    if (list == range || (file.hasPath(LIST) && RANGE.stream().anyMatch(file::hasPath))) return file;
    return list ? without(file, RANGE) : without(file, List.of(LIST));
  }

  /**
   * {@code file} (the scenario with its includes merged in) without the form of the included files that the
   * scenario file itself replaces; {@code includedFiles} as its values' origins describe them.
   */
  static Config overIncludes(Config file, Set<String> includedFiles) {
    if (includedFiles.isEmpty()) return file;
    boolean listHere = writtenInFile(file, LIST, includedFiles);
    boolean rangeHere = RANGE.stream().anyMatch(path -> writtenInFile(file, path, includedFiles));
    boolean listIncluded = file.hasPath(LIST) && !listHere;
    boolean rangeIncluded = RANGE.stream().anyMatch(path -> file.hasPath(path)
        && !writtenInFile(file, path, includedFiles));
    // Both forms in one layer stay for the workload's check to refuse.
    if ((listHere && rangeHere) || (listIncluded && rangeIncluded)) return file;
    if (listHere && rangeIncluded) return without(file, RANGE);
    if (rangeHere && listIncluded) return without(file, List.of(LIST));
    return file;
  }

  /** Whether {@code path} is set in the scenario file itself, not in one of {@code includedFiles}. */
  private static boolean writtenInFile(Config config, String path, Set<String> includedFiles) {
    if (!config.hasPath(path)) return false;
    String description = config.getValue(path).origin().description().replaceFirst(": \\d+(-\\d+)?$", "");
    return !includedFiles.contains(description);
  }

  private static Config without(Config config, List<String> paths) {
    Config result = config;
    for (String path : paths) result = result.withoutPath(path);
    return result;
  }
}
