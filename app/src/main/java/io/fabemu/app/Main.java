package io.fabemu.app;

import io.fabemu.app.member.MemberCommand;
import io.fabemu.app.nccl.NcclPerfCommand;
import io.fabemu.app.nccl.NcclPerfProgram;
import io.fabemu.app.osu.OsuAllreduceCommand;
import io.fabemu.app.osu.OsuBandwidthCommand;
import io.fabemu.app.osu.OsuBarrierCommand;
import io.fabemu.app.osu.OsuBenchmark;
import io.fabemu.app.osu.OsuCollectiveCommand;
import io.fabemu.app.osu.OsuCommand;
import io.fabemu.app.osu.OsuLatencyCommand;
import io.fabemu.app.sweep.SweepCommand;
import io.fabemu.cluster.ClusterStartException;
import io.fabemu.cluster.ScenarioRunner;
import io.fabemu.cluster.scenario.ScenarioException;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.function.LongSupplier;
import picocli.CommandLine.Command;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.IVersionProvider;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ParseResult;
import picocli.CommandLine.ScopeType;
import picocli.CommandLine.Spec;
import picocli.CommandLine.TypeConversionException;
import picocli.CommandLine;

/**
 * The {@code fabemu} command line: {@code fabemu run SCENARIO [--out DIR] [--seed N] [--members N ...]},
 * {@code fabemu osu-allreduce --profile FILE --nodes N --ppn P --mode host|inc-node|inc-socket [-m MIN:MAX] ...}
 * (osu_allreduce's table over a hardware profile, {@link OsuAllreduceCommand}), the nccl-tests programs
 * {@code fabemu all-reduce-perf --profile FILE --nodes N --ppn P [-b MIN -e MAX -f F ...]} and the others of
 * {@link NcclPerfProgram} ({@link NcclPerfCommand}), {@code fabemu sweep SCENARIO --vary KEY.PATH=V1,V2,... --out
 * DIR} (a run per point of a cross product, {@link SweepCommand}), the other OSU Micro-Benchmarks programs
 * ({@code osu-bcast}, {@code osu-reduce}, {@code osu-allgather}, {@code osu-alltoall}, {@code osu-reduce-scatter},
 * {@code osu-gather}, {@code osu-scatter}, {@code osu-barrier}, {@code osu-latency}, {@code osu-bw}: their tables
 * over a hardware profile, {@link OsuCommand}), {@code fabemu validate SCENARIO} and
 * {@code fabemu member --seed-nodes HOST:PORT[,...]} (or {@code --discovery kubernetes-api}).
 *
 * <p>Contract: {@link #execute} never calls {@code System.exit} and never throws; it returns the exit code.
 * Reports go to stdout; messages and the progress bar to stderr. Exit codes: {@value ExitCodes#OK} success;
 * {@value ExitCodes#RUN_FAILED} the run finished with wrong output (a real payload only: a synthetic one checks
 * nothing) or incomplete, a result file could not be written after the run (named on one line), or an unexpected
 * error such as a failed emulation (one line {@code fabemu: error: ...}, with a stack trace only under
 * {@code --verbose}); {@value ExitCodes#BAD_INPUT} bad input (scenario, command-line arguments, output folder),
 * reported as one line on stderr before anything runs or is written; {@value ExitCodes#LOST_MEMBER} a cluster member
 * was lost mid-run (one line naming it; what was finished is written marked incomplete). A cluster member that
 * cannot start, or members that do not all join in time, are exit code 1 with one line (plus member logs).
 */
@Command(name = "fabemu", mixinStandardHelpOptions = true, versionProvider = Main.Version.class,
    description = "Emulates HPC cluster interconnects running MPI-style collectives on real data in virtual time.")
public final class Main implements Callable<Integer> {
  @Option(names = "--verbose", scope = ScopeType.INHERIT,
      description = "Print the stack trace of unexpected errors.")
  boolean verbose;

  @Spec
  CommandSpec spec;

  public static void main(String[] args) {
    // The latency plot is drawn off-screen; never reach for a display (LatencyPlot sets it too, for other callers).
    if (System.getProperty("java.awt.headless") == null) {
      System.setProperty("java.awt.headless", "true");
    }
    // Keep library logging (Pekko, via slf4j-simple on stderr) to warnings unless the user asks otherwise.
    if (System.getProperty("org.slf4j.simpleLogger.defaultLogLevel") == null) {
      System.setProperty("org.slf4j.simpleLogger.defaultLogLevel", "warn");
    }
    // Initialize slf4j before Pekko's logger starts on another thread; otherwise slf4j prints a "replay" notice.
    org.slf4j.LoggerFactory.getILoggerFactory();
    System.exit(execute(args, System.out, System.err));
  }

  /** Runs the command line with the real scenario runner; returns the exit code. */
  public static int execute(String[] args, PrintStream out, PrintStream err) {
    return execute(args, out, err, ScenarioRunner::run, System::nanoTime);
  }

