package io.fabemu.app.nccl;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabemu.collectives.Algorithm;
import io.fabemu.collectives.Collective;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/** nccl-tests' size parsing, size sweep and per-rank counts, as its getCollByteCount functions compute them. */
class NcclPerfProgramTest {

  @Test
  void shouldParseSizesAsNcclTestsParsesize() {
    assertThat(NcclPerfProgram.parseSize("8")).isEqualTo(8);
    assertThat(NcclPerfProgram.parseSize("1M")).isEqualTo(1L << 20);
    assertThat(NcclPerfProgram.parseSize("128k")).isEqualTo(128L << 10);
    assertThat(NcclPerfProgram.parseSize("2G")).isEqualTo(2L << 30);
    assertThat(NcclPerfProgram.parseSize("1.5K")).isEqualTo(1536);
    assertThat(NcclPerfProgram.parseSize("0.3")).isEqualTo(0); // truncated to whole bytes, as the C cast does
    assertThat(NcclPerfProgram.parseSize("1MB")).isEqualTo(1L << 20); // C ignores what follows the unit letter
    assertThat(NcclPerfProgram.parseSize(" 4 M")).isEqualTo(4L << 20);
    assertThat(NcclPerfProgram.parseSize("8B")).isEqualTo(-1);
    assertThat(NcclPerfProgram.parseSize("-8")).isEqualTo(-1);
    assertThat(NcclPerfProgram.parseSize("M")).isEqualTo(-1);
    assertThat(NcclPerfProgram.parseSize("")).isEqualTo(-1);
  }

  @Test
  void shouldStepByFactorOrBytesUpToMaxWhenSweeping() {
    assertThat(NcclPerfProgram.sizes(8, 1 << 20, 2, 1 << 20, 1000)).hasSize(18).startsWith(8L, 16L)
        .endsWith(1L << 20);
    assertThat(NcclPerfProgram.sizes(100, 1000, 1, 300, 1000)).containsExactly(100L, 400L, 700L, 1000L);
    assertThat(NcclPerfProgram.sizes(32 << 20, 32 << 20, 1, 1 << 20, 1000)).containsExactly(32L << 20);
    assertThat(NcclPerfProgram.sizes(8, 100, 10, 0, 1000)).containsExactly(8L, 80L);
    assertThat(NcclPerfProgram.sizes(1, 1 << 20, 1, 1, 5)).hasSize(6); // one more than the limit: the caller refuses
    assertThat(NcclPerfProgram.sizes(0, 8, 2, 0, 1000)).containsExactly(0L); // no progress from 0: stop
  }

  @Test
  void shouldCountPerRankAsNcclTestsGetCollByteCount() {
    // allreduce, broadcast, reduce, sendrecv: count = size / wordsize.
    assertThat(NcclPerfProgram.ALL_REDUCE.perRankCount(1 << 20, 4, 32)).isEqualTo(262_144);
    assertThat(NcclPerfProgram.SENDRECV.perRankCount(10, 4, 2)).isEqualTo(2);
    // allgather, reduce-scatter: whole multiples of 4 elements per rank.
    assertThat(NcclPerfProgram.ALL_GATHER.perRankCount(1 << 20, 4, 8)).isEqualTo(32_768);
    assertThat(NcclPerfProgram.REDUCE_SCATTER.perRankCount(1000, 4, 8)).isEqualTo(28); // 250 / 32 = 7, x 4
    assertThat(NcclPerfProgram.ALL_GATHER.perRankCount(256, 4, 32)).isZero();
    // alltoall: whole 16-byte multiples per peer.
    assertThat(NcclPerfProgram.ALLTOALL.perRankCount(1000, 4, 8)).isEqualTo(28); // 31 & -4
    assertThat(NcclPerfProgram.ALLTOALL.perRankCount(1000, 8, 8)).isEqualTo(14); // 15 & -2
  }

  @Test
  void shouldNameEveryProgramAfterNcclTestsAndRunItsCollective() {
    assertThat(Arrays.stream(NcclPerfProgram.values()).map(p -> p.commandName)).containsExactly("all-reduce-perf",
        "all-gather-perf", "reduce-scatter-perf", "broadcast-perf", "reduce-perf", "alltoall-perf", "sendrecv-perf");
    for (NcclPerfProgram p : NcclPerfProgram.values()) {
      assertThat(p.program).isEqualTo(p.commandName.replace('-', '_'));
      assertThat(NcclTestsReport.program(p.collective)).isEqualTo(p.program);
      assertThat(Algorithm.validFor(p.collective)).contains(p.defaultAlgorithm());
    }
    assertThat(NcclPerfProgram.SENDRECV.collective).isEqualTo(Collective.SENDRECV);
    assertThat(NcclPerfProgram.SENDRECV.defaultAlgorithm()).isEqualTo(Algorithm.RING);
    assertThat(NcclPerfProgram.ALL_REDUCE.defaultAlgorithm()).isEqualTo(Algorithm.AUTO);
  }
}
