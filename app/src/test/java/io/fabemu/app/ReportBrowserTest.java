package io.fabemu.app;

import static org.assertj.core.api.Assertions.assertThat;

import com.typesafe.config.ConfigFactory;
import io.fabemu.app.output.ResultsWriter;
import io.fabemu.app.report.RunReport;
import io.fabemu.core.topology.Topology;
import io.fabemu.fabric.result.RunResult;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

/**
 * The HTML reports in a real browser (headless Chromium, {@link HeadlessChromium}): they load without a script
 * error or a failed resource, every section and every chart is laid out, and the screenshot (kept in the build
 * folder's {@code screenshots/}) is a picture, not a blank page. {@code -Dfabemu.report.html=FILE} checks a report of
 * your own as well.
 */
class ReportBrowserTest extends CliTestBase {

  @Override
  protected ScenarioExecutor executor() {
    return null;
  }

  private static void assertRendered(HeadlessChromium.Rendering r, int sections) throws Exception {
    assertThat(r.errors()).as("script errors and failed loads").isEmpty();
    assertThat(r.sections()).isEqualTo(sections);
    assertThat(r.svgs()).isPositive();
    assertThat(r.svgsDrawn()).as("charts laid out with a size").isEqualTo(r.svgs());
    byte[] png = Files.readAllBytes(r.screenshot());
    assertThat(png).startsWith(0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n');
    assertThat(png.length).as("screenshot bytes").isGreaterThan(20_000);
    assertThat(HeadlessChromium.distinctColours(r.screenshot())).as("colours in the screenshot").isGreaterThan(50);
  }

  @Test
  void shouldRenderTheReportOfARealInNetworkRunWithoutErrors() throws Exception {
    Path out = dir.resolve("inc");
    int code = fabemu("run", "../examples/inc-allreduce.conf", "--set", "topology.hosts=4", "--set",
        "workload.ppn=2", "--set", "workload.iterations=2", "--set", "workload.warmup=0", "--set",
        "workload.max-size=16B", "--no-progress", "--out", out.toString());
    assertThat(code).as(stderr).isZero();

    HeadlessChromium.Rendering r = HeadlessChromium.open(out.resolve("report.html"), dir,
        HeadlessChromium.screenshotFolder().resolve("inc-allreduce-report.png"), 2400);

    assertRendered(r, 7);
    // Latency, bandwidth, speed-up, two link matrices, the tiers, the links per case and tier pair, the ranks'
    // spread.
    assertThat(r.svgs()).isEqualTo(8);
  }

  @Test
  void shouldRenderTheReportOfASweepWithoutErrors() throws Exception {
    Path out = dir.resolve("sweep");
    int code = fabemu("sweep", tinyScenario().toString(), "--vary", "workload.algorithms=[ring],[recursive-doubling]",
        "--no-progress", "--out", out.toString());
    assertThat(code).as(stderr).isZero();

    HeadlessChromium.Rendering r = HeadlessChromium.open(out.resolve("report.html"), dir,
        HeadlessChromium.screenshotFolder().resolve("sweep-report.png"), 1800);

    assertRendered(r, 5);
    // Two against the varied values, latency and bandwidth per point, the points' links per tier pair.
    assertThat(r.svgs()).isEqualTo(5);
  }

  @Test
  void shouldRenderTheReportOfARunWithFaultsWithoutErrors() throws Exception {
    // Built by hand: the devices' side of faults is not this test's subject, the fault section and its timeline are.
    RunResult result = Fixtures.faultedResult(7);
    Topology topology = result.scenario().topology().build();
    Path page = dir.resolve("faults.html");
    Files.writeString(page, new RunReport("golden: allreduce latency with faults", result, topology,
        ConfigFactory.parseString("name = golden"), ResultsWriter.caseFigures(result, topology)).html());

    HeadlessChromium.Rendering r = HeadlessChromium.open(page, dir,
        HeadlessChromium.screenshotFolder().resolve("faults-report.png"), 2400);

    assertRendered(r, 7);
    // The fault timeline, latency, bandwidth, two link matrices, the tiers.
    assertThat(r.svgs()).isEqualTo(6);
  }

  @Test
  void shouldFailThePageWhenAScriptThrowsOrSomethingIsFetched() throws Exception {
    Path page = dir.resolve("broken.html");
    Files.writeString(page, "<!DOCTYPE html><html><head><title>x</title></head><body><section><svg width=\"10\" "
        + "height=\"10\"></svg></section><script>notAFunction();</script><img src=\"https://example.com/x.png\">"
        + "</body></html>");

    HeadlessChromium.Rendering r = HeadlessChromium.open(page, dir, dir.resolve("broken.png"), 400);

    assertThat(r.errors()).contains("notAFunction").contains("failed to load https://example.com/x.png");
    assertThat(r.sections()).isEqualTo(1);
  }

  @Test
  @EnabledIfSystemProperty(named = "fabemu.report.html", matches = ".+")
  void shouldRenderTheReportGivenOnTheCommandLine() throws Exception {
    Path report = Path.of(System.getProperty("fabemu.report.html")).toAbsolutePath();

    HeadlessChromium.Rendering r = HeadlessChromium.open(report, dir,
        HeadlessChromium.screenshotFolder().resolve("given-report.png"), 2400);

    assertRendered(r, r.sections());
    assertThat(r.sections()).isPositive();
  }
}
