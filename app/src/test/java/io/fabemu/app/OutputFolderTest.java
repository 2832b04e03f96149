package io.fabemu.app;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabemu.app.output.ResultsWriter;
import io.fabemu.cluster.scenario.ScenarioException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The {@code --out} folder under hostile conditions: an empty name, a file in its place, a run refused after the
 * folder was made, and, for real as root on a small tmpfs mounted in the temporary folder, a read-only folder and a
 * full one (before and during the run). Bad input is exit code 2 with one line and nothing written; a file that
 * cannot be written after the run is exit code 1 with one line naming it and its cause, and no half-written file
 * (nor a temporary one) is ever left.
 */
class OutputFolderTest extends CliTestBase {

  private final Fixtures.FakeExecutor fake = new Fixtures.FakeExecutor();
  /** Runs just before the fake run: what the file system does meanwhile. */
  private Runnable duringRun = () -> { };
  private Path mounted;

  @Override
  protected ScenarioExecutor executor() {
    return (spec, topology, listener) -> {
      duringRun.run();
      return fake.run(spec, topology, listener);
    };
  }

  @AfterEach
  void unmount() throws Exception {
    if (mounted != null) RootShell.check("umount", mounted.toString());
  }

  @ParameterizedTest
  @ValueSource(strings = {"run", "sweep", "traffic"})
  void shouldExitTwoWithOneLineAndWriteNothingWhenOutIsEmpty(String command) throws Exception {
    Path cwdResults = Path.of(ResultsWriter.JSON_FILE).toAbsolutePath();
    assertThat(cwdResults).doesNotExist();

    assertThat(fabemu(args(command, ""))).isEqualTo(ExitCodes.BAD_INPUT);

    assertThat(lines(stderr)).containsExactly("fabemu: --out '': the output folder has no name (give a folder, e.g. "
        + "--out results)");
    assertThat(stdout).isEmpty();
    assertThat(fake.ranSpec).isNull();
    assertThat(cwdResults).doesNotExist();
  }

  @ParameterizedTest
  @ValueSource(strings = {"run", "sweep", "traffic"})
  void shouldExitTwoWithOneLineAndLeaveTheFileAloneWhenOutIsAFile(String command) throws Exception {
    Path file = dir.resolve("taken");
    Files.writeString(file, "mine");

    assertThat(fabemu(args(command, file.toString()))).isEqualTo(ExitCodes.BAD_INPUT);

    assertThat(lines(stderr)).containsExactly("fabemu: --out " + file + ": a file of that name exists; the output "
        + "folder must be a folder");
    assertThat(stdout).isEmpty();
    assertThat(fake.ranSpec).isNull();
    assertThat(Files.readString(file)).isEqualTo("mine");
  }

  @Test
  void shouldRemoveTheFoldersItMadeWhenTheRunIsRefusedAsBadInputAfterMakingThem() throws Exception {
    Path out = dir.resolve("new/deeper/out");
    duringRun = () -> {
      assertThat(out).isDirectory();
      throw new ScenarioException("tiny.conf", 3, "workload.sizes", "too large for this machine");
    };

    assertThat(fabemu("run", tinyScenario().toString(), "--out", out.toString())).isEqualTo(ExitCodes.BAD_INPUT);

    assertThat(lines(stderr)).hasSize(1);
    assertThat(dir.resolve("new")).doesNotExist();
    assertThat(dir).isDirectory();
  }

  @Test
  void shouldKeepAFolderThatExistedBeforeWhenTheRunIsRefusedAsBadInput() throws Exception {
    Path out = dir.resolve("out");
    Files.createDirectories(out);
    Files.writeString(out.resolve("notes.txt"), "keep");
    duringRun = () -> {
      throw new BadInputException("refused");
    };

    assertThat(fabemu("run", tinyScenario().toString(), "--out", out.toString())).isEqualTo(ExitCodes.BAD_INPUT);

    assertThat(lines(stderr)).containsExactly("fabemu: refused");
    assertThat(fileNames(out)).containsExactly("notes.txt");
  }

  @Test
  void shouldExitTwoWithOneLineBeforeRunningWhenOutIsOnAReadOnlyFileSystem() throws Exception {
    Path out = mountTmpfs("ro,size=64k");

    assertThat(fabemu("run", tinyScenario().toString(), "--out", out.toString())).isEqualTo(ExitCodes.BAD_INPUT);

    assertThat(lines(stderr)).containsExactly("fabemu: cannot write to output folder " + out
        + ": read-only file system");
    assertThat(fake.ranSpec).isNull();
    assertThat(fileNames(out)).isEmpty();
  }

  @Test
  void shouldExitTwoWithOneLineAndMakeNothingWhenAFolderToMakeIsOnAReadOnlyFileSystem() throws Exception {
    Path mount = mountTmpfs("ro,size=64k");
    Path out = mount.resolve("a/b");

    assertThat(fabemu("run", tinyScenario().toString(), "--out", out.toString())).isEqualTo(ExitCodes.BAD_INPUT);

    assertThat(lines(stderr)).containsExactly("fabemu: cannot create output folder " + out
        + ": Read-only file system");
    assertThat(fake.ranSpec).isNull();
    assertThat(fileNames(mount)).isEmpty();
  }

