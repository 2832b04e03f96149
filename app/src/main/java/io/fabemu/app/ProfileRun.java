package io.fabemu.app;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import io.fabemu.cluster.scenario.LoadedScenario;
import io.fabemu.cluster.scenario.ScenarioException;
import io.fabemu.cluster.scenario.ScenarioLoader;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;

/**
 * A scenario made of a hardware profile and a benchmark command's options, for the commands named after a benchmark
 * ({@code all-reduce-perf}, ...): each option sets scenario keys ({@link #set}), laid over the profile, with the
 * command's {@link SetOverrides} under them (options win over {@code --set}, which wins over the profile), and the
 * whole checked by {@link ScenarioLoader} as any scenario file is.
 *
 * <p>Contract: {@link #load} returns the loaded scenario or throws one line of bad input (exit code 2). A value the
 * loader refuses that an option set is reported as {@code OPTION (KEY): reason}, naming the option as typed; one
 * that a {@code --set} gave is reworded by {@link SetOverrides#reword}; one from the profile keeps the loader's
 * {@code file:line: key: reason}.
 */
public final class ProfileRun {

  /** The value of a key and the option (as typed, e.g. {@code --nodes 4}) that set it. */
  private record Setting(Object value, String option) {}

  private final String origin;
  private final Map<String, Setting> settings = new LinkedHashMap<>();

  /** Settings whose values the loader's messages attribute to {@code origin} (e.g. {@code all-reduce-perf options}). */
  public ProfileRun(String origin) {
    this.origin = origin;
  }

  /** Sets {@code keyPath} to {@code value} (a HOCON value: number, string, list), on behalf of {@code option}. */
  public ProfileRun set(String keyPath, Object value, String option) {
    settings.put(keyPath, new Setting(value, option));
    return this;
  }

  /** The settings as key path to value, in the order they were set. */
  Map<String, Object> values() {
    Map<String, Object> values = new LinkedHashMap<>();
    settings.forEach((k, s) -> values.put(k, s.value()));
    return values;
  }

  /**
   * Loads {@code profile} with these settings over it and {@code sets} under them; {@code spec} is the command whose
   * bad arguments are reported.
   */
  public LoadedScenario load(Path profile, SetOverrides sets, CommandSpec spec) {
    Config overrides = ConfigFactory.parseMap(values(), origin).withFallback(sets.config());
    try {
      return ScenarioLoader.load(profile, overrides);
    } catch (ScenarioException e) {
      String option = e.line() > 0 || e.keyPath() == null ? null : optionOf(e.keyPath());
      if (option == null) throw sets.reword(e);
      throw new ParameterException(spec.commandLine(), option + " (" + e.keyPath() + "): " + e.reason());
    }
  }

  /**
   * The hosts of one server in {@code profile} as it stands, with {@code sets} laid over it
   * ({@link io.fabemu.core.topology.TopologySpec#hostsPerServer}: a GPU server's GPUs, an optical cluster's NPUs; 1
   * where a host is a server of its own), so that a command can say what its node count and ranks per node mean
   * before it sets them; a profile the loader refuses is reported as {@link #load} reports it.
   */
  public static int hostsPerServer(Path profile, SetOverrides sets) {
    try {
      return ScenarioLoader.load(profile, sets.config()).spec().topology().hostsPerServer();
    } catch (ScenarioException e) {
      throw sets.reword(e);
    }
  }

  /** The option that set {@code keyPath} (or the list holding it), or null when none did. */
  String optionOf(String keyPath) {
    Setting s = settings.get(keyPath.replaceAll("\\[\\d+]$", ""));
    return s == null ? null : s.option();
  }
}
