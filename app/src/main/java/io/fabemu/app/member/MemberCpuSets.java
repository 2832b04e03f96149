package io.fabemu.app.member;

import io.fabemu.app.BadInputException;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * The CPUs each member JVM of a local run ({@code --members N}) is pinned to, from the environment variable
 * {@value #ENV}: one {@code taskset} CPU list per member JVM, separated by spaces, member 2 (the first JVM started;
 * the coordinator's own JVM is member 1) first, e.g. {@code FABEMU_MEMBER_CPUS="1 2-3"}. Each member JVM then starts
 * as {@code taskset -c LIST java ...}, so it runs on those CPUs from its first instruction and its
 * {@code availableProcessors} counts them. Unset or blank: no pinning. The coordinator's JVM is pinned by whoever
 * starts it ({@code taskset -c 0 bin/fabemu run ...}); {@code load-tests/run-parallel-benchmark.sh} pins the
 * coordinator and its members to disjoint CPUs this way.
 *
 * <p>Contract: {@link #parse} checks the whole value once (CPU lists of digits, commas and dashes; at least one list
 * per member JVM; lists beyond the members are ignored, so one value serves runs of several sizes) and refuses bad
 * input with one line naming the variable; {@link #wrap} only prefixes commands.
 */
public final class MemberCpuSets {
  /** The environment variable with the member JVMs' CPU lists. */
  static final String ENV = "FABEMU_MEMBER_CPUS";
  /** A CPU list as {@code taskset -c} takes it: {@code 3}, {@code 0-3}, {@code 0,2,4-7}. */
  private static final Pattern CPU_LIST = Pattern.compile("\\d{1,5}(-\\d{1,5})?(,\\d{1,5}(-\\d{1,5})?)*");

  /** CPU lists per member JVM, member 2 first; empty: no pinning. */
  private final List<String> cpuLists;

  private MemberCpuSets(List<String> cpuLists) {
    this.cpuLists = cpuLists;
  }

  /**
   * The CPU lists of {@code members} member JVMs from {@code value} (the variable's value, null when unset).
   *
   * @throws BadInputException when a list is malformed or there are fewer lists than member JVMs
   */
  static MemberCpuSets parse(String value, int members) {
    if (value == null || value.isBlank()) return new MemberCpuSets(List.of());
    List<String> lists = List.of(value.strip().split("\\s+"));
    for (String list : lists) {
      if (!CPU_LIST.matcher(list).matches()) {
        throw new BadInputException(ENV + "='" + value + "': '" + list + "' is not a CPU list (e.g. 3, 0-3, "
            + "0,2,4-7; one list per member JVM, separated by spaces)");
      }
    }
    if (lists.size() < members) {
      throw new BadInputException(ENV + "='" + value + "': " + lists.size() + " CPU list(s) for " + members
          + " member JVM(s); give one per member JVM, separated by spaces");
    }
    return new MemberCpuSets(List.copyOf(lists.subList(0, members)));
  }

  /** The lists of {@code members} member JVMs from this process's environment; see {@link #parse}. */
  public static MemberCpuSets fromEnvironment(int members) {
    return parse(System.getenv(ENV), members);
  }

  /**
   * The command of member JVM {@code index} (0 for member 2): {@code command} itself without pinning, else prefixed
   * with {@code taskset -c LIST}.
   */
  List<String> wrap(int index, List<String> command) {
    if (cpuLists.isEmpty()) return command;
    List<String> wrapped = new ArrayList<>(command.size() + 3);
    wrapped.add("taskset");
    wrapped.add("-c");
    wrapped.add(cpuLists.get(index));
    wrapped.addAll(command);
    return wrapped;
  }
}
