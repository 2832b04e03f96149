package io.fabemu.app.member;

import java.util.List;
import java.util.Locale;
import java.util.OptionalLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The max heap of the member JVMs a local run ({@code --members N}) starts, for the pre-flight estimate: the last
 * {@code -Xmx} or {@code -XX:MaxHeapSize} of {@value LocalMembers#MEMBER_JAVA_OPTS_ENV} (the members' own options,
 * which come after the ones passed on from this JVM, so the JVM takes them), else this JVM's max heap (its
 * {@code -Xmx} is passed on to the members, and without one they get the same default on the same machine). Members
 * started elsewhere ({@code --seed-nodes}) are taken to have this JVM's heap unless that variable says otherwise.
 */
public final class MemberJvmHeap {
  /** {@code -Xmx4g}, {@code -XX:MaxHeapSize=4096m}, {@code -Xmx1073741824}. */
  private static final Pattern HEAP_OPTION = Pattern.compile("(?:-Xmx|-XX:MaxHeapSize=)(\\d{1,19})([kKmMgGtT]?)");

  private MemberJvmHeap() {}

  /** The members' heap from this process's environment, {@code thisJvmMaxHeapBytes} as the default. */
  public static long fromEnvironment(long thisJvmMaxHeapBytes) {
    return bytes(System.getenv(LocalMembers.MEMBER_JAVA_OPTS_ENV), thisJvmMaxHeapBytes);
  }

  /**
   * The members' heap given the variable's value ({@code memberJavaOpts}, null when unset) and this JVM's max heap.
   */
  static long bytes(String memberJavaOpts, long thisJvmMaxHeapBytes) {
    if (memberJavaOpts == null || memberJavaOpts.isBlank()) return thisJvmMaxHeapBytes;
    return heapOption(List.of(memberJavaOpts.strip().split("\\s+"))).orElse(thisJvmMaxHeapBytes);
  }

  /** The heap the last heap option of {@code options} sets, empty when none does (or it is malformed). */
  static OptionalLong heapOption(List<String> options) {
    OptionalLong heap = OptionalLong.empty();
    for (String option : options) {
      Matcher m = HEAP_OPTION.matcher(option);
      if (!m.matches()) continue;
      int shift = switch (m.group(2).toLowerCase(Locale.ROOT)) {
        case "k" -> 10;
        case "m" -> 20;
        case "g" -> 30;
        case "t" -> 40;
        default -> 0;
      };
      try {
        long value = Long.parseLong(m.group(1));
        if (value <= Long.MAX_VALUE >> shift) heap = OptionalLong.of(value << shift);
      } catch (NumberFormatException e) {
        // Beyond a long: the JVM refuses it too; the default stands.
      }
    }
    return heap;
  }
}
