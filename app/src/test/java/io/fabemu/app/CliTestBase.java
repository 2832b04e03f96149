package io.fabemu.app;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;

/** Scaffolding the CLI tests share: a temporary folder, one captured command line at a time, the tiny scenario. */
abstract class CliTestBase {

  @TempDir
  Path dir;

  /** What the last {@link #fabemu} call printed. */
  String stdout;
  String stderr;

  /** The executor scenarios run with; null runs the real ScenarioRunner. */
  abstract Main.ScenarioExecutor executor();

  int fabemu(String... args) {
    Fixtures.CliRun run = Fixtures.cli(executor(), args);
    stdout = run.stdout();
    stderr = run.stderr();
    return run.code();
  }

  Path tinyScenario() throws IOException {
    Path file = dir.resolve("tiny.conf");
    Files.writeString(file, Fixtures.TINY_SCENARIO);
    return file;
  }

  /** {@link Fixtures#TINY_PROFILE} in the temporary folder, for {@code fabemu osu-allreduce --profile}. */
  Path tinyProfile() throws IOException {
    Path file = dir.resolve("tiny-profile.conf");
    Files.writeString(file, Fixtures.TINY_PROFILE);
    return file;
  }
}
