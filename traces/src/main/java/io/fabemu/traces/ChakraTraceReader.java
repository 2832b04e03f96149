package io.fabemu.traces;

import com.google.protobuf.CodedInputStream;
import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.Parser;
import io.fabemu.traces.proto.AttributeProto;
import io.fabemu.traces.proto.GlobalMetadata;
import io.fabemu.traces.proto.Node;
import java.io.BufferedInputStream;
import java.io.EOFException;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.zip.GZIPInputStream;
import java.util.zip.ZipException;

/**
 * Reads a Chakra execution trace, one file per rank ({@code PREFIX.<rank>.et}, plain or gzip-compressed), into one
 * validated {@link TraceGraph} per rank.
 *
 * <p>Each file is one length-delimited {@code GlobalMetadata} message and then length-delimited {@code Node} messages
 * (what protobuf's {@code writeDelimitedTo} writes). Decoding is bounded by {@link TraceLimits}: the file's size on
 * disk and decompressed, each message's declared length (checked before it is read, and enforced by the decoder's
 * size limit), the nodes per file, the dependencies and attributes per node and every string's length.
 *
 * <p>Refused, each with a {@link TraceException} naming the file and, where one is at fault, the node: a missing rank
 * file (saying where the rank files stop), a truncated or corrupted message, an unknown node type, a duplicate node
 * id, a dependency on a node the rank lacks, a dependency cycle (naming a node on it), a communication node without
 * its size, collective type or peer, a peer outside the ranks, and a process group that is not defined or names a
 * rank the trace lacks. Nothing is returned unless every rank passed.
 *
 * <p>Process groups: a node's {@code pg_name} names a group; Chakra keeps the groups' members outside the node files
 * (ASTRA-sim's communicator-group file), so the caller passes them as {@code processGroups} (name to ranks). With no
 * groups given, names are kept unchecked.
 *
 * <p>Past 500 lines on purpose: the decoder, its bounds and the checks of a rank's graph read the same cursor and
 * report through the same one-line errors; split, each part would need the others' state.
 */
public final class ChakraTraceReader {

  /** The first two bytes of a gzip stream. */
  private static final int GZIP_MAGIC_0 = 0x1f;
  private static final int GZIP_MAGIC_1 = 0x8b;

  private final TraceLimits limits;
  private final Map<String, List<Integer>> processGroups;

  private ChakraTraceReader(TraceLimits limits, Map<String, List<Integer>> processGroups) {
    this.limits = limits;
    this.processGroups = Map.copyOf(processGroups);
  }

  /** A reader with {@link TraceLimits#DEFAULTS} and no process groups. */
  public static ChakraTraceReader create() {
    return new ChakraTraceReader(TraceLimits.DEFAULTS, Map.of());
  }

  /** A reader with these limits and process groups (name to member ranks; empty to leave names unchecked). */
  public static ChakraTraceReader create(TraceLimits limits, Map<String, List<Integer>> processGroups) {
    return new ChakraTraceReader(limits, processGroups);
  }

  /** The file of {@code rank} under {@code prefix}: {@code PREFIX.<rank>.et}. */
  public static Path rankFile(Path prefix, int rank) {
    return prefix.resolveSibling(prefix.getFileName() + "." + rank + ".et");
  }

  /**
   * Reads ranks 0 to {@code ranks - 1} of the trace at {@code prefix} (e.g. {@code traces/all_reduce} for
   * {@code traces/all_reduce.0.et}, ...).
   *
   * @return one graph per rank, in rank order
   * @throws TraceException when a file is missing, a rank file exists beyond the last rank asked for (the trace has
   *     more ranks), or a file cannot be decoded or fails a check
   */
  public List<TraceGraph> read(Path prefix, int ranks) {
    if (ranks <= 0) {
      throw new IllegalArgumentException("ranks must be positive, got " + ranks);
    }
    for (int rank = 0; rank < ranks; rank++) {
      Path file = rankFile(prefix, rank);
      if (!Files.isRegularFile(file)) {
        String stop = rank == 0 ? "no rank file exists" : "the rank files stop at rank " + (rank - 1);
        throw new TraceException(file.toString(), TraceException.NO_NODE,
            "missing: " + stop + ", but the trace needs ranks 0.." + (ranks - 1));
      }
    }
    Path beyond = rankFile(prefix, ranks);
    if (Files.exists(beyond)) {
      throw new TraceException(beyond.toString(), TraceException.NO_NODE,
          "a rank file beyond the " + ranks + " ranks asked for: the trace has more ranks (map every trace rank)");
    }
    List<TraceGraph> graphs = new ArrayList<>(ranks);
    for (int rank = 0; rank < ranks; rank++) {
      graphs.add(readRank(rankFile(prefix, rank), rank, ranks));
    }
    return List.copyOf(graphs);
  }

