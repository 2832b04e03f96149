package io.fabemu.traces;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class TraceCommTest {

  @Test
  void shouldBuildACollectiveWithDefaults() {
    TraceComm comm = TraceComm.builder().commType(TraceCommType.ALL_GATHER).sizeBytes(1024).build();

    assertThat(comm.commType()).isEqualTo(TraceCommType.ALL_GATHER);
    assertThat(comm.sizeBytes()).isEqualTo(1024);
    assertThat(comm.peerRank()).isEqualTo(TraceComm.NO_PEER);
    assertThat(comm.tag()).isZero();
    assertThat(comm.hasProcessGroup()).isFalse();
    assertThat(comm.involvedDims()).isEmpty();
  }

  @Test
  void shouldBuildAPointToPointWithTagGroupAndCopiedDims() {
    List<Boolean> dims = new ArrayList<>(List.of(true, false));
    TraceComm comm = TraceComm.builder().peerRank(3).sizeBytes(8).tag(5).processGroup("pp").involvedDims(dims).build();
    dims.add(true);

    assertThat(comm.peerRank()).isEqualTo(3);
    assertThat(comm.commType()).isNull();
    assertThat(comm.tag()).isEqualTo(5);
    assertThat(comm.processGroup()).isEqualTo("pp");
    assertThat(comm.involvedDims()).containsExactly(true, false);
  }

  @Test
  void shouldRefuseAMissingSizeANegativePeerOrBothOrNeitherOfTypeAndPeer() {
    assertThatThrownBy(() -> TraceComm.builder().commType(TraceCommType.BARRIER).build())
        .hasMessageContaining("sizeBytes must not be negative");
    assertThatThrownBy(() -> TraceComm.builder().peerRank(-2).sizeBytes(1).build())
        .hasMessageContaining("peerRank must be a rank");
    assertThatThrownBy(() -> TraceComm.builder().sizeBytes(1).build()).hasMessageContaining("not neither");
    assertThatThrownBy(() -> TraceComm.builder().commType(TraceCommType.REDUCE).peerRank(1).sizeBytes(1).build())
        .hasMessageContaining("not both");
  }
}
