package io.fabemu.app.osu;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** OMB 7's message sizes: doublings from MIN, sizes without a whole element skipped, the -M cap, reduce-scatter. */
class OsuSizesTest {

  private static OsuSizes.Plan plan(OsuBenchmark b, String m, int ranks, Long memLimit) {
    return OsuSizes.plan(b, m == null ? null : OsuSizes.Range.parse(m), 4, "MPI_FLOAT", ranks, memLimit);
  }

  private static List<Long> doublings(long from, long to) {
    List<Long> sizes = new ArrayList<>();
    for (long s = from; s <= to; s *= 2) sizes.add(s);
    return sizes;
  }

  @Test
  void shouldSkipTheSizesBelowOneElementWhenTheDefaultsRun() {
    // OMB: 1, 2 (no whole float: skipped), 4 .. 1 MiB for the collectives; 0, then 1, 2 skipped, 4 .. 4 MiB for
    // pt2pt (0 B: a message without payload).
    OsuSizes.Plan collective = plan(OsuBenchmark.ALLREDUCE, null, 32, null);
    assertThat(collective.shownBytes()).isEqualTo(doublings(4, 1 << 20));
    assertThat(collective.minSizeBytes()).isEqualTo(4);
    assertThat(collective.maxSizeBytes()).isEqualTo(1 << 20);
    assertThat(collective.notes()).isEmpty();
    List<Long> pointToPoint = new ArrayList<>(List.of(0L));
    pointToPoint.addAll(doublings(4, 1 << 22));
    OsuSizes.Plan latency = plan(OsuBenchmark.LATENCY, null, 2, null);
    assertThat(latency.shownBytes()).isEqualTo(pointToPoint);
    assertThat(latency.minSizeBytes()).isZero();
    assertThat(plan(OsuBenchmark.BW, null, 2, null).shownBytes()).isEqualTo(pointToPoint);
  }

  @Test
  void shouldRunEveryByteSizeFromZeroWhenTheTypeIsMpiChar() {
    OsuSizes.Plan p = OsuSizes.plan(OsuBenchmark.LATENCY, OsuSizes.Range.parse("0:8"), 1, "MPI_CHAR", 2, null);
    assertThat(p.shownBytes()).containsExactly(0L, 1L, 2L, 4L, 8L);
    assertThat(p.minSizeBytes()).isZero();
    assertThat(p.maxSizeBytes()).isEqualTo(8);
  }

  @Test
  void shouldRefuseZeroBytesForTheCollectives() {
    assertThatThrownBy(() -> plan(OsuBenchmark.ALLREDUCE, "0:8", 4, null))
        .isInstanceOf(OsuSizes.Refused.class)
        .hasMessage("-m '0:8': MIN must be at least 1 byte (0-byte messages: osu-latency and osu-bw only)");
  }

  @Test
  void shouldDoubleFromMinWhileAtMostMaxWhenMaxIsNotAPowerOfTwo() {
    OsuSizes.Plan p = plan(OsuBenchmark.BCAST, "12:100", 8, null);

    assertThat(p.shownBytes()).containsExactly(12L, 24L, 48L, 96L);
    assertThat(p.maxSizeBytes()).isEqualTo(96);
  }

  @Test
  void shouldCapMaxAtTheMemoryLimitOverRanksWhenABlockPerRankAndWarnAsOmbDoes() {
    // 512 MiB / 1024 ranks = 512 KiB per block.
    OsuSizes.Plan allgather = plan(OsuBenchmark.ALLGATHER, null, 1024, null);
    assertThat(allgather.maxSizeBytes()).isEqualTo(512 * 1024);
    assertThat(allgather.notes()).containsExactly("Warning! Limiting max message size to: 524288. Increase -M, "
        + "--mem-limit for higher message sizes.");
    // Broadcast's buffer is the message itself: only a limit below MAX caps it.
    assertThat(plan(OsuBenchmark.BCAST, null, 1024, null).maxSizeBytes()).isEqualTo(1 << 20);
    assertThat(plan(OsuBenchmark.BCAST, "1:4194304", 4, 2L << 20).maxSizeBytes()).isEqualTo(2 << 20);
    // OMB raises a limit below 1 MiB to 1 MiB, and says so.
    OsuSizes.Plan low = plan(OsuBenchmark.ALLTOALL, null, 4, 1000L);
    assertThat(low.notes().get(0)).isEqualTo("Requested memory limit too low, using [1048576] instead.");
    assertThat(low.maxSizeBytes()).isEqualTo(256 * 1024);
    // osu_latency and osu_bw have no limit.
    assertThat(plan(OsuBenchmark.BW, null, 2, 1000L).notes()).isEmpty();
  }

  @Test
  void shouldRunWholeBuffersPerRankAndSkipTheUnevenOnesWhenReduceScatter() {
    // 32 ranks: a float each needs 128 B; 4..64 B do not divide.
    OsuSizes.Plan p = plan(OsuBenchmark.REDUCE_SCATTER, ":1024", 32, null);

    assertThat(p.shownBytes()).containsExactly(128L, 256L, 512L, 1024L);
    assertThat(p.minSizeBytes()).isEqualTo(4);
    assertThat(p.maxSizeBytes()).isEqualTo(32);
    assertThat(p.notes()).containsExactly("fabemu: osu-reduce-scatter skips 4, 8, 16, 32, 64 bytes: their MPI_FLOAT "
        + "elements do not divide evenly among 32 ranks (fabemu's reduce-scatter gives every rank the same count)");
  }

  @Test
  void shouldRefuseInOneLineWhatFabemuCannotRun() {
    assertThatThrownBy(() -> plan(OsuBenchmark.ALLREDUCE, "64:16", 4, null))
        .hasMessage("-m '64:16': MIN 64 is above MAX 16");
    assertThatThrownBy(() -> plan(OsuBenchmark.ALLREDUCE, "3", 4, null))
        .hasMessage("-m '3': no size from 1 to 3 bytes holds one MPI_FLOAT (4 bytes)");
    assertThatThrownBy(() -> plan(OsuBenchmark.ALLREDUCE, "5:64", 4, null))
        .hasMessage("-m '5:64': the first size, 5 bytes, is not a whole number of MPI_FLOAT elements (4 bytes "
            + "each); OMB would send 4 bytes and print 5");
    assertThatThrownBy(() -> plan(OsuBenchmark.ALLREDUCE, "2147483648", 4, null))
        .hasMessage("-m '2147483648': MAX 2147483648 is above the limit of 1073741824 bytes (1 GiB)");
    // 3 ranks: no power of two divides into whole floats per rank.
    assertThatThrownBy(() -> plan(OsuBenchmark.REDUCE_SCATTER, null, 3, null))
        .hasMessage("-m (default 1:1048576): no size from 4 to 1048576 bytes divides into whole MPI_FLOAT elements "
            + "among 3 ranks (fabemu's reduce-scatter gives every rank the same count)");
    assertThatThrownBy(() -> plan(OsuBenchmark.ALLGATHER, "1048576:", 4096, null))
        .hasMessage("-m '1048576:': no size from 1048576 to 131072 bytes holds one MPI_FLOAT (4 bytes) (-M limits "
            + "MAX to 131072 bytes on 4096 ranks)");
  }
}