  /** Reads and validates one rank's file; {@code ranks} bounds the peers and process groups it may name. */
  TraceGraph readRank(Path path, int rank, int ranks) {
    String file = path.toString();
    try {
      long onDisk = Files.size(path);
      if (onDisk > limits.maxFileBytes()) {
        throw new TraceException(file, TraceException.NO_NODE,
            "file of " + onDisk + " bytes exceeds the limit of " + limits.maxFileBytes() + " bytes");
      }
      try (InputStream in = open(path, file)) {
        return decode(file, in, rank, ranks);
      }
    } catch (NoSuchFileException e) {
      throw new TraceException(file, TraceException.NO_NODE, "missing", e);
    } catch (EOFException e) {
      throw new TraceException(file, TraceException.NO_NODE, "truncated gzip content: " + e.getMessage(), e);
    } catch (ZipException e) {
      throw new TraceException(file, TraceException.NO_NODE, "corrupted gzip content: " + e.getMessage(), e);
    } catch (IOException e) {
      throw new TraceException(file, TraceException.NO_NODE, "unreadable: " + e.getMessage(), e);
    }
  }

  /** Opens the file, decompressing it when it starts with the gzip magic, bounded to the limit of file bytes. */
  private InputStream open(Path path, String file) throws IOException {
    BufferedInputStream raw = new BufferedInputStream(Files.newInputStream(path));
    raw.mark(2);
    int first = raw.read();
    int second = raw.read();
    raw.reset();
    InputStream content = first == GZIP_MAGIC_0 && second == GZIP_MAGIC_1 ? new GZIPInputStream(raw, 1 << 16) : raw;
    return new BoundedInputStream(content, limits.maxFileBytes(), file);
  }

  private TraceGraph decode(String file, InputStream in, int rank, int ranks) throws IOException {
    CodedInputStream input = CodedInputStream.newInstance(in);
    MessageCursor cursor = new MessageCursor(file, input);
    if (!cursor.next()) {
      throw new TraceException(file, TraceException.NO_NODE, "empty: no GlobalMetadata message");
    }
    GlobalMetadata metadata = cursor.parse(GlobalMetadata.parser(), "GlobalMetadata");
    if (metadata.getAttrCount() > limits.maxAttributesPerNode()) {
      throw new TraceException(file, TraceException.NO_NODE, "GlobalMetadata has " + metadata.getAttrCount()
          + " attributes, over the limit of " + limits.maxAttributesPerNode());
    }
    checkString(file, TraceException.NO_NODE, "GlobalMetadata version", metadata.getVersion());
    Map<Long, TraceNode> nodes = new LinkedHashMap<>();
    while (cursor.next()) {
      if (nodes.size() >= limits.maxNodesPerRank()) {
        throw new TraceException(file, TraceException.NO_NODE,
            "more than " + limits.maxNodesPerRank() + " nodes, the limit per rank");
      }
      Node node = cursor.parse(Node.parser(), "Node");
      TraceNode traceNode = toTraceNode(file, node, ranks);
      if (nodes.putIfAbsent(traceNode.id(), traceNode) != null) {
        throw new TraceException(file, node.getId(), "duplicate node id");
      }
    }
    checkGraph(file, nodes);
    return new TraceGraph(rank, file, metadata.getVersion(), nodes);
  }