  @Test
  void shouldNameEveryFileAndExitOneLeavingNothingWhenTheFolderTurnsReadOnlyDuringTheRun() throws Exception {
    Path out = mountTmpfs("size=64k");
    duringRun = () -> {
      try {
        RootShell.check("mount", "-o", "remount,ro", out.toString());
      } catch (InterruptedException e) {
        throw new IllegalStateException(e);
      }
    };

    assertThat(fabemu("run", tinyScenario().toString(), "--out", out.toString())).isEqualTo(ExitCodes.RUN_FAILED);

    assertThat(fake.ranSpec).isNotNull();
    assertThat(stdout).contains("digest feedbeef");
    List<String> errors = lines(stderr);
    assertThat(errors).isNotEmpty().allSatisfy(line -> assertThat(line).startsWith("fabemu: cannot write " + out
        + "/").endsWith(": Read-only file system"));
    assertThat(errors).contains("fabemu: cannot write " + out.resolve("results.json") + ": Read-only file system",
        "fabemu: cannot write " + out.resolve("results.csv") + ": Read-only file system");
    assertThat(fileNames(out)).isEmpty();
  }

  @Test
  void shouldNameTheFilesThatDidNotFitAndLeaveOnlyWholeFilesWhenTheFolderIsFull() throws Exception {
    // What every file holds when there is room: the files that fit must be these, byte for byte.
    Path roomy = dir.resolve("roomy");
    assertThat(fabemu("run", tinyScenario().toString(), "--out", roomy.toString())).isZero();
    Map<String, byte[]> whole = contents(roomy);
    long smallest = whole.values().stream().mapToLong(b -> b.length).min().orElseThrow();
    long largest = whole.values().stream().mapToLong(b -> b.length).max().orElseThrow();
    assertThat(largest).as("a file that cannot fit in 16 KiB").isGreaterThan(16 * 1024);

    Path out = mountTmpfs("size=64k");
    // Leave 16 KiB (tmpfs counts 4 KiB pages): room for the small files, not for the largest.
    fill(out.resolve("filler"), 48 * 1024);
    fake.ranSpec = null;

    assertThat(fabemu("run", tinyScenario().toString(), "--out", out.toString())).isEqualTo(ExitCodes.RUN_FAILED);

    List<String> errors = lines(stderr);
    assertThat(errors).isNotEmpty().allSatisfy(line -> assertThat(line).startsWith("fabemu: cannot write " + out
        + "/").endsWith(": No space left on device"));
    Map<String, byte[]> left = contents(out);
    left.remove("filler");
    assertThat(left.keySet()).noneMatch(name -> name.contains(".tmp"));
    assertThat(left).isNotEmpty();
    left.forEach((name, bytes) -> assertThat(bytes).as(name).isEqualTo(whole.get(name)));
    for (String name : whole.keySet()) {
      boolean named = errors.contains("fabemu: cannot write " + out.resolve(name) + ": No space left on device");
      assertThat(named).as(name + " is either written whole or named as not written")
          .isNotEqualTo(left.containsKey(name));
    }
    assertThat(smallest).isLessThan(16 * 1024);
  }

  private String[] args(String command, String out) throws IOException {
    switch (command) {
      case "sweep":
        return new String[] {"sweep", tinyScenario().toString(), "--vary", "seed=1,2", "--out", out};
      case "traffic":
        return new String[] {"traffic", trafficScenario().toString(), "--out", out};
      default:
        return new String[] {command, tinyScenario().toString(), "--out", out};
    }
  }

  private Path trafficScenario() throws IOException {
    Path file = dir.resolve("traffic.conf");
    Files.writeString(file, """
        name = traffic-out
        topology { kind = mesh, dimensions = [2, 2] }
        traffic {
          pattern = uniform, packet-flits = 4, offered-loads = [0.05]
          warmup-cycles = 10, measure-cycles = 10, drain-cycles = 10
        }
        """);
    return file;
  }

  /** Mounts a tmpfs with {@code options} on a new folder of the temporary folder; skips the test when it cannot. */
  private Path mountTmpfs(String options) throws Exception {
    String reason = RootShell.rootMissingReason();
    Path target = dir.resolve("mnt");
    Files.createDirectories(target);
    if (reason == null) {
      RootShell.Result r = RootShell.run(List.of("mount", "-t", "tmpfs", "-o", options, "tmpfs", target.toString()));
      if (r.code() != 0) reason = "mount -t tmpfs failed: " + r.output().strip();
    }
    if (reason != null) {
      System.out.println("OutputFolderTest: skipped, a real read-only or full folder " + reason);
      Assumptions.abort(reason);
    }
    mounted = target;
    return target;
  }

  private static void fill(Path file, int sizeBytes) throws IOException {
    Files.write(file, new byte[sizeBytes]);
  }

  /** Every regular file under {@code folder} by relative path, with its bytes. */
  private static Map<String, byte[]> contents(Path folder) throws IOException {
    Map<String, byte[]> files = new TreeMap<>();
    try (Stream<Path> walk = Files.walk(folder)) {
      for (Path p : walk.filter(Files::isRegularFile).toList()) {
        files.put(folder.relativize(p).toString(), Files.readAllBytes(p));
      }
    }
    return files;
  }

  private static List<String> fileNames(Path folder) throws IOException {
    try (Stream<Path> list = Files.list(folder)) {
      return list.map(p -> p.getFileName().toString()).sorted().toList();
    }
  }

  private static List<String> lines(String text) {
    return text.lines().toList();
  }
}