  /** Runs the command line with {@code executor} and {@code nanoClock} (wall time, for the progress bar). */
  static int execute(String[] args, PrintStream out, PrintStream err, ScenarioExecutor executor,
                     LongSupplier nanoClock) {
    CommandPipeline pipeline = new CommandPipeline(out, err, executor, nanoClock);
    CommandLine cli = new CommandLine(new Main())
        .addSubcommand(new CommandLine(new RunCommand(pipeline)))
        .addSubcommand(new OsuAllreduceCommand(pipeline).commandLine())
        .addSubcommand(SweepCommand.commandLine(new SweepCommand(pipeline, out, err, nanoClock)))
        .addSubcommand(new CommandLine(new TrafficCommand(out, err)))
        .addSubcommand(new CommandLine(new ValidateCommand(out, err)))
        .addSubcommand(new CommandLine(new MemberCommand(out, err)));
    for (OsuBenchmark b : List.of(OsuBenchmark.BCAST, OsuBenchmark.REDUCE, OsuBenchmark.ALLGATHER,
        OsuBenchmark.ALLTOALL, OsuBenchmark.REDUCE_SCATTER, OsuBenchmark.GATHER, OsuBenchmark.SCATTER)) {
      cli.addSubcommand(b.commandName(), OsuCollectiveCommand.commandLine(pipeline, b));
    }
    cli.addSubcommand(new OsuBarrierCommand(pipeline).commandLine())
        .addSubcommand(new OsuLatencyCommand(pipeline).commandLine())
        .addSubcommand(new OsuBandwidthCommand(pipeline).commandLine());
    addNcclPerfCommands(cli, pipeline, err);
    // Last: picocli gives a converter to the subcommands present when it is registered, not to later ones.
    cli.registerConverter(Path.class, new FileName());
    cli.setOut(new PrintWriter(out, true, StandardCharsets.UTF_8));
    cli.setErr(new PrintWriter(err, true, StandardCharsets.UTF_8));
    cli.setParameterExceptionHandler((ex, arguments) -> onBadArguments(ex, err));
    cli.setExecutionExceptionHandler((ex, commandLine, parseResult) -> onError(ex, parseResult, err));
    int code = cli.execute(args);
    out.flush();
    err.flush();
    return code;
  }

  /** One command per nccl-tests program ({@code all-reduce-perf}, ...), named and described after it. */
  private static void addNcclPerfCommands(CommandLine cli, CommandPipeline pipeline, PrintStream err) {
    for (NcclPerfProgram program : NcclPerfProgram.values()) {
      CommandLine perf = new CommandLine(new NcclPerfCommand(pipeline, program, err, LocalDateTime::now));
      perf.getCommandSpec().usageMessage().description(NcclPerfCommand.description(program));
      // As nccl-tests' getopt: a flag given twice takes the last value.
      perf.setOverwrittenOptionsAllowed(true);
      cli.addSubcommand(program.commandName, perf);
    }
  }

  /** {@code fabemu} alone: a usage error. */
  @Override
  public Integer call() {
    throw new ParameterException(spec.commandLine(), "missing command: 'run', 'validate', 'member', 'osu-allreduce' "
        + "or an nccl-tests program such as 'all-reduce-perf'");
  }

  private static int onBadArguments(ParameterException ex, PrintStream err) {
    String command = ex.getCommandLine().getCommandSpec().qualifiedName();
    err.println(command + ": " + ErrorLines.oneLine(ex.getMessage()) + " (see '" + command + " --help')");
    return ExitCodes.BAD_INPUT;
  }

  private static int onError(Exception ex, ParseResult parseResult, PrintStream err) {
    if (ex instanceof ScenarioException e) {
      err.println(e.getMessage());
      return ExitCodes.BAD_INPUT;
    }
    if (ex instanceof BadInputException e) {
      err.println("fabemu: " + ErrorLines.oneLine(e.getMessage()));
      return ExitCodes.BAD_INPUT;
    }
    if (ex instanceof ParameterException e) {
      return onBadArguments(e, err);
    }
    if (ex instanceof ClusterStartException e) {
      err.println("fabemu: " + ErrorLines.oneLine(e.getMessage()));
      if (isVerbose(parseResult)) e.printStackTrace(err);
      return ExitCodes.RUN_FAILED;
    }
    if (ex instanceof ClusterRun.Failure e) {
      err.println("fabemu: " + ErrorLines.oneLine(e.getMessage()));
      e.details().forEach(err::println);
      return ExitCodes.RUN_FAILED;
    }
    err.println("fabemu: error: " + ErrorLines.oneLine(ErrorLines.failure(ex)));
    if (isVerbose(parseResult)) {
      ex.printStackTrace(err);
    }
    return ExitCodes.RUN_FAILED;
  }

  private static boolean isVerbose(ParseResult parseResult) {
    for (ParseResult p = parseResult; p != null; p = p.subcommand()) {
      if (p.hasMatchedOption("--verbose")) return true;
    }
    return false;
  }

  /**
   * Every path argument of every command ({@code SCENARIO}, {@code --profile}, {@code --out}, ...): refused in a
   * sentence (not picocli's default, which quotes the Java exception) when the system cannot take it as a file name,
   * e.g. one holding a NUL character.
   */
  static final class FileName implements ITypeConverter<Path> {
    @Override
    public Path convert(String value) {
      try {
        return Path.of(value);
      } catch (InvalidPathException e) {
        throw new TypeConversionException("'" + value.replace("\0", "\\0") + "' is not a file name ("
            + e.getReason() + ")");
      }
    }
  }

  /** {@code --version}: the jar's Implementation-Version. */
  static final class Version implements IVersionProvider {
    @Override
    public String[] getVersion() {
      String v = Main.class.getPackage().getImplementationVersion();
      return new String[] {"fabemu " + (v == null ? "(development build)" : v)};
    }
  }
}