  private TraceNode toTraceNode(String file, Node node, int ranks) {
    long id = node.getId();
    TraceNodeType type = nodeType(file, node);
    int deps = node.getDataDepsCount() + node.getCtrlDepsCount();
    if (deps > limits.maxDepsPerNode()) {
      throw new TraceException(file, id,
          deps + " dependencies, over the limit of " + limits.maxDepsPerNode() + " per node");
    }
    if (node.getAttrCount() > limits.maxAttributesPerNode()) {
      throw new TraceException(file, id,
          node.getAttrCount() + " attributes, over the limit of " + limits.maxAttributesPerNode() + " per node");
    }
    checkString(file, id, "name", node.getName());
    Map<String, AttributeProto> attributes = new HashMap<>();
    for (AttributeProto attribute : node.getAttrList()) {
      checkString(file, id, "attribute name", attribute.getName());
      checkString(file, id, "attribute " + attribute.getName(), attribute.getStringVal());
      for (String value : attribute.getStringList().getValuesList()) {
        checkString(file, id, "attribute " + attribute.getName(), value);
      }
      attributes.putIfAbsent(attribute.getName(), attribute);
    }
    if (node.getDurationMicros() < 0) {
      throw new TraceException(file, id, "duration_micros " + Long.toUnsignedString(node.getDurationMicros())
          + " is beyond the range of a signed 64-bit count");
    }
    return TraceNode.builder()
        .id(id)
        .type(type)
        .name(node.getName())
        .durationMicros(node.getDurationMicros())
        .dataDeps(node.getDataDepsList())
        .ctrlDeps(node.getCtrlDepsList())
        .comm(type.isCommunication() ? communication(file, id, type, attributes, ranks) : null)
        .build();
  }

  private static TraceNodeType nodeType(String file, Node node) {
    switch (node.getType()) {
      case METADATA_NODE:
        return TraceNodeType.METADATA;
      case MEM_LOAD_NODE:
        return TraceNodeType.MEM_LOAD;
      case MEM_STORE_NODE:
        return TraceNodeType.MEM_STORE;
      case COMP_NODE:
        return TraceNodeType.COMP;
      case COMM_SEND_NODE:
        return TraceNodeType.COMM_SEND;
      case COMM_RECV_NODE:
        return TraceNodeType.COMM_RECV;
      case COMM_COLL_NODE:
        return TraceNodeType.COMM_COLL;
      default:
        throw new TraceException(file, node.getId(), "unknown node type " + node.getTypeValue()
            + " (known: 1 METADATA_NODE to 7 COMM_COLL_NODE)");
    }
  }

  private TraceComm communication(
      String file, long id, TraceNodeType type, Map<String, AttributeProto> attributes, int ranks) {
    TraceComm.Builder comm = TraceComm.builder();
    Long size = integer(file, id, attributes, "comm_size");
    if (size == null) {
      throw new TraceException(file, id, type + " node without its size (attribute comm_size)");
    }
    if (size < 0) {
      throw new TraceException(file, id, "comm_size " + size + " is negative");
    }
    comm.sizeBytes(size);
    if (type == TraceNodeType.COMM_COLL) {
      Long number = integer(file, id, attributes, "comm_type");
      if (number == null) {
        throw new TraceException(file, id, "COMM_COLL node without its collective type (attribute comm_type)");
      }
      TraceCommType commType = TraceCommType.ofChakraNumber(number);
      if (commType == null) {
        throw new TraceException(file, id, "unknown comm_type " + number + " (known: 0 ALL_REDUCE to 9 BARRIER)");
      }
      comm.commType(commType);
    } else {
      String key = type == TraceNodeType.COMM_SEND ? "comm_dst" : "comm_src";
      Long peer = integer(file, id, attributes, key);
      if (peer == null) {
        throw new TraceException(file, id, type + " node without its peer (attribute " + key + ")");
      }
      if (peer < 0 || peer >= ranks) {
        throw new TraceException(file, id, key + " " + peer + " is outside the ranks 0.." + (ranks - 1));
      }
      comm.peerRank((int) (long) peer);
    }
    Long tag = integer(file, id, attributes, "comm_tag");
    if (tag != null) {
      comm.tag(tag);
    }
    AttributeProto group = attributes.get("pg_name");
    if (group != null) {
      comm.processGroup(checkProcessGroup(file, id, group.getStringVal(), ranks));
    }
    AttributeProto dims = attributes.get("involved_dim");
    if (dims != null) {
      List<Boolean> involved = new ArrayList<>(dims.getBoolList().getValuesList());
      if (dims.getValueCase() == AttributeProto.ValueCase.BOOL_VAL) {
        involved.add(dims.getBoolVal());
      }
      comm.involvedDims(involved);
    }
    return comm.build();
  }

