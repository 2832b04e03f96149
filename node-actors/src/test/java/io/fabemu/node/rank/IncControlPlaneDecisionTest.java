package io.fabemu.node.rank;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabemu.collectives.IncLayout;
import io.fabemu.collectives.IncMode;
import io.fabemu.core.data.DataType;
import io.fabemu.core.data.ReduceOp;
import io.fabemu.core.inc.IncAddresses;
import io.fabemu.core.inc.IncCodes.FailCause;
import org.junit.jupiter.api.Test;

/** The MRR's decision for a message larger than the switches' maximum data size: stream it, or fall back. */
class IncControlPlaneDecisionTest {
  /** 4 nodes, 2 per TOR: two TORs under a SPINE. */
  private static final IncLayout LAYOUT = IncLayout.of(IncMode.NODE, 4, 2, 1, 2);
  private static final long SPINE = IncAddresses.ofVertex(6);

  private static IncControlPlane.Summary summary(int maxDataSize, int window) {
    return new IncControlPlane.Summary(FailCause.NONE, 0xFFFF, 0xFFFF, maxDataSize, SPINE, 5, 3, window);
  }

  @Test
  void shouldStreamInChunksOfTheMaximumDataSizeWithTheWindowThePathsAllow() {
    IncControlPlane.Decision d = IncControlPlane.decide(summary(256, 64), LAYOUT, 4096, DataType.FLOAT32,
        ReduceOp.SUM);
    assertThat(d.cause()).isEqualTo(FailCause.NONE);
    assertThat(d.streamWindow()).isEqualTo(64);
    assertThat(d.chunkBytes()).isEqualTo(256);
  }

  @Test
  void shouldCutChunksOnWholeElements() {
    IncControlPlane.Decision d = IncControlPlane.decide(summary(254, 8), LAYOUT, 4096, DataType.FLOAT64,
        ReduceOp.SUM);
    assertThat(d.chunkBytes()).isEqualTo(248);
  }

  @Test
  void shouldNotStreamAMessageThatFitsOneTask() {
    IncControlPlane.Decision d = IncControlPlane.decide(summary(256, 64), LAYOUT, 256, DataType.FLOAT32,
        ReduceOp.SUM);
    assertThat(d.cause()).isEqualTo(FailCause.NONE);
    assertThat(d.streamWindow()).isZero();
  }

  @Test
  void shouldFallBackWithMessageTooLargeWhenSomethingOnThePathKeepsNoWindow() {
    IncControlPlane.Decision d = IncControlPlane.decide(summary(256, 0), LAYOUT, 4096, DataType.FLOAT32,
        ReduceOp.SUM);
    assertThat(d.cause()).isEqualTo(FailCause.MESSAGE_TOO_LARGE);
  }

  @Test
  void shouldTakeTheSmallestWindowOfTheQueriesWhenSummariesMerge() {
    assertThat(summary(256, 64).merge(summary(512, 12)).streamWindow()).isEqualTo(12);
    assertThat(summary(256, 64).merge(summary(512, 12)).maxDataSize()).isEqualTo(256);
  }
}
