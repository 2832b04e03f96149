package io.fabemu.app;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Commands the tests that need root run on the host (ip, mount, umount): each is run to its end within 30 s, its
 * output captured. Tests that need root ask {@link #rootMissingReason} first and skip, printing the reason, when it
 * is not null.
 */
final class RootShell {
  private RootShell() {}

  /** What a command printed (stdout and stderr together) and its exit code; -1 when it could not run or hung. */
  record Result(int code, String output) {}

  /** Runs {@code cmd}; never throws for a command that fails. */
  static Result run(List<String> cmd) throws InterruptedException {
    Process p;
    try {
      p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
    } catch (IOException e) {
      return new Result(-1, e.getMessage());
    }
    String output;
    try {
      output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      output = e.getMessage();
    }
    if (!p.waitFor(30, TimeUnit.SECONDS)) {
      p.destroyForcibly();
      return new Result(-1, "timed out: " + String.join(" ", cmd));
    }
    return new Result(p.exitValue(), output);
  }

  /** Runs {@code cmd...}; one that fails is an {@link IllegalStateException} with its output. */
  static void check(String... cmd) throws InterruptedException {
    Result r = run(List.of(cmd));
    if (r.code != 0) {
      throw new IllegalStateException(String.join(" ", cmd) + " failed (" + r.code + "): " + r.output.strip());
    }
  }

  /** Runs {@code first} with {@code rest} appended: {@link #check(String...)}. */
  static void check(String first, List<String> rest) throws InterruptedException {
    List<String> cmd = new ArrayList<>();
    cmd.add(first);
    cmd.addAll(rest);
    check(cmd.toArray(new String[0]));
  }

  /** Why this JVM cannot run root-only commands on Linux, or null when it can. */
  static String rootMissingReason() throws InterruptedException {
    if (!"Linux".equals(System.getProperty("os.name"))) return "needs Linux";
    Result id = run(List.of("id", "-u"));
    if (id.code != 0 || !id.output.strip().equals("0")) return "needs root (uid " + id.output.strip() + ")";
    return null;
  }
}