  private String checkProcessGroup(String file, long id, String name, int ranks) {
    if (processGroups.isEmpty()) {
      return name;
    }
    List<Integer> members = processGroups.get(name);
    if (members == null) {
      throw new TraceException(file, id, "process group '" + name + "' is not defined (defined: "
          + new TreeMap<>(processGroups).keySet() + ")");
    }
    for (int member : members) {
      if (member < 0 || member >= ranks) {
        throw new TraceException(file, id, "process group '" + name + "' names rank " + member
            + ", but the trace has ranks 0.." + (ranks - 1));
      }
    }
    return name;
  }

  /** The integer value of attribute {@code key}, whichever integer kind holds it, or null when absent. */
  private static Long integer(String file, long id, Map<String, AttributeProto> attributes, String key) {
    AttributeProto attribute = attributes.get(key);
    if (attribute == null) {
      return null;
    }
    switch (attribute.getValueCase()) {
      case INT32_VAL:
        return (long) attribute.getInt32Val();
      case INT64_VAL:
        return attribute.getInt64Val();
      case UINT64_VAL:
        if (attribute.getUint64Val() < 0) {
          throw new TraceException(file, id, key + " " + Long.toUnsignedString(attribute.getUint64Val())
              + " is beyond the range of a signed 64-bit value");
        }
        return attribute.getUint64Val();
      case VALUE_NOT_SET:
        throw new TraceException(file, id, "attribute " + key + " has no value of a kind fabemu reads");
      default:
        throw new TraceException(file, id, "attribute " + key + " holds " + attribute.getValueCase()
            + ", not an integer");
    }
  }

  private void checkString(String file, long id, String what, String value) {
    if (value.length() > limits.maxStringChars()) {
      throw new TraceException(file, id, what + " of " + value.length() + " characters exceeds the limit of "
          + limits.maxStringChars());
    }
  }

  /**
   * Checks that every dependency names a node of the rank and that the dependencies hold no cycle (Kahn's algorithm;
   * when nodes are left over, walking their unfinished dependencies from the first one in file order must repeat a
   * node, and that node is on a cycle).
   */
  private static void checkGraph(String file, Map<Long, TraceNode> nodes) {
    Map<Long, Integer> pending = new HashMap<>();
    Map<Long, List<Long>> dependents = new HashMap<>();
    for (TraceNode node : nodes.values()) {
      int count = 0;
      for (List<Long> deps : List.of(node.dataDeps(), node.ctrlDeps())) {
        for (long dep : deps) {
          if (!nodes.containsKey(dep)) {
            throw new TraceException(file, node.id(),
                "depends on node " + Long.toUnsignedString(dep) + ", which does not exist");
          }
          dependents.computeIfAbsent(dep, key -> new ArrayList<>()).add(node.id());
          count++;
        }
      }
      pending.put(node.id(), count);
    }
    ArrayDeque<Long> ready = new ArrayDeque<>();
    pending.forEach((id, count) -> {
      if (count == 0) {
        ready.add(id);
      }
    });
    int done = 0;
    while (!ready.isEmpty()) {
      long id = ready.poll();
      done++;
      for (long dependent : dependents.getOrDefault(id, List.of())) {
        if (pending.merge(dependent, -1, Integer::sum) == 0) {
          ready.add(dependent);
        }
      }
    }
    if (done == nodes.size()) {
      return;
    }
    long current = -1;
    for (TraceNode node : nodes.values()) {
      if (pending.get(node.id()) > 0) {
        current = node.id();
        break;
      }
    }
    Set<Long> seen = new HashSet<>();
    while (seen.add(current)) {
      current = firstUnfinishedDependency(nodes.get(current), pending);
    }
    throw new TraceException(file, current, "is on a dependency cycle");
  }

