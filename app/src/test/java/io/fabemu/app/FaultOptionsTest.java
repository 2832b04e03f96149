package io.fabemu.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabemu.cluster.scenario.ScenarioLoader;
import io.fabemu.core.fault.FaultAction;
import io.fabemu.core.fault.FaultEvent;
import io.fabemu.core.fault.FaultPlan;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** {@code --fault EVENT} on run and validate: appended to the scenario's fault events, checked as the file's. */
class FaultOptionsTest extends CliTestBase {

  private final Fixtures.FakeExecutor executor = new Fixtures.FakeExecutor();

  @Override
  protected ScenarioExecutor executor() {
    return executor;
  }

  /** The tiny scenario (host0, host1 on tor0) with {@code events} written in the file. */
  private Path tinyWithEvents(String events) throws Exception {
    Path file = dir.resolve("tiny-events.conf");
    Files.writeString(file, Fixtures.TINY_SCENARIO + "faults.events = " + events + "\n");
    return file;
  }

  @Test
  void shouldPlaceAnEventInACaseWithAtsKeysByTheirPath() throws Exception {
    assertThat(fabemu("run", tinyScenario().toString(), "--no-progress",
        "--fault", "at.case=1 at.offset=3us node=host1 straggler slowdown=2",
        "--fault", "at.case=2 at.iteration=1 node=host1 straggler slowdown=1")).as(stderr).isZero();

    FaultPlan expected = ScenarioLoader.load(tinyWithEvents("""
        [
          { at = { case = 1, offset = 3 us }, action = straggler, node = host1, slowdown = 2 }
          { at = { case = 2, iteration = 1 }, action = straggler, node = host1, slowdown = 1 }
        ]
        """)).spec().faults();
    assertThat(executor.ranSpec.faults()).isEqualTo(expected);
    assertThat(expected.event(0).atPs()).isGreaterThan(3_000_000L);
    assertThat(fabemu("validate", tinyScenario().toString(), "--fault", "at=1us at.case=1 switch=tor0 down"))
        .isEqualTo(2);
    assertThat(stderr).contains("--fault #1 'at=1us at.case=1 switch=tor0 down': at is given twice");
    assertThat(fabemu("validate", tinyScenario().toString(), "--fault", "at.case=4 switch=tor0 down")).isEqualTo(2);
    assertThat(stderr).contains("--fault #1: at.case: case 4 is out of range: the workload has 4 cases, numbered 0 "
        + "to 3");
  }

  @Test
  void shouldRunTheSamePlanAsTheEquivalentFileEntries() throws Exception {
    assertThat(fabemu("run", tinyScenario().toString(), "--no-progress",
        "--fault", "at=40us switch=tor0 down", "--fault", "  up  at=90us   switch=tor0 ",
        "--fault", "at=10us link=host0-tor0 degrade bandwidth=10Gbps latency=100ns",
        "--fault", "at=0us node=host1 flap period=20us down-for=5us count=2",
        "--fault", "at=1us links-of=all lossy drop=0.01 corrupt=0.5",
        "--fault", "at=2us node=host0 straggler slowdown=1.5")).as(stderr).isZero();

    FaultPlan expected = ScenarioLoader.load(tinyWithEvents("""
        [
          { at = 40 us, action = down, switch = "tor0" }
          { at = 90 us, action = up, switch = tor0 }
          { at = 10 us, action = degrade, link = ["host0", "tor0"], bandwidth = 10 Gbps, latency = 100 ns }
          { at = 0 us, action = flap, node = host1, period = 20 us, down-for = 5 us, count = 2 }
          { at = 1 us, action = lossy, links-of = all, drop = 0.01, corrupt = 0.5 }
          { at = 2 us, action = straggler, node = host0, slowdown = 1.5 }
        ]
        """)).spec().faults();
    assertThat(executor.ranSpec.faults()).isEqualTo(expected);
    assertThat(expected.eventCount()).isEqualTo(9);
    assertThat(expected.events().stream().map(FaultEvent::action).toList()).containsExactly(FaultAction.DOWN,
        FaultAction.LOSSY, FaultAction.STRAGGLER, FaultAction.UP, FaultAction.DEGRADE, FaultAction.DOWN,
        FaultAction.UP, FaultAction.DOWN, FaultAction.UP);
  }

  @Test
  void shouldAppendToTheFilesEventsAndPrintThePlanWhenValidating() throws Exception {
    assertThat(fabemu("validate", tinyWithEvents("[{ at = 40 us, action = down, switch = tor0 }]").toString(),
        "--fault", "at=50us switch=tor0 up")).as(stderr).isZero();
    assertThat(withoutEstimate(stdout).lines().toList()).containsExactly(
        "OK: " + dir.resolve("tiny-events.conf") + ": leaf-spine: 2 hosts, 1 TOR (2 hosts), 0 spines, 2 ranks, 4 cases",
        "cases: allreduce ring, recursive-doubling: 4 B, 64 B (2 sizes)",
        "faults: 2 events: 40.000 us switch tor0 down, 50.000 us switch tor0 up");

    assertThat(fabemu("validate", tinyScenario().toString(), "--fault",
        "at=0us switch=tor0 flap period=10us down-for=1us count=4")).as(stderr).isZero();
    assertThat(stdout.lines().toList().get(2)).isEqualTo("faults: 8 events: 0.000 us switch tor0 down, 1.000 us "
        + "switch tor0 up, 10.000 us switch tor0 down, 11.000 us switch tor0 up, 20.000 us switch tor0 down, ... "
        + "(3 more)");

    assertThat(fabemu("validate", tinyScenario().toString(), "--fault", "at=3us node=host0 straggler slowdown=2"))
        .isZero();
    assertThat(stdout.lines().toList().get(2)).isEqualTo("faults: 1 event: 3.000 us node host0 straggler");

    // Without fault events, validate prints its two lines as before (and the estimate).
    assertThat(fabemu("validate", tinyScenario().toString())).isZero();
    assertThat(withoutEstimate(stdout).lines().toList()).hasSize(2);
  }

