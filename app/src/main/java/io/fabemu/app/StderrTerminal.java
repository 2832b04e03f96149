package io.fabemu.app;

import java.io.Console;
import java.lang.reflect.Method;

/**
 * Whether stderr is a terminal, for the progress bar: its {@code \r} frames belong on a screen, never in a file or a
 * pipe. Java 17 cannot ask about stderr alone, so the answer comes, in this order, from the system property
 * {@value #PROPERTY} ({@code true} or {@code false}; {@code bin/fabemu} sets it from the shell's {@code [ -t 2 ]}),
 * else from the JVM's console: present when stdin and stdout are terminals (and, from Java 22 on, only when
 * {@code Console.isTerminal()} says so, since there a console exists even when they are redirected).
 *
 * <p>Contract: control plane only; reads the property and the console each time it is asked.
 */
final class StderrTerminal {
  /** The system property that says whether stderr is a terminal. */
  static final String PROPERTY = "fabemu.stderr-tty";

  private StderrTerminal() {}

  /**
   * Whether stderr is a terminal, as this JVM's {@value #PROPERTY} and console say.
   *
   * @throws BadInputException when the property is set to something other than {@code true} or {@code false}
   */
  static boolean detect() {
    return decide(System.getProperty(PROPERTY), System.console());
  }

  /** Whether stderr is a terminal: from {@code property} ({@value #PROPERTY}; null: unset), else {@code console}. */
  static boolean decide(String property, Console console) {
    if (property != null) {
      String value = property.strip();
      if (value.equalsIgnoreCase("true")) return true;
      if (value.equalsIgnoreCase("false")) return false;
      throw new BadInputException("-D" + PROPERTY + " must be true or false, not '" + property + "'");
    }
    return console != null && isTerminal(console);
  }

  /** {@code Console.isTerminal()} where the JVM has it (Java 22 on); true before, where a console means a terminal. */
  private static boolean isTerminal(Console console) {
    try {
      Method isTerminal = Console.class.getMethod("isTerminal");
      return (Boolean) isTerminal.invoke(console);
    } catch (NoSuchMethodException e) {
      return true;
    } catch (ReflectiveOperationException | RuntimeException e) {
      return false;
    }
  }
}
