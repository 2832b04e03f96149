package io.fabemu.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import java.awt.image.BufferedImage;
import java.io.File;
import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Assumptions;

/**
 * Test helper: opens an HTML file in a real headless browser, Debian's Chromium ({@code chromium --headless
 * --no-sandbox --disable-gpu}), once: it dumps the DOM after the page has loaded and takes a screenshot. A tiny probe
 * script, put first in a copy of the page's {@code <head>}, records every script error and every resource that fails
 * to load ({@code data-probe-errors}) and, on load, counts the sections and the SVG charts that were laid out with a
 * size ({@code data-probe}). Host names resolve to nothing, so a page that reaches for the network fails to load it.
 *
 * <p>Chromium is found as {@code $FABEMU_CHROMIUM}, else {@code chromium} or {@code chromium-browser} on the
 * {@code PATH}. Without it the test fails with a message saying how to install it, unless the environment variable
 * {@value #SKIP_VARIABLE} is {@code 1} and {@code CI} is not set: then the test is skipped, saying why (for machines
 * of developers who cannot install it; CI never skips).
 */
final class HeadlessChromium {

  /** Set to 1 to skip the browser tests on a machine without Chromium (ignored when CI is set). */
  static final String SKIP_VARIABLE = "FABEMU_SKIP_BROWSER_TESTS";

  private static final Pattern PROBE =
      Pattern.compile("data-probe=\"rendered svg=(\\d+) drawn=(\\d+) sections=(\\d+)\"");
  private static final Pattern PROBE_ERRORS = Pattern.compile("data-probe-errors=\"([^\"]*)\"");
  private static final String PROBE_SCRIPT = "<script>(function () {"
      + "var errors = [];"
      + "function note(m) { errors.push(m); "
      + "document.documentElement.setAttribute('data-probe-errors', errors.join(' | ')); }"
      + "window.addEventListener('error', function (e) { note(e.message ? String(e.message) : 'failed to load '"
      + " + (e.target && (e.target.src || e.target.href || e.target.tagName))); }, true);"
      + "window.addEventListener('load', function () {"
      + "var svgs = document.querySelectorAll('svg'); var drawn = 0;"
      + "for (var i = 0; i < svgs.length; i++) { var b = svgs[i].getBoundingClientRect();"
      + " if (b.width > 0 && b.height > 0) drawn++; }"
      + "document.documentElement.setAttribute('data-probe', 'rendered svg=' + svgs.length + ' drawn=' + drawn"
      + " + ' sections=' + document.querySelectorAll('section').length); });"
      + "})();</script>";

  /** What the browser saw. */
  record Rendering(int svgs, int svgsDrawn, int sections, String errors, Path screenshot) {}

  private HeadlessChromium() {}

  /** The browser's executable; fails (or, where allowed, skips) the test when there is none. */
  static String executable() {
    String configured = System.getenv("FABEMU_CHROMIUM");
    if (configured != null && !configured.isBlank()) return configured;
    String path = System.getenv("PATH");
    for (String dir : (path == null ? "" : path).split(File.pathSeparator)) {
      for (String name : List.of("chromium", "chromium-browser")) {
        Path candidate = Path.of(dir.isEmpty() ? "." : dir, name);
        if (Files.isExecutable(candidate)) return candidate.toString();
      }
    }
    String why = "Chromium is not installed (looked for $FABEMU_CHROMIUM, chromium and chromium-browser on the PATH); "
        + "install it with 'apt-get install -y chromium' (.ci/run does)";
    if ("1".equals(System.getenv(SKIP_VARIABLE)) && System.getenv("CI") == null) {
      Assumptions.abort(why + "; skipped because " + SKIP_VARIABLE + "=1");
    }
    fail(why + ". On a machine where it cannot be installed, set " + SKIP_VARIABLE + "=1 to skip this test "
        + "(never in CI).");
    throw new AssertionError("unreachable");
  }

  /** The folder for screenshots: {@code screenshots} in the module's build folder (target, or target-SUFFIX). */
  static Path screenshotFolder() throws IOException {
    try {
      Path testClasses = Path.of(HeadlessChromium.class.getProtectionDomain().getCodeSource().getLocation().toURI());
      Path folder = testClasses.getParent().resolve("screenshots");
      Files.createDirectories(folder);
      return folder;
    } catch (URISyntaxException e) {
      throw new IOException(e);
    }
  }

  /**
   * Opens {@code html} (a copy with the probe, in {@code work}), waits for it to load, and saves a screenshot of the
   * first {@code heightPx} pixels at 1280 wide to {@code screenshot}.
   */
  static Rendering open(Path html, Path work, Path screenshot, int heightPx) throws Exception {
    String chromium = executable();
    String page = Files.readString(html, StandardCharsets.UTF_8);
    int head = page.indexOf("<head>");
    assertThat(head).as("the page has a <head>").isNotNegative();
    Path probed = work.resolve("probed-" + html.getFileName());
    Files.writeString(probed, page.substring(0, head + 6) + PROBE_SCRIPT + page.substring(head + 6));
    Files.deleteIfExists(screenshot);
    Path profile = Files.createDirectories(work.resolve("chromium-profile"));

    List<String> command = new ArrayList<>(List.of(chromium, "--headless", "--no-sandbox", "--disable-gpu",
        "--user-data-dir=" + profile, "--host-resolver-rules=MAP * ~NOTFOUND", "--window-size=1280," + heightPx,
        "--hide-scrollbars", "--dump-dom", "--screenshot=" + screenshot, probed.toUri().toString()));
    Process process = new ProcessBuilder(command).redirectError(work.resolve("chromium.log").toFile()).start();
    byte[] dom = process.getInputStream().readAllBytes();
    if (!process.waitFor(60, TimeUnit.SECONDS)) {
      process.destroyForcibly();
      fail("Chromium did not finish within 60 s; its log: " + work.resolve("chromium.log"));
    }
    String text = new String(dom, StandardCharsets.UTF_8);
    Matcher probe = PROBE.matcher(text);
    if (!probe.find()) {
      fail("the page never finished loading in Chromium (exit code " + process.exitValue() + "; no load marker in "
          + "the DOM); its log: " + Files.readString(work.resolve("chromium.log")));
    }
    Matcher errors = PROBE_ERRORS.matcher(text);
    return new Rendering(Integer.parseInt(probe.group(1)), Integer.parseInt(probe.group(2)),
        Integer.parseInt(probe.group(3)), errors.find() ? errors.group(1) : "", screenshot);
  }

  /** The number of distinct colours in a PNG: a blank or failed rendering has one or two. */
  static int distinctColours(Path png) throws IOException {
    BufferedImage image = ImageIO.read(png.toFile());
    assertThat(image).as("a PNG image at " + png).isNotNull();
    Set<Integer> colours = new HashSet<>();
    for (int y = 0; y < image.getHeight(); y += 2) {
      for (int x = 0; x < image.getWidth(); x += 2) colours.add(image.getRGB(x, y));
    }
    return colours.size();
  }
}