  @Test
  void shouldNameTheFaultWhenTheLoaderRefusesIt() throws Exception {
    Map<List<String>, String> cases = Map.of(
        List.of("at=40us switch=tor0 down", "at=40uss switch=tor0 up"),
        "fabemu validate: --fault #2: at: '40uss' has an unknown unit 'uss'",
        List.of("at=40us swtich=tor0 down"),
        "fabemu validate: --fault #1: swtich: unknown key (did you mean 'switch'?)",
        List.of("at=40us switch=tor0 dwon"),
        "fabemu validate: --fault #1: action: 'dwon' is not one of down, up, flap, degrade, lossy, straggler (did "
            + "you mean 'down'?)",
        List.of("at=40us switch=tor0 degrade period=1us"),
        "fabemu validate: --fault #1: period: not a parameter of degrade (degrade takes bandwidth, latency)",
        List.of("at=40us switch=tor0 up"),
        "fabemu validate: --fault #1: up of switch tor0 at 40 us: it is not down then",
        List.of("at=40us switch=tor0 down", "at=40us link=host0-tor0 down", "switch=tor0 down"),
        "fabemu validate: --fault #3: missing at: when it happens, e.g. at = 40 us",
        List.of("at=40us link=host0-host1 down"),
        "fabemu validate: --fault #1: link: there is no cable between host0 and host1");
    for (Map.Entry<List<String>, String> c : cases.entrySet()) {
      String[] line = Stream.concat(Stream.of("validate", tinyScenario().toString()),
          c.getKey().stream().flatMap(f -> Stream.of("--fault", f))).toArray(String[]::new);
      assertThat(fabemu(line)).as(String.join(" ", line)).isEqualTo(2);
      assertThat(stderr.lines().toList()).as(stderr).hasSize(1);
      assertThat(stderr).as(String.join(" ", line)).startsWith(c.getValue());
    }
  }

  @Test
  void shouldTakeFaultsOnARouterNetworkAndRefuseTooFewVirtualChannelsNamingTheFirst() throws Exception {
    Path mesh = dir.resolve("mesh.conf");
    Files.writeString(mesh, "topology.kind = mesh\n");
    assertThat(fabemu("validate", mesh.toString(), "--fault", "at=1us node=host0 down")).isZero();
    assertThat(stdout).contains("faults: 1 event: 1.000 us node host0 down");
    Files.writeString(mesh, "topology.kind = mesh\ndevices.router.virtual-channels = 1\n");
    assertThat(fabemu("validate", mesh.toString(), "--fault", "at=1us node=host0 down")).isEqualTo(2);
    assertThat(stderr).startsWith("fabemu validate: --fault #1: faults on a mesh need devices.router.virtual-channels "
        + "to be a multiple of 2 (detours through via nodes take 1 class per leg), got 1");
    // The file's own events are refused at their line.
    Files.writeString(mesh, "topology.kind = mesh\ndevices.router.virtual-channels = 1\n"
        + "faults.events = [{ at = 1 us, action = down, node = host0 }]\n");
    assertThat(fabemu("validate", mesh.toString(), "--fault", "at=2us node=host0 up")).isEqualTo(2);
    assertThat(stderr.strip()).startsWith(mesh + ":3: faults.events: faults on a mesh need");
  }

  @Test
  void shouldRefuseMalformedFaultsInOneLineBeforeRunning() throws Exception {
    for (String fault : List.of("", "   ", "at=40us down up", "at=40us action=down up", "=3 down", "at= down",
        "at=1us at=2us down", "at=1us 4x=2 down")) {
      assertThat(fabemu("run", tinyScenario().toString(), "--no-progress", "--fault", "at=1us switch=tor0 down",
          "--fault", fault)).as(fault).isEqualTo(2);
      assertThat(stderr.lines().toList()).as(stderr).hasSize(1);
      assertThat(stderr).as(fault).startsWith("fabemu run: --fault #2 '" + fault + "': ");
      assertThat(executor.ranSpec).isNull();
    }
    assertThat(fabemu("validate", tinyScenario().toString(), "--fault", "at=40us down up")).isEqualTo(2);
    assertThat(stderr.strip()).isEqualTo("fabemu validate: --fault #1 'at=40us down up': 'up': the action is 'down' "
        + "already, and every other token is KEY=VALUE (e.g. 'at=40us switch=spine0 down') (see 'fabemu validate "
        + "--help')");
  }

  @Test
  void shouldSplitAnEventIntoItsKeysWithTheBareWordAsTheAction() {
    assertThat(FaultOptions.keys(" at=40us\tswitch=spine0  down ")).containsExactly(Map.entry("at", "40us"),
        Map.entry("switch", "spine0"), Map.entry("action", "down"));
    assertThat(FaultOptions.keys("link=tor0-spine1 at=1us bandwidth=50Gbps degrade"))
        .containsEntry("link", "tor0-spine1").containsEntry("bandwidth", "50Gbps").containsEntry("action", "degrade");
    assertThatThrownBy(() -> FaultOptions.keys("at=1us at=2us down")).hasMessage("at is given twice");
    assertThatThrownBy(() -> FaultOptions.keys("at=1us action=down down")).hasMessageStartingWith("'down': the "
        + "action is 'down' already");
  }
}
