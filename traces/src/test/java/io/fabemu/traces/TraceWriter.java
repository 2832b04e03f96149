package io.fabemu.traces;

import io.fabemu.traces.proto.AttributeProto;
import io.fabemu.traces.proto.GlobalMetadata;
import io.fabemu.traces.proto.Node;
import io.fabemu.traces.proto.NodeType;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.zip.GZIPOutputStream;

/** Test helper: writes small Chakra rank files with the generated classes, as Chakra's tools lay them out. */
final class TraceWriter {

  private final List<Node> nodes = new ArrayList<>();
  private String version = "0.0.4";

  static TraceWriter trace() {
    return new TraceWriter();
  }

  TraceWriter version(String value) {
    version = value;
    return this;
  }

  TraceWriter node(Node node) {
    nodes.add(node);
    return this;
  }

  TraceWriter comp(long id, long... dataDeps) {
    return node(Node.newBuilder().setId(id).setName("comp" + id).setType(NodeType.COMP_NODE).setDurationMicros(10)
        .addAllDataDeps(boxed(dataDeps)).build());
  }

  TraceWriter collective(long id, int commType, long sizeBytes, long... dataDeps) {
    return node(Node.newBuilder().setId(id).setName("coll" + id).setType(NodeType.COMM_COLL_NODE)
        .addAttr(int64("comm_type", commType)).addAttr(int64("comm_size", sizeBytes))
        .addAllDataDeps(boxed(dataDeps)).build());
  }

  TraceWriter send(long id, int dst, long sizeBytes, long tag) {
    return node(Node.newBuilder().setId(id).setName("send" + id).setType(NodeType.COMM_SEND_NODE)
        .addAttr(int32("comm_dst", dst)).addAttr(int64("comm_size", sizeBytes)).addAttr(int64("comm_tag", tag))
        .build());
  }

  TraceWriter recv(long id, int src, long sizeBytes, long tag) {
    return node(Node.newBuilder().setId(id).setName("recv" + id).setType(NodeType.COMM_RECV_NODE)
        .addAttr(int32("comm_src", src)).addAttr(int64("comm_size", sizeBytes)).addAttr(int64("comm_tag", tag))
        .build());
  }

  static AttributeProto int64(String name, long value) {
    return AttributeProto.newBuilder().setName(name).setInt64Val(value).build();
  }

  static AttributeProto int32(String name, int value) {
    return AttributeProto.newBuilder().setName(name).setInt32Val(value).build();
  }

  static AttributeProto string(String name, String value) {
    return AttributeProto.newBuilder().setName(name).setStringVal(value).build();
  }

  /** The file's bytes, uncompressed. */
  byte[] bytes() {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try {
      writeTo(out);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return out.toByteArray();
  }

  /** The file's bytes, gzip-compressed. */
  byte[] gzipBytes() {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try (GZIPOutputStream gzip = new GZIPOutputStream(out)) {
      writeTo(gzip);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return out.toByteArray();
  }

  /** Writes the same trace as ranks 0 to {@code ranks - 1} under {@code prefix}. */
  Path writeRanks(Path prefix, int ranks) throws IOException {
    for (int rank = 0; rank < ranks; rank++) {
      Files.write(ChakraTraceReader.rankFile(prefix, rank), bytes());
    }
    return prefix;
  }

  private void writeTo(OutputStream out) throws IOException {
    GlobalMetadata.newBuilder().setVersion(version).build().writeDelimitedTo(out);
    for (Node node : nodes) {
      node.writeDelimitedTo(out);
    }
  }

  private static List<Long> boxed(long[] values) {
    return Arrays.stream(values).boxed().toList();
  }
}
