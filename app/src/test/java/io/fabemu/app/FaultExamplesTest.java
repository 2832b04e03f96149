package io.fabemu.app;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The fault examples run for real, on the embedded member, as docs/faults.md shows them. */
class FaultExamplesTest extends CliTestBase {

  @TempDir
  Path out;

  @Override
  protected ScenarioExecutor executor() {
    return null; // the real runner
  }

  @Test
  void theSpineFailureExampleReroutesAndEndsExactly() throws Exception {
    assertThat(fabemu("run", "../examples/leafspine-spine-failure.conf", "--no-progress", "--out",
        out.resolve("spine").toString())).isZero();
    // Detected after three missed 1 us heartbeats; rerouted 1 us + 4 x 100 ns + 1 us later; back after one heartbeat.
    assertThat(stdout).containsPattern("\\n0 +150\\.000 +switch spine0 +down +3\\.000 +5\\.400 +[1-9]\\d* ")
        .containsPattern("\\n1 +900\\.000 +switch spine0 +up +1\\.000 +3\\.500 ");
    assertThat(stdout).contains("#wrong").doesNotContain("INCOMPLETE");
    // The adaptive timeout: the one message the failure cut is resent once, nothing spuriously, before or after.
    assertThat(stdout).contains("# Fault totals: 14 packets lost, 0 corrupted, 1 message resent after a loss, "
        + "0 resent spuriously, 2 duplicates discarded\n");
    assertThat(stderr).doesNotContain("spurious");
    assertThat(Files.readString(out.resolve("spine/results.json"))).contains("\"faults\"")
        .containsPattern("\"baselineRun\" : \\{\\s*\"complete\" : true,\\s*\"lossDrivenResends\" : 0,\\s*"
            + "\"spuriousResends\" : 0,\\s*\"gaveUp\" : 0\\s*}");
    assertThat(Files.readString(out.resolve("spine/report.html"))).contains("href=\"#faults\"");
  }

  @Test
  void theLargeSpineFailureExampleResendsWhatWasLostAndNothingSpuriously() {
    assertThat(fabemu("run", "../examples/leafspine128-spine-failure.conf", "--no-progress")).isZero();
    // The reported trial: with a flat 50 us timeout thousands of spurious resends, 289 before the fault; adaptive,
    // every lost packet's message is resent once and nothing else (docs/faults.md, "The retransmit timeout").
    assertThat(stdout).containsPattern("\\n0 +1500\\.000 +switch spine0 +down +3\\.000 +5\\.800 +12 +0 +12 +0 +5 ")
        .contains("# Fault totals: 12 packets lost, 0 corrupted, 12 messages resent after a loss, 0 resent "
            + "spuriously, 6 duplicates discarded\n")
        .contains("#wrong").doesNotContain("INCOMPLETE");
    assertThat(stderr).doesNotContain("spurious");
  }

  @Test
  void theMeshNodeFailureExampleDetoursAndEndsExactly() throws Exception {
    assertThat(fabemu("run", "../examples/mesh-node-failure.conf", "--no-progress", "--out",
        out.resolve("mesh").toString())).isZero();
    // Detected after three missed 1 us heartbeats; rerouted 1 us + 64 x 100 ns + 1 us later (every NIC loses host27).
    assertThat(stdout).containsPattern("\\n0 +12\\.000 +node host27 +down +3\\.000 +11\\.400 +[1-9]\\d* ")
        .containsPattern("\\n1 +60\\.000 +node host27 +up +1\\.000 ")
        .containsPattern("# Detours after event 0 \\(node host27 down\\): \\d+ pairs through a via node .*, "
            + "[1-9]\\d* packets? sent on them");
    assertThat(stdout).contains("#wrong").doesNotContain("INCOMPLETE");
    assertThat(Files.readString(out.resolve("mesh/results.json"))).contains("\"host24->host31 via host16\"");
    assertThat(Files.readString(out.resolve("mesh/report.html"))).contains("<h3>Detours</h3>");
  }