  /** A dependency of {@code node} that Kahn's algorithm left unfinished (one exists for every node left over). */
  private static long firstUnfinishedDependency(TraceNode node, Map<Long, Integer> pending) {
    for (List<Long> deps : List.of(node.dataDeps(), node.ctrlDeps())) {
      for (long dep : deps) {
        if (pending.get(dep) > 0) {
          return dep;
        }
      }
    }
    throw new IllegalStateException("node " + node.id() + " was left over with every dependency finished");
  }

  /** Steps through the length-delimited messages of one file, each bounded by the message limit. */
  private final class MessageCursor {
    private final String file;
    private final CodedInputStream input;
    private long offset;
    private int index;
    private int length;

    MessageCursor(String file, CodedInputStream input) {
      this.file = file;
      this.input = input;
    }

    /** Reads the next message's length; false at the end of the file. */
    boolean next() throws IOException {
      try {
        offset += input.getTotalBytesRead();
        input.resetSizeCounter();
        // The message and its length prefix (at most 10 bytes), never past what an int can count.
        input.setSizeLimit((int) Math.min(Integer.MAX_VALUE, limits.maxMessageBytes() + 10L));
        if (input.isAtEnd()) {
          return false;
        }
        length = input.readRawVarint32();
      } catch (InvalidProtocolBufferException e) {
        throw new TraceException(file, TraceException.NO_NODE, state(e) + " length of message " + index
            + " at byte " + offset + ": " + e.getMessage(), e);
      }
      if (length < 0 || length > limits.maxMessageBytes()) {
        throw new TraceException(file, TraceException.NO_NODE, "message " + index + " at byte " + offset
            + " declares " + Integer.toUnsignedString(length) + " bytes, over the limit of "
            + limits.maxMessageBytes());
      }
      return true;
    }

    /** Parses the message whose length {@link #next()} read. */
    <T> T parse(Parser<T> parser, String what) throws IOException {
      int limit = input.pushLimit(length);
      try {
        T message = parser.parseFrom(input);
        if (input.getBytesUntilLimit() != 0) {
          throw new InvalidProtocolBufferException("message ended before its declared length");
        }
        input.popLimit(limit);
        index++;
        return message;
      } catch (InvalidProtocolBufferException e) {
        throw new TraceException(file, TraceException.NO_NODE, state(e) + " " + what + " message " + index
            + " at byte " + offset + " (" + length + " bytes): " + e.getMessage(), e);
      }
    }
  }

  /**
   * "truncated" when the decoder ran out of input (the file, or the gzip stream under it, ended inside a message),
   * "corrupted" for any other decoding error.
   */
  private static String state(InvalidProtocolBufferException e) {
    boolean ended = e.getMessage() != null && e.getMessage().contains("ended unexpectedly");
    for (Throwable cause = e.getCause(); cause != null && !ended; cause = cause.getCause()) {
      ended = cause instanceof EOFException;
    }
    return ended ? "truncated" : "corrupted";
  }

  /** Counts the bytes read and refuses to go past the limit (a gzip bomb, or a file grown since its size was read). */
  private static final class BoundedInputStream extends FilterInputStream {
    private final long limit;
    private final String file;
    private long count;

    BoundedInputStream(InputStream in, long limit, String file) {
      super(in);
      this.limit = limit;
      this.file = file;
    }

    @Override
    public int read() throws IOException {
      int value = super.read();
      if (value >= 0) {
        add(1);
      }
      return value;
    }

    @Override
    public int read(byte[] buffer, int offset, int length) throws IOException {
      int read = super.read(buffer, offset, length);
      if (read > 0) {
        add(read);
      }
      return read;
    }

    private void add(long bytes) {
      count += bytes;
      if (count > limit) {
        throw new TraceException(file, TraceException.NO_NODE,
            "decompressed content exceeds the limit of " + limit + " bytes");
      }
    }
  }
}
