package io.fabemu.core.sim;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabemu.core.sim.DeviceReport.LinkCounters;
import io.fabemu.core.sim.DeviceReport.RankResult;
import io.fabemu.core.sim.DeviceReport.VcCounters;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A device report's kernel figures and the parts features contribute, built and looked up by class. */
class DeviceReportTest {

  /** A feature's part, as a feature package would declare one. */
  private record Tally(long count) implements ReportPart {
    @Override
    public long wireBytesEstimate() {
      return 8L * count;
    }
  }

  /** Another feature's part. */
  private record Notes(List<String> lines) implements ReportPart {
    @Override
    public long wireBytesEstimate() {
      return 64L * lines.size();
    }
  }

  @Test
  void shouldBuildTheKernelFiguresAndThePartsInTheOrderAdded() {
    List<LinkCounters> links = List.of(new LinkCounters(1, 2, 64L, 1L, 100L));
    List<RankResult> ranks = List.of(RankResult.builder(0, 0, 1).totalLatencyPs(10L).minLatencyPs(10L).maxLatencyPs(10L)
        .build());
    List<VcCounters> vcs = List.of(new VcCounters(2, 1, 0, 5L, 0L, 0L));

    DeviceReport report = DeviceReport.builder(1).links(links).ranks(ranks).virtualChannels(vcs)
        .part(new Notes(List.of("a"))).part(new Tally(3)).build();

    assertThat(report.deviceId()).isEqualTo(1);
    assertThat(report.links()).isEqualTo(links);
    assertThat(report.ranks()).isEqualTo(ranks);
    assertThat(report.virtualChannels()).isEqualTo(vcs);
    assertThat(report.parts()).containsExactly(new Notes(List.of("a")), new Tally(3));
  }

  @Test
  void shouldFindAPartByItsClassAndNullForAnAbsentOne() {
    DeviceReport report = DeviceReport.builder(4).part(new Tally(7)).build();

    assertThat(report.part(Tally.class)).isEqualTo(new Tally(7));
    assertThat(report.part(Notes.class)).isNull();
  }

  @Test
  void shouldLeaveANullPartOutAndDefaultEveryListToEmpty() {
    DeviceReport report = DeviceReport.builder(5).part(null).build();

    assertThat(report).isEqualTo(new DeviceReport(5, List.of(), List.of()));
    assertThat(report.parts()).isEmpty();
    assertThat(report.virtualChannels()).isEmpty();
  }

  @Test
  void shouldRefuseTwoPartsOfOneClassNamingTheDeviceAndTheClass() {
    assertThatThrownBy(() -> DeviceReport.builder(9).part(new Tally(1)).part(new Tally(2)).build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("device 9 reports two parts of class " + Tally.class.getName());
  }

  @Test
  void shouldKeepItsPartsWhenTheCallersListChangesLater() {
    List<ReportPart> parts = new ArrayList<>(List.of(new Tally(1)));
    DeviceReport report = new DeviceReport(2, List.of(), List.of(), List.of(), parts);

    parts.add(new Notes(List.of()));

    assertThat(report.parts()).containsExactly(new Tally(1));
    assertThatThrownBy(() -> report.parts().add(new Notes(List.of())))
        .isInstanceOf(UnsupportedOperationException.class);
  }

  @Test
  void shouldTakeEveryDefaultWhenTheRankResultBuilderIsGivenOnlyTheCase() {
    RankResult r = RankResult.builder(3, 1, 4).build();

    assertThat(r).isEqualTo(new RankResult(3, 1, 4, 0L, 0L, 0L, 0L, -1, null, null, null, -1, -1));
    assertThat(r.iterationLatenciesPs()).isEmpty();
    assertThat(r.caseTimed()).isFalse();
  }

  @Test
  void shouldCopyEveryComponentOfARankResultWhenToBuilder() {
    RankResult r = new RankResult(3, 1, 2, 30L, 10L, 20L, 1L, 0, new long[] {10, 20}, new long[] {5, 40},
        new long[] {12, 45}, 0L, 70L);

    assertThat(r.toBuilder().build()).isEqualTo(r);
    assertThat(r.toBuilder().caseStartPs(-1).caseEndPs(-1).build().caseTimed()).isFalse();
    assertThatThrownBy(() -> r.toBuilder().caseEndPs(-1).build()).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("rank 3 case 1: case interval [0, -1] ps is not an interval (both -1, or start <= end)");
  }
}
