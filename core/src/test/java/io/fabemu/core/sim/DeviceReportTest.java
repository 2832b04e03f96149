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
    List<RankResult> ranks = List.of(new RankResult(0, 0, 1, 10L, 10L, 10L, 0L));
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
}
