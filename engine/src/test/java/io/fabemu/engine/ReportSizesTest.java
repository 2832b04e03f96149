package io.fabemu.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabemu.core.fault.FaultReport;
import io.fabemu.core.fault.FaultTally;
import io.fabemu.core.optical.OcsReport;
import io.fabemu.core.sim.BusyProfile;
import io.fabemu.core.sim.DeviceReport;
import io.fabemu.core.sim.DeviceReport.LinkCounters;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A member's reports cut into messages below Artery's frame, by their busy periods and ranks' arrays. */
class ReportSizesTest {

  /** A switch report of one link with {@code periods} back-to-back-free busy periods of 1 ps. */
  private static DeviceReport switchWith(int deviceId, int periods) {
    long[] starts = new long[periods];
    long[] ends = new long[periods];
    long[] busy = new long[periods];
    for (int i = 0; i < periods; i++) {
      starts[i] = 2L * i;
      ends[i] = 2L * i + 1;
      busy[i] = 1;
    }
    BusyProfile profile = new BusyProfile(periods, starts, ends, busy, 0);
    return new DeviceReport(deviceId, List.of(new LinkCounters(deviceId, deviceId + 1, 1, 1, profile, 0)),
        List.of());
  }

  @Test
  void shouldCountTheBusyPeriodsOfEveryLink() {
    assertThat(ReportSizes.estimate(switchWith(0, 10_000)) - ReportSizes.estimate(switchWith(0, 0)))
        .isEqualTo(240_000);
  }

  @Test
  void shouldCountWhatEachFeaturePartSaysGrowsInIt() {
    List<OcsReport.ChangeCost> changes = new ArrayList<>();
    for (int i = 0; i < 1_000; i++) changes.add(new OcsReport.ChangeCost(i, 1, 1, i, 0L, 0L, 0L));
    DeviceReport plain = DeviceReport.builder(0).build();
    DeviceReport withParts = DeviceReport.builder(0).part(new OcsReport(0, 0L, 0L, 0L, 0L, changes))
        .part(new FaultReport(new FaultTally(9), List.of(), null, List.of("gave up"))).build();

    assertThat(ReportSizes.estimate(withParts) - ReportSizes.estimate(plain))
        .isEqualTo(128L * 1_000 + 48L * 10 + 256L);
  }

  @Test
  void shouldCutReportsIntoChunksOfAtMostTheLimitKeepingTheirOrder() {
    List<DeviceReport> reports = new ArrayList<>();
    for (int d = 0; d < 10; d++) reports.add(switchWith(d, 10_000));   // about 244 KB each

    List<ArrayList<DeviceReport>> chunks = ReportSizes.chunks(reports, MemberScheduler.MAX_BATCH_BYTES);

    assertThat(chunks).hasSize(3);
    assertThat(chunks).allSatisfy(c -> assertThat(c.stream().mapToLong(ReportSizes::estimate).sum())
        .isLessThanOrEqualTo(MemberScheduler.MAX_BATCH_BYTES));
    assertThat(chunks.stream().flatMap(List::stream).map(DeviceReport::deviceId).toList())
        .containsExactly(0, 1, 2, 3, 4, 5, 6, 7, 8, 9);
  }

  @Test
  void shouldGiveALargeReportAChunkOfItsOwnAndNoReportsOneEmptyChunk() {
    List<ArrayList<DeviceReport>> chunks = ReportSizes.chunks(List.of(switchWith(0, 10), switchWith(1, 100_000),
        switchWith(2, 10)), 1L << 20);

    assertThat(chunks).extracting(List::size).containsExactly(1, 1, 1);
    assertThat(ReportSizes.chunks(List.of(), 1L << 20)).containsExactly(new ArrayList<>());
  }
}