  @Test
  void theCaseFaultExampleValidatesWithItsScheduleAndRunsItsEventsWhereTheyArePlaced() throws Exception {
    assertThat(fabemu("validate", "--schedule", "../examples/leafspine-case-fault.conf")).isZero();
    assertThat(stdout).containsPattern("schedule: 2 fault events placed in cases \\(numbered from 0\\)")
        .containsPattern("\\n  case 1 \\(allreduce ring, 1048576 B\\) starts at 610\\.141 us\\n")
        .contains("  faults.events[0] at case 1 iteration 0 + 150 us: 1203.224 us switch spine0 down\n",
            "  faults.events[1] at case 1 iteration 1 + 0 ps: 1526.601 us switch spine0 up\n",
            // --schedule: the run itself, the same intervals as the run's results.json below.
            "  case 1 (allreduce ring, 1048576 B): 610.141 us to 2.43 ms\n");
    assertThat(fabemu("run", "../examples/leafspine-case-fault.conf", "--no-progress", "--out",
        out.resolve("case").toString())).isZero();
    assertThat(stdout).containsPattern("\\n0 +1203\\.224 +switch spine0 +down ")
        .contains("# Cases touched: event 0: 1 (1 MiB); event 1: 1 (1 MiB)\n").contains("#wrong")
        .doesNotContain("INCOMPLETE");
    String json = Files.readString(out.resolve("case/results.json"));
    assertThat(json).contains("\"startPs\" : 610141120").contains("\"start\" : \"610.141 us\"")
        .contains("\"end\" : \"2.43 ms\"").contains("\"casesTouched\" : [ 1 ]");
    assertThat(Files.readString(out.resolve("case/report.html")))
        .contains("<h3>Cases with and without the faults</h3>");
  }

  @Test
  void theMeshIoEthernetExampleValidatesWithItsIoNodes() {
    assertThat(fabemu("validate", "../examples/mesh-io-ethernet.conf")).isZero();
    assertThat(stdout).contains("ethernet: I/O nodes host0, host63 (standby host7), 4 external hosts, 20 frames in "
        + "per external host, 20 out per node\n");
  }

  @Test
  void theMeshIoEthernetExampleDetoursFramesAndSwitchesToTheStandby() throws Exception {
    assertThat(fabemu("run", "../examples/mesh-io-ethernet.conf", "--no-progress", "--out",
        out.resolve("ethernet").toString())).isZero();
    assertThat(stdout).contains("# Ethernet: Ethernet NIC of host63 disabled (node host63 down at 40.000 us), host7 "
        + "enabled\n");
    assertThat(stdout).containsPattern("\\nhost0 +enabled +70 +1 +42 +27 +654 +0 +42 +0\\n")
        .containsPattern("\\nhost7 +enabled +4 +0 +4 +0 +303 +0 +31 +0\\n")
        .containsPattern("\\nhost63 +disabled +3 +0 +3 +0 +224 +3 +28 +0\\n")
        .contains("# Nodes: 60 frames kept, 1658 discarded (not their MAC), 0 wrong; 1 corrupted on the cables, "
            + "158 frames lost in the router network\n");
    assertThat(stdout).contains("#wrong").doesNotContain("INCOMPLETE");
    String json = Files.readString(out.resolve("ethernet/results.json"));
    assertThat(json).contains("\"ethernet\" : {").contains("\"framesLost\" : 158")
        .contains("\"changes\" : [ \"Ethernet NIC of host63 disabled");
    assertThat(Files.readString(out.resolve("ethernet/report.html"))).contains("<h3>Address tables</h3>");
  }

  @Test
  void theIncSwitchFailureExampleFallsBackToTheHostExactlyAndSaysWhy() throws Exception {
    assertThat(fabemu("run", "../examples/inc-switch-failure.conf", "--no-progress", "--out",
        out.resolve("inc").toString())).isZero();
    // Detected after three missed 1 us heartbeats; the eight TORs rerouted 1 us + 8 x 100 ns + 1 us later; the first
    // host's notice 100 ns after the management node heard, on a channel of its own.
    assertThat(stdout).containsPattern("\\n0 +60\\.000 +switch spine0 +down +3\\.000 +5\\.800 ");
    assertThat(stdout).containsPattern("# INC fallback: INC group \\d+ over spine0 broken by 60\\.000 us switch "
        + "spine0 down \\(event 0\\): its leaders finish the case with a host reduce and broadcast at their lowest "
        + "rank, from the notice at 65\\.100 us\\n");
    assertThat(stdout).contains("#wrong").doesNotContain("INCOMPLETE").doesNotContain("no INC");
    assertThat(Files.readString(out.resolve("inc/results.json"))).contains("\"incFallbacks\" : [ \"INC group ");
    assertThat(Files.readString(out.resolve("inc/report.html"))).contains("<th>INC fallbacks</th>");
  }

  @Test
  void thePartitionExampleExitsOneWithTheLine() {
    assertThat(fabemu("run", "../examples/leafspine-partition.conf", "--no-progress", "--out",
        out.resolve("partition").toString())).isEqualTo(1);
    assertThat(stderr.lines()).contains("fabemu: run incomplete: partition since 100.000 us (link host5-tor1 down): "
        + "ranks 0-9,12-31 cannot reach ranks 10-11");
  }
}
