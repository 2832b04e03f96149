package io.fabemu.traces;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabemu.traces.proto.NodeType;
import org.junit.jupiter.api.Test;

class TraceNodeTypeTest {

  @Test
  void shouldMatchChakrasNodeTypesLessInvalid() {
    for (TraceNodeType type : TraceNodeType.values()) {
      assertThat(NodeType.valueOf(type.name() + "_NODE")).isNotNull();
    }
  }

  @Test
  void shouldTellCommunicationAndPointToPoint() {
    assertThat(TraceNodeType.COMM_COLL.isCommunication()).isTrue();
    assertThat(TraceNodeType.COMM_COLL.isPointToPoint()).isFalse();
    assertThat(TraceNodeType.COMM_SEND.isPointToPoint()).isTrue();
    assertThat(TraceNodeType.COMM_RECV.isPointToPoint()).isTrue();
    assertThat(TraceNodeType.COMP.isCommunication()).isFalse();
    assertThat(TraceNodeType.MEM_LOAD.isCommunication()).isFalse();
  }
}
