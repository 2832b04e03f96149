package io.fabemu.k8s;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * Renders a kustomization with {@code kubectl kustomize} (kustomize built into kubectl; offline, no API server).
 *
 * <p>Contract: {@link #kubectl()} finds kubectl on the {@code PATH} (empty when it is not installed, so that callers
 * can skip with a reason); {@link #render} returns the rendered multi-document YAML or throws
 * {@link IllegalStateException} carrying kubectl's own error output.
 */
public final class Kustomize {
  private static final long TIMEOUT_SECONDS = 120;

  private Kustomize() {}

  /** The kubectl executable on the {@code PATH}, if there is one. */
  public static Optional<Path> kubectl() {
    String path = System.getenv("PATH");
    if (path == null) return Optional.empty();
    for (String dir : path.split(File.pathSeparator)) {
      if (dir.isEmpty()) continue;
      Path candidate = Path.of(dir, "kubectl");
      if (Files.isRegularFile(candidate) && Files.isExecutable(candidate)) return Optional.of(candidate);
    }
    return Optional.empty();
  }

  /** kubectl's client and kustomize versions, one line each (for the test log). */
  public static String version(Path kubectl) {
    return run(kubectl, "version", "--client").strip();
  }

  /**
   * {@code kubectl kustomize dir}: the rendered manifests.
   *
   * @throws IllegalStateException when kubectl fails (a kustomization error, a missing file) or hangs
   */
  public static String render(Path kubectl, Path dir) {
    return run(kubectl, "kustomize", dir.toString());
  }

  private static String run(Path kubectl, String... args) {
    String[] command = new String[args.length + 1];
    command[0] = kubectl.toString();
    System.arraycopy(args, 0, command, 1, args.length);
    try {
      Path err = Files.createTempFile("kubectl-", ".err");
      try {
        Process process = new ProcessBuilder(command).redirectError(err.toFile()).start();
        process.getOutputStream().close();
        byte[] out = process.getInputStream().readAllBytes();
        if (!process.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
          process.destroyForcibly();
          throw new IllegalStateException(String.join(" ", command) + ": no answer within " + TIMEOUT_SECONDS + " s");
        }
        if (process.exitValue() != 0) {
          throw new IllegalStateException(String.join(" ", command) + " failed (exit " + process.exitValue() + "): "
              + Files.readString(err, StandardCharsets.UTF_8).strip());
        }
        return new String(out, StandardCharsets.UTF_8);
      } finally {
        Files.deleteIfExists(err);
      }
    } catch (IOException e) {
      throw new IllegalStateException(String.join(" ", command) + ": " + e.getMessage(), e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(String.join(" ", command) + ": interrupted", e);
    }
  }
}
