package io.fabemu.app;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The progress bar shows on a terminal only: {@code bin/fabemu} says whether stderr is one
 * ({@code -Dfabemu.stderr-tty}); {@code --progress} shows it anyway, {@code --no-progress} never. The run's wall
 * clock advances two seconds per reading, past the bar's delay, so a bar that may show does.
 */
class ProgressOptionsTest {
  @TempDir
  Path dir;

  private String stderr;

  @AfterEach
  void clearProperty() {
    System.clearProperty(StderrTerminal.PROPERTY);
  }

  private int fabemu(String... args) throws Exception {
    Path scenario = dir.resolve("tiny.conf");
    Files.writeString(scenario, Fixtures.TINY_SCENARIO);
    String[] full = new String[args.length + 2];
    full[0] = "run";
    full[1] = scenario.toString();
    System.arraycopy(args, 0, full, 2, args.length);
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    AtomicLong nanos = new AtomicLong();
    int code = Main.execute(full, new PrintStream(out, true, StandardCharsets.UTF_8),
        new PrintStream(err, true, StandardCharsets.UTF_8), new Fixtures.FakeExecutor(),
        () -> nanos.addAndGet(2_000_000_000L));
    stderr = err.toString(StandardCharsets.UTF_8);
    return code;
  }

  @Test
  void shouldShowNoBarWhenStderrIsNoTerminal() throws Exception {
    System.setProperty(StderrTerminal.PROPERTY, "false");
    assertThat(fabemu()).isZero();
    assertThat(stderr).doesNotContain("virtual").doesNotContain("\r");
  }

  @Test
  void shouldShowTheBarWhenStderrIsATerminal() throws Exception {
    System.setProperty(StderrTerminal.PROPERTY, "true");
    assertThat(fabemu()).isZero();
    assertThat(stderr).contains("fabemu").contains("virtual");
  }

  @Test
  void shouldShowTheBarWithProgressWhenStderrIsNoTerminal() throws Exception {
    System.setProperty(StderrTerminal.PROPERTY, "false");
    assertThat(fabemu("--progress")).isZero();
    assertThat(stderr).contains("virtual");
  }

  @Test
  void shouldShowNoBarWithNoProgressOnATerminal() throws Exception {
    System.setProperty(StderrTerminal.PROPERTY, "true");
    assertThat(fabemu("--no-progress")).isZero();
    assertThat(stderr).doesNotContain("virtual");
  }

  @Test
  void shouldExitTwoWithOneLineWhenBothOptionsAreGiven() throws Exception {
    assertThat(fabemu("--progress", "--no-progress")).isEqualTo(2);
    assertThat(stderr.lines().toList())
        .containsExactly("fabemu: --progress and --no-progress exclude each other");
  }

  @Test
  void shouldExitTwoWithOneLineWhenThePropertyIsNeitherTrueNorFalse() throws Exception {
    System.setProperty(StderrTerminal.PROPERTY, "sometimes");
    assertThat(fabemu()).isEqualTo(2);
    assertThat(stderr.lines().toList())
        .containsExactly("fabemu: -Dfabemu.stderr-tty must be true or false, not 'sometimes'");
  }
}
