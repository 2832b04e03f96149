package io.fabemu.loadtests;

import static org.assertj.core.api.Assertions.assertThat;

import com.typesafe.config.ConfigFactory;
import io.fabemu.loadtests.Calibration.Cell;
import io.fabemu.loadtests.Calibration.Comparison;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Keeps the committed profile calibrated: emulated with {@code profiles/roce25g-tor-spine-fpga.conf}, the paper's
 * 4-node osu_allreduce table (host, INC Node, INC Socket; PPN 8/32/64; 4-256 B) is reproduced within 10 % mean
 * absolute percentage error, with at least 90 % of its host-vs-INC orderings right (docs/calibration.md).
 */
class CalibrationTest {
  private static final Path PROFILE = Path.of("..", "profiles", "roce25g-tor-spine-fpga.conf");
  private static final Path REFERENCE = Path.of("..", "reference", "inc-allreduce-4nodes.csv");

  @Test
  void shouldReproduceTheFourNodeTableWithinTheBarWhenTheCommittedProfileIsUsed() throws Exception {
    assertThat(REFERENCE).as("the reference table reference/inc-allreduce-4nodes.csv")
        .exists();
    List<Cell> cells = Calibration.readReference(REFERENCE);
    assertThat(cells).hasSize(63);
    Comparison c = Calibration.compare(PROFILE, ConfigFactory.empty(), cells, 4);
    assertThat(c.mapePercent()).as(Calibration.table(c)).isLessThanOrEqualTo(10.0);
    assertThat(c.orderingsRight() * 10).as(Calibration.table(c)).isGreaterThanOrEqualTo(c.orderings() * 9);
  }

  @Test
  void shouldCountAnOrderingWrongWhenEmulatedIncAndHostSwapPlaces() {
    List<Cell> cells = List.of(new Cell("host", 8, 4, 10.0), new Cell("inc-node", 8, 4, 8.0));
    Comparison right = Calibration.summarize(cells, new double[] {10.0, 8.0});
    Comparison wrong = Calibration.summarize(cells, new double[] {8.0, 10.0});
    assertThat(right.orderingsRight()).isEqualTo(1);
    assertThat(right.mapePercent()).isZero();
    assertThat(wrong.orderingsRight()).isZero();
    assertThat(wrong.mapePercent()).isEqualTo(22.5);
  }

  @Test
  void shouldReadEveryColumnOfTheTableWhenTheHeaderNamesModeAndPpn() throws Exception {
    Path csv = Files.createTempFile("ref", ".csv");
    Files.writeString(csv, "# comment\nnodes,bytes,host_ppn8,inc_socket_ppn64\n4,4,6.89,14.07\n4,8,6.77,13\n");
    assertThat(Calibration.readReference(csv)).containsExactly(new Cell("host", 8, 4, 6.89),
        new Cell("inc-socket", 64, 4, 14.07), new Cell("host", 8, 8, 6.77), new Cell("inc-socket", 64, 8, 13.0));
    Files.delete(csv);
  }
}
