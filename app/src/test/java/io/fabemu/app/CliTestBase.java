package io.fabemu.app;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;

/** Scaffolding the CLI tests share: a temporary folder, one captured command line at a time, the tiny scenario. */
public abstract class CliTestBase {

  @TempDir
  public Path dir;

  /** What the last {@link #fabemu} call printed. */
  public String stdout;
  public String stderr;

  /** The executor scenarios run with; null runs the real ScenarioRunner. */
  protected abstract ScenarioExecutor executor();

  protected int fabemu(String... args) {
    Fixtures.CliRun run = Fixtures.cli(executor(), args);
    stdout = run.stdout();
    stderr = run.stderr();
    return run.code();
  }

  /**
   * {@code text} (what {@code validate} printed) without its last line, which must be the estimate ({@code #
   * Estimate: ...; this JVM has ...}, whose heap depends on the JVM): the lines before it are what the tests compare.
   */
  protected static String withoutEstimate(String text) {
    int last = text.lastIndexOf("# Estimate: ");
    if (last < 0 || (last > 0 && text.charAt(last - 1) != '\n') || !text.endsWith("\n")
        || text.indexOf('\n', last) != text.length() - 1 || !text.substring(last).contains("; this JVM has ")) {
      throw new AssertionError("no estimate line at the end of: " + text);
    }
    return text.substring(0, last);
  }

  protected Path tinyScenario() throws IOException {
    Path file = dir.resolve("tiny.conf");
    Files.writeString(file, Fixtures.TINY_SCENARIO);
    return file;
  }

  /** {@link Fixtures#TINY_PROFILE} in the temporary folder, for {@code fabemu osu-allreduce --profile}. */
  protected Path tinyProfile() throws IOException {
    Path file = dir.resolve("tiny-profile.conf");
    Files.writeString(file, Fixtures.TINY_PROFILE);
    return file;
  }
}
