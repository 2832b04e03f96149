package io.fabemu.traces;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * One rank's Chakra trace as a validated dependency graph: every dependency names a node of this rank, there is no
 * cycle, and every communication node is complete ({@link ChakraTraceReader} checks this before building one).
 *
 * @param rank            the rank whose file this is
 * @param file            the rank file, as the reader named it
 * @param schemaVersion   GlobalMetadata's {@code version}, empty when absent
 * @param nodes           the nodes by id, in file order
 */
public record TraceGraph(int rank, String file, String schemaVersion, Map<Long, TraceNode> nodes) {

  public TraceGraph {
    if (rank < 0) {
      throw new IllegalArgumentException("rank must not be negative, got " + rank);
    }
    Objects.requireNonNull(file, "file");
    Objects.requireNonNull(schemaVersion, "schemaVersion");
    Map<Long, TraceNode> copy = new LinkedHashMap<>();
    for (Map.Entry<Long, TraceNode> entry : nodes.entrySet()) {
      if (entry.getKey() != entry.getValue().id()) {
        throw new IllegalArgumentException("node keyed " + entry.getKey() + " has id " + entry.getValue().id());
      }
      copy.put(entry.getKey(), entry.getValue());
    }
    nodes = Collections.unmodifiableMap(copy);
  }

  /** The node with this id, or null. */
  public TraceNode node(long id) {
    return nodes.get(id);
  }

  /** The communication nodes (send, receive, collective), in file order. */
  public List<TraceNode> communicationNodes() {
    List<TraceNode> result = new ArrayList<>();
    for (TraceNode node : nodes.values()) {
      if (node.type().isCommunication()) {
        result.add(node);
      }
    }
    return List.copyOf(result);
  }
}
