package io.fabemu.traces;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class TraceGraphTest {

  private static final TraceNode COMP = TraceNode.builder().id(7).type(TraceNodeType.COMP).build();
  private static final TraceNode SEND = TraceNode.builder().id(3).type(TraceNodeType.COMM_SEND)
      .comm(TraceComm.builder().peerRank(0).sizeBytes(4).build()).build();

  @Test
  void shouldKeepFileOrderAndFindNodesAndCommunication() {
    Map<Long, TraceNode> nodes = new LinkedHashMap<>();
    nodes.put(7L, COMP);
    nodes.put(3L, SEND);
    TraceGraph graph = new TraceGraph(1, "t.1.et", "0.0.4", nodes);
    nodes.clear();

    assertThat(graph.nodes().keySet()).containsExactly(7L, 3L);
    assertThat(graph.node(3)).isEqualTo(SEND);
    assertThat(graph.node(99)).isNull();
    assertThat(graph.communicationNodes()).containsExactly(SEND);
    assertThatThrownBy(() -> graph.nodes().put(1L, COMP)).isInstanceOf(UnsupportedOperationException.class);
  }

  @Test
  void shouldRefuseANodeUnderAnotherIdOrANegativeRank() {
    assertThatThrownBy(() -> new TraceGraph(0, "t.0.et", "", Map.of(8L, COMP)))
        .hasMessage("node keyed 8 has id 7");
    assertThatThrownBy(() -> new TraceGraph(-1, "t.0.et", "", Map.of())).hasMessageContaining("rank");
  }
}
