package io.fabemu.app.osu;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabemu.app.CliTestBase;
import io.fabemu.app.ScenarioExecutor;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * osu-latency and osu-bw on the real ScenarioRunner from 0 B (a message without payload, OMB's first row) and with
 * MPI_CHAR (a signed byte, checked exactly like the other types).
 */
class OsuPointToPointEndToEndTest extends CliTestBase {

  @Override
  protected ScenarioExecutor executor() {
    return null;
  }

  /** The rows of an OSU table: size and the figures after it. */
  private List<String[]> rows() {
    return stdout.lines().filter(l -> !l.isEmpty() && !l.startsWith("#")).map(l -> l.trim().split("\\s+")).toList();
  }

  @Test
  void shouldRunAZeroByteMessageThatStillTakesTimeAndEveryByteSizeOfMpiChar() throws Exception {
    int code = fabemu("osu-latency", "--profile", tinyProfile().toString(), "-m", "0:4", "-T", "MPI_CHAR", "-i",
        "2", "-x", "0", "-c", "--no-progress");

    assertThat(code).as(stderr).isZero();
    assertThat(stdout).contains("# Datatype: MPI_CHAR.");
    List<String[]> rows = rows();
    assertThat(rows).extracting(r -> r[0]).containsExactly("0", "1", "2", "4");
    assertThat(rows).extracting(r -> r[2]).containsOnly("Pass");
    double zeroBytesUs = Double.parseDouble(rows.get(0)[1]);
    // No payload, but the headers, the overheads and the links' latency: more than the two 0.5 us hops.
    assertThat(zeroBytesUs).isGreaterThan(1.0);
    assertThat(Double.parseDouble(rows.get(3)[1])).isGreaterThanOrEqualTo(zeroBytesUs);
  }

  @Test
  void shouldStreamZeroByteMessagesAtZeroBandwidthWhenBw() throws Exception {
    int code = fabemu("osu-bw", "--profile", tinyProfile().toString(), "-m", "0:4", "-i", "2", "-x", "0", "-W", "4",
        "-c", "--no-progress");

    assertThat(code).as(stderr).isZero();
    List<String[]> rows = rows();
    assertThat(rows).extracting(r -> r[0]).containsExactly("0", "4");
    assertThat(rows.get(0)[1]).isEqualTo("0.00");
    assertThat(Double.parseDouble(rows.get(1)[1])).isPositive();
    assertThat(rows).extracting(r -> r[2]).containsOnly("Pass");
  }
}
