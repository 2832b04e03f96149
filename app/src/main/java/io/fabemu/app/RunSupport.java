package io.fabemu.app;

import com.typesafe.config.Config;
import io.fabemu.app.member.LocalMembers;
import io.fabemu.app.member.MemberJvmHeap;
import io.fabemu.app.nccl.NcclTestsReport;
import io.fabemu.app.osu.OsuFiles;
import io.fabemu.app.osu.OsuFormatter;
import io.fabemu.app.output.LatencyPlot;
import io.fabemu.app.output.ResultsWriter;
import io.fabemu.app.report.PrismSection;
import io.fabemu.app.report.ReportSection;
import io.fabemu.app.report.RunReport;
import io.fabemu.cluster.ScenarioRunner;
import io.fabemu.cluster.scenario.MemberHeapEstimate;
import io.fabemu.cluster.scenario.ResourceEstimate;
import io.fabemu.cluster.scenario.ScenarioException;
import io.fabemu.core.topology.Topology;
import io.fabemu.fabric.ScenarioSpec;
import io.fabemu.fabric.result.RunResult;
import java.awt.AWTError;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * The steps of {@link CommandPipeline} (behind {@code run}, the {@code osu-*} commands and the nccl-tests programs):
 * the output folder, the run with its progress bar, the result files and the exit code of a finished run.
 *
 * <p>Contract: bad input (an output folder that cannot be made or written, an empty name, a file in its place) is a
 * {@link BadInputException} (exit code 2) thrown before anything runs. Once a run is over, every result file is
 * tried ({@code results.json}, {@code results.csv}, {@code latency.svg}, {@code latency.png}, on a prism
 * {@code links-prism.svg}, {@code report.html}, the tool-format reports of {@link #reportFiles} and the OSU files
 * {@code osu/<program>.<algorithm>.txt}), each written atomically; one that cannot be written is named on one line
 * on stderr and makes the exit code {@value ExitCodes#RUN_FAILED}, without costing the others. A
 * plot that cannot be drawn at all (no fonts or AWT on the machine) is a one-line warning only: it pictures tables
 * the other files hold. Nothing here writes to stdout.
 */
public final class RunSupport {

  /**
   * What a command draws of its run: the title (of the plot and the report), the plot's series, and the report
   * sections the command adds after the curves (the nccl-tests programs' published curve).
   */
  public record Plot(String title, List<LatencyPlot.Series> series, List<ReportSection> sections) {
    public Plot {
      series = List.copyOf(series);
      sections = List.copyOf(sections);
    }

    /** A plot whose command adds no report section. */
    public Plot(String title, List<LatencyPlot.Series> series) {
      this(title, series, List.of());
    }
  }

  /** A report file written beside {@code results.json}: its path inside the output folder and its text. */
  public record ReportFile(String relativePath, String content) {}

  /** Above this share of the JVM's max heap the estimate is a warning: the run may collect for ever or not fit. */
  static final double TIGHT_HEAP_SHARE = 0.8;

  /** Above this many estimated wall seconds the estimate is a warning that the run will be long. */
  static final double LONG_RUN_SECONDS = 600;

  private RunSupport() {}

  /** Builds the topology of a checked scenario (no devices); a topology the builder refuses is bad input too. */
  static Topology buildTopology(ScenarioSpec spec) {
    try {
      return spec.topology().build();
    } catch (IllegalArgumentException e) {
      throw new ScenarioException(spec.source(), 0, "topology", e.getMessage());
    }
  }

  /**
   * The pre-flight check, made before anything is built or written: refuses {@code spec} (bad input, exit code 2)
   * when its {@link ResourceEstimate} for this JVM of a run on {@code members} members (the whole run on one member;
   * on several, the fullest member's share with every rank's results: {@link MemberHeapEstimate}) is above
   * {@code maxHeapBytes} (this JVM's {@code Runtime.maxMemory()}), or a member JVM's share is above their heap
   * ({@link MemberJvmHeap#fromEnvironment}: {@code FABEMU_MEMBER_JAVA_OPTS}' {@code -Xmx}, else this JVM's). The
   * refusal says on how many members of that heap the scenario fits. It returns the warnings (one line each, the
   * run goes on) when a JVM's share is above {@value #TIGHT_HEAP_SHARE} of its heap or the events will take more
   * than {@value #LONG_RUN_SECONDS} s at the measured rate. The caller prints them once the topology is built, so
   * that a scenario refused there still gets exactly one line. {@code --skip-estimate} ({@code skip}) checks
   * nothing.
   */
  static List<String> checkEstimate(ScenarioSpec spec, int members, boolean skip, long maxHeapBytes) {
    return checkEstimate(spec, members, skip, maxHeapBytes, MemberJvmHeap.fromEnvironment(maxHeapBytes));
  }

  /** {@link #checkEstimate(ScenarioSpec, int, boolean, long)} with the member JVMs' heap given. */
  static List<String> checkEstimate(ScenarioSpec spec, int members, boolean skip, long maxHeapBytes,
                                    long memberHeapBytes) {
    if (skip) return List.of();
    MemberHeapEstimate perMember = MemberHeapEstimate.of(spec);
    int n = Math.max(1, members);
    long heap = perMember.coordinatorHeapBytes(n);
    long memberHeap = perMember.memberHeapBytes(n);
    String share = n > 1 ? " per member on " + n + " members" : "";
    if (heap > maxHeapBytes) {
      throw new BadInputException(spec.source() + ": needs about " + ResourceEstimate.formatBytes(heap)
          + " of heap" + share + ", this JVM has " + ResourceEstimate.formatBytes(maxHeapBytes) + "; "
          + fitsOn(perMember, maxHeapBytes, memberHeapBytes, "FABEMU_JAVA_OPTS"));
    }
    if (n > 1 && memberHeap > memberHeapBytes) {
      throw new BadInputException(spec.source() + ": needs about " + ResourceEstimate.formatBytes(memberHeap)
          + " of heap" + share + ", the member JVMs have " + ResourceEstimate.formatBytes(memberHeapBytes) + "; "
          + fitsOn(perMember, maxHeapBytes, memberHeapBytes, LocalMembers.MEMBER_JAVA_OPTS_ENV));
    }
    List<String> warnings = new ArrayList<>();
    if (heap > TIGHT_HEAP_SHARE * maxHeapBytes) {
      warnings.add("fabemu: warning: " + spec.source() + ": needs about " + ResourceEstimate.formatBytes(heap)
          + " of heap" + share + ", " + Math.round(100.0 * heap / maxHeapBytes) + " % of this JVM's "
          + ResourceEstimate.formatBytes(maxHeapBytes) + "; it may run slowly or out of memory (raise -Xmx with "
          + "FABEMU_JAVA_OPTS)");
    }
    if (n > 1 && memberHeap > TIGHT_HEAP_SHARE * memberHeapBytes) {
      warnings.add("fabemu: warning: " + spec.source() + ": needs about " + ResourceEstimate.formatBytes(memberHeap)
          + " of heap" + share + ", " + Math.round(100.0 * memberHeap / memberHeapBytes) + " % of the member "
          + "JVMs' " + ResourceEstimate.formatBytes(memberHeapBytes) + "; they may run slowly or out of memory "
          + "(raise -Xmx with FABEMU_MEMBER_JAVA_OPTS)");
    }
    ResourceEstimate estimate = perMember.estimate();
    if (estimate.seconds() > LONG_RUN_SECONDS) {
      warnings.add("fabemu: warning: " + spec.source() + ": a long run: " + estimate.summary());
    }
    return warnings;
  }

  /** What a refused run can do: where it fits ({@link #fitsOn}), or raise the heap named by {@code heapVariable}. */
  private static String fitsOn(MemberHeapEstimate perMember, long maxHeapBytes, long memberHeapBytes,
                               String heapVariable) {
    String fits = fitsOn(perMember, maxHeapBytes, memberHeapBytes);
    return fits + (fits.startsWith("fits") ? ", or " : "; ") + "raise -Xmx (" + heapVariable + ") or shrink ranks, "
        + "sizes or iterations (--skip-estimate runs it anyway)";
  }

  /**
   * On how many members the run fits, this JVM holding {@code maxHeapBytes} and every other member
   * {@code memberHeapBytes}: {@code fits on 7 members of 4.0 GiB (--members 7)}, {@code fits on this JVM alone
   * (--members 1)}, or {@code too large even for 128 members of 4.0 GiB (the most its placement allows)}.
   */
  static String fitsOn(MemberHeapEstimate perMember, long maxHeapBytes, long memberHeapBytes) {
    String of = " of " + ResourceEstimate.formatBytes(memberHeapBytes);
    OptionalInt needed = perMember.membersNeeded(maxHeapBytes, memberHeapBytes);
    if (needed.isEmpty()) {
      return "too large even for " + perMember.maxMembers() + " members" + of + " (the most its placement allows)";
    }
    int n = needed.getAsInt();
    if (n == 1) return "fits on this JVM alone (--members 1)";
    return "fits on " + n + " members" + of + " (--members " + n + ")";
  }

  /**
   * The estimate for the JVMs of a run on {@code members} members, as {@code validate} ends its estimate line: on
   * several members {@code ; on 4 members about 6.6 GiB per member JVM, 6.6 GiB in this one}, and when the run does
   * not fit as asked {@code ; } and {@link #fitsOn}; empty for a run on one member that fits.
   */
  static String memberFigures(MemberHeapEstimate perMember, int members, long maxHeapBytes, long memberHeapBytes) {
    int n = Math.max(1, members);
    String figures = n == 1 ? "" : "; on " + n + " members about "
        + ResourceEstimate.formatBytes(perMember.memberHeapBytes(n)) + " per member JVM, "
        + ResourceEstimate.formatBytes(perMember.coordinatorHeapBytes(n)) + " in this one";
    boolean fits = n <= perMember.maxMembers() && perMember.fits(n, maxHeapBytes, memberHeapBytes);
    return fits ? figures : figures + "; " + fitsOn(perMember, maxHeapBytes, memberHeapBytes);
  }

  /**
   * Checks that {@code dir} names a folder the result files can go to, creating it (and missing parents) if needed;
   * else bad input, with nothing created. An empty name is refused (it would put the files in the current folder),
   * and so is a path naming an existing file. Returns the outermost folder it created, null when {@code dir}
   * existed: a command that refuses the run later hands it to {@link #removeCreatedFolder}.
   */
  public static Path prepareOutputFolder(Path dir) {
    if (dir.toString().isBlank()) {
      throw new BadInputException("--out '" + dir + "': the output folder has no name (give a folder, e.g. --out "
          + "results)");
    }
    if (Files.exists(dir) && !Files.isDirectory(dir)) {
      throw new BadInputException("--out " + dir + ": a file of that name exists; the output folder must be a "
          + "folder");
    }
    Path created = null;
    for (Path p = dir.toAbsolutePath().normalize(); p != null && !Files.exists(p, LinkOption.NOFOLLOW_LINKS);
         p = p.getParent()) {
      created = p;
    }
    try {
      Files.createDirectories(dir);
    } catch (IOException e) {
      removeCreatedFolder(created, dir);
      throw new BadInputException("cannot create output folder " + dir + ": " + describe(e));
    }
    if (!Files.isWritable(dir)) {
      removeCreatedFolder(created, dir);
      String why = readOnly(dir) ? "read-only file system" : "permission denied";
      throw new BadInputException("cannot write to output folder " + dir + ": " + why);
    }
    return created;
  }

  /**
   * Removes the folders {@link #prepareOutputFolder} created ({@code created}, the outermost, down to {@code dir})
   * as long as they are empty, so a run refused after the output folder was made leaves none behind; a folder
   * that holds anything is kept, and so is everything above {@code created}.
   */
  static void removeCreatedFolder(Path created, Path dir) {
    if (created == null) return;
    Path stop = created.getParent();
    for (Path p = dir.toAbsolutePath().normalize(); p != null && !p.equals(stop); p = p.getParent()) {
      try {
        Files.deleteIfExists(p);
      } catch (IOException e) {
        // Not empty (something else wrote there) or not ours to remove: leave it and everything above it.
        return;
      }
    }
  }

  /** Whether the file system holding {@code dir} is mounted read-only. */
  private static boolean readOnly(Path dir) {
    try {
      return Files.getFileStore(dir).isReadOnly();
    } catch (IOException e) {
      return false;
    }
  }

  /**
   * Runs {@code spec} over its built {@code topology} with {@code runner}, showing a progress bar on {@code stderr}
   * when enabled and slow.
   */
  static RunResult runWithProgress(ScenarioExecutor runner, ScenarioSpec spec, Topology topology, PrintStream stderr,
                                   LongSupplier nanoClock, boolean progress) {
    try (ProgressReporter reporter = new ProgressReporter(ScenarioRunner.totalOperations(spec), stderr, nanoClock,
        ProgressReporter.DEFAULT_DELAY_NANOS, progress)) {
      return runner.run(spec, topology, reporter);
    }
  }

  /**
   * Writes every result file into {@code out}: {@code results.json}, {@code results.csv}, the plot
   * ({@code latency.svg}, {@code latency.png}), on a prism the drawing of its links' busy share
   * ({@code links-prism.svg}), the HTML report ({@code report.html}, titled as the plot) and the
   * {@link #reportFiles}; returns false when one could not be written (named on stderr).
   */
  static boolean writeResults(Path out, RunResult result, Config echo, Topology topology, Plot plot,
                              PrintStream stderr) {
    // Every file is tried, so one that cannot be written does not cost the others.
    boolean written = write(out.resolve(ResultsWriter.JSON_FILE), ResultsWriter.toJson(result, echo, topology),
        stderr);
    written &= write(out.resolve(ResultsWriter.CSV_FILE), ResultsWriter.toCsv(result, topology), stderr);
    written &= writePlot(out, plot, stderr);
    String prism = PrismSection.standaloneSvg(result, topology);
    if (prism != null) written &= write(out.resolve(ResultsWriter.LINKS_PRISM_FILE), prism, stderr);
    for (ReportFile file : reportFiles(result, topology)) {
      written &= writeReportFile(out, file, stderr);
    }
    written &= writeReport(out.resolve(ResultsWriter.REPORT_FILE), () -> new RunReport(plot.title(), result,
        topology, echo, ResultsWriter.caseFigures(result, topology), plot.sections()).html(), stderr);
    return written;
  }

  /**
   * The tool-format reports of a run, one file per (collective, algorithm) in a folder per tool: nccl-tests'
   * ({@link NcclTestsReport#files}, {@code nccl-tests/PROGRAM.ALGORITHM.txt}). Other tools' files join this list.
   */
  static List<ReportFile> reportFiles(RunResult result, Topology topology) {
    List<ReportFile> files = new ArrayList<>(NcclTestsReport.files(result, topology));
    return files;
  }

  /** Writes one report file, creating its folder; a failure is named on one line and returns false. */
  private static boolean writeReportFile(Path out, ReportFile file, PrintStream stderr) {
    Path target = out.resolve(file.relativePath());
    try {
      Files.createDirectories(target.getParent());
    } catch (IOException e) {
      stderr.println("fabemu: cannot write " + target + ": " + ErrorLines.oneLine(describe(e)));
      return false;
    }
    return write(target, file.content(), stderr);
  }

  /**
   * Renders an HTML report and writes it; a report that cannot be rendered (a bug) is named on one line like a
   * file that cannot be written, and costs no other file.
   */
  public static boolean writeReport(Path file, Supplier<String> html, PrintStream stderr) {
    String text;
    try {
      text = html.get();
    } catch (RuntimeException e) {
      stderr.println("fabemu: cannot write " + file + ": the report could not be drawn ("
          + ErrorLines.oneLine(e.getClass().getSimpleName() + ": " + e.getMessage()) + ")");
      return false;
    }
    return write(file, text, stderr);
  }

  /**
   * Writes the OSU files of {@code result} ({@link OsuFiles}: {@code osu/<program>.<algorithm>.txt}) into
   * {@code out} with {@code columns}; returns false when one could not be written (named on stderr).
   */
  static boolean writeOsuFiles(Path out, RunResult result, OsuFormatter.Columns columns, PrintStream stderr) {
    Path folder = out.resolve(OsuFiles.FOLDER);
    try {
      Files.createDirectories(folder);
    } catch (IOException e) {
      stderr.println("fabemu: cannot write " + folder + ": " + ErrorLines.oneLine(describe(e)));
      return false;
    }
    boolean written = true;
    for (Map.Entry<String, String> file : OsuFiles.files(result, columns).entrySet()) {
      written &= write(out.resolve(file.getKey()), file.getValue(), stderr);
    }
    return written;
  }

  /**
   * The exit code of a finished run whose files were {@code written} (or not asked for): 1 with one line on
   * stderr when it is incomplete or (real payload only) some output was wrong, else 1 when a file could not be
   * written, else 0.
   */
  static int exitCode(RunResult result, boolean written, PrintStream stderr) {
    if (!result.complete()) {
      stderr.println("fabemu: run incomplete: " + ErrorLines.oneLine(result.incompleteReason()));
      return ExitCodes.RUN_FAILED;
    }
    // A synthetic payload checks nothing, so it never fails for wrong output.
    if (result.checked() && result.wrongElements() > 0) {
      stderr.println("fabemu: " + result.wrongElements() + " output elements differ from the exact answer");
      return ExitCodes.RUN_FAILED;
    }
    return written ? ExitCodes.OK : ExitCodes.RUN_FAILED;
  }

  /** Draws the plot and writes its SVG and PNG; a plot that cannot be drawn is one line naming the SVG file. */
  private static boolean writePlot(Path out, Plot plot, PrintStream stderr) {
    Path svgFile = out.resolve(ResultsWriter.PLOT_SVG_FILE);
    LatencyPlot.Images images;
    try {
      images = LatencyPlot.draw(plot.title(), plot.series());
    } catch (IOException e) {
      stderr.println("fabemu: cannot write " + svgFile + ": " + ErrorLines.oneLine(describe(e)));
      return false;
    } catch (RuntimeException | AWTError | LinkageError | InternalError e) {
      // A JVM without a usable AWT or fonts (e.g. a minimal container image) cannot draw. The plot only pictures
      // the tables already in results.json/csv, so this is a warning, not a failed run.
      String why = e.getMessage() == null ? e.getClass().getName() : e.getClass().getSimpleName() + ": "
          + e.getMessage();
      stderr.println("fabemu: warning: no " + svgFile + ": cannot draw the plot here (" + ErrorLines.oneLine(why)
          + "); the tables are in results.json and results.csv");
      return true;
    }
    boolean written = write(svgFile, images.svg(), stderr);
    written &= write(out.resolve(ResultsWriter.PLOT_PNG_FILE), images.png(), stderr);
    return written;
  }

  /**
   * Writes one result file; when that fails after the run, says which file and why on stderr and returns false (the
   * run happened, so this is exit code 1, not bad input).
   */
  public static boolean write(Path file, String content, PrintStream stderr) {
    return write(file, content.getBytes(StandardCharsets.UTF_8), stderr);
  }

  private static boolean write(Path file, byte[] content, PrintStream stderr) {
    try {
      ResultsWriter.writeAtomically(file, content);
      return true;
    } catch (IOException e) {
      stderr.println("fabemu: cannot write " + file + ": " + ErrorLines.oneLine(describe(e)));
      return false;
    }
  }

  static String describe(IOException e) {
    if (e instanceof AccessDeniedException) return "permission denied";
    if (e instanceof FileAlreadyExistsException) return "a file is in the way (" + e.getMessage() + ")";
    if (e instanceof DirectoryNotEmptyException) return "a folder of that name is in the way";
    if (e instanceof NoSuchFileException) return "no such file or folder (" + e.getMessage() + ")";
    if (e instanceof FileSystemException f && f.getReason() != null) return f.getReason();
    return e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
  }
}
