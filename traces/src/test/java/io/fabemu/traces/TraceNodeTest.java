package io.fabemu.traces;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

class TraceNodeTest {

  private static final TraceComm COLLECTIVE = TraceComm.builder().commType(TraceCommType.ALL_REDUCE).sizeBytes(64)
      .build();
  private static final TraceComm SEND = TraceComm.builder().peerRank(1).sizeBytes(64).build();

  @Test
  void shouldBuildAComputeNodeWithDefaults() {
    TraceNode node = TraceNode.builder().id(4).type(TraceNodeType.COMP).build();

    assertThat(node.name()).isEmpty();
    assertThat(node.durationMicros()).isZero();
    assertThat(node.dataDeps()).isEmpty();
    assertThat(node.ctrlDeps()).isEmpty();
    assertThat(node.comm()).isNull();
  }

  @Test
  void shouldBuildACommunicationNode() {
    TraceNode node = TraceNode.builder().id(-1).type(TraceNodeType.COMM_COLL).name("ar").durationMicros(3)
        .dataDeps(List.of(1L)).ctrlDeps(List.of(2L)).comm(COLLECTIVE).build();

    assertThat(node.id()).isEqualTo(-1);
    assertThat(node.comm()).isEqualTo(COLLECTIVE);
    assertThat(node.dataDeps()).containsExactly(1L);
    assertThat(node.ctrlDeps()).containsExactly(2L);
  }

  @Test
  void shouldRefuseACommunicationThatDoesNotFitTheType() {
    assertThatThrownBy(() -> TraceNode.builder().id(1).type(TraceNodeType.COMM_SEND).build())
        .hasMessage("COMM_SEND node 1 lacks its communication");
    assertThatThrownBy(() -> TraceNode.builder().id(2).type(TraceNodeType.COMP).comm(COLLECTIVE).build())
        .hasMessage("COMP node 2 cannot carry a communication");
    assertThatThrownBy(() -> TraceNode.builder().id(3).type(TraceNodeType.COMM_RECV).comm(COLLECTIVE).build())
        .hasMessage("COMM_RECV node 3 needs a peer rank");
    assertThatThrownBy(() -> TraceNode.builder().id(4).type(TraceNodeType.COMM_COLL).comm(SEND).build())
        .hasMessage("COMM_COLL node 4 needs a collective type, not a peer");
  }

  @Test
  void shouldRefuseANegativeDurationOrAMissingType() {
    assertThatThrownBy(() -> TraceNode.builder().id(1).type(TraceNodeType.COMP).durationMicros(-1).build())
        .hasMessageContaining("durationMicros must not be negative");
    assertThatThrownBy(() -> TraceNode.builder().id(1).build()).isInstanceOf(NullPointerException.class);
  }
}
