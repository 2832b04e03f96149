package io.fabemu.traces;

import static io.fabemu.traces.TraceWriter.trace;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabemu.traces.proto.AttributeProto;
import io.fabemu.traces.proto.Node;
import io.fabemu.traces.proto.NodeType;
import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ChakraTraceReaderTest {

  private static final long ONE_MIB = 1L << 20;

  @TempDir
  Path dir;

  @ParameterizedTest
  @CsvSource({
      "all_reduce/8npus_1MB/all_reduce, 8, ALL_REDUCE",
      "all_gather/8npus_1MB/all_gather, 8, ALL_GATHER",
      "all_to_all/16npus_1MB/all_to_all, 16, ALL_TO_ALL",
      "reduce_scatter/8npus_1MB/reduce_scatter, 8, REDUCE_SCATTER"})
  void shouldReadTheAstraSimMicrobenchmarks(String prefix, int ranks, TraceCommType commType)
      throws URISyntaxException {
    Path base = Path.of(getClass().getResource("/chakra/astra-sim-microbenchmarks").toURI());
    List<TraceGraph> graphs = ChakraTraceReader.create().read(base.resolve(prefix), ranks);

    assertThat(graphs).hasSize(ranks);
    for (TraceGraph graph : graphs) {
      assertThat(graph.rank()).isEqualTo(graphs.indexOf(graph));
      assertThat(graph.schemaVersion()).isEqualTo("0.0.4");
      assertThat(graph.nodes()).hasSize(1);
      TraceNode node = graph.nodes().values().iterator().next();
      assertThat(node.type()).isEqualTo(TraceNodeType.COMM_COLL);
      assertThat(node.comm().commType()).isEqualTo(commType);
      assertThat(node.comm().sizeBytes()).isEqualTo(ONE_MIB);
      assertThat(node.comm().peerRank()).isEqualTo(TraceComm.NO_PEER);
      assertThat(node.dataDeps()).isEmpty();
      assertThat(graph.communicationNodes()).containsExactly(node);
    }
  }

  @Test
  void shouldReadPlainAndGzipAlike() throws IOException {
    TraceWriter writer = trace().comp(1).collective(2, 0, 4096, 1).send(3, 1, 64, 7).recv(4, 1, 64, 7);
    Path plain = dir.resolve("plain");
    Path gzip = dir.resolve("gzip");
    for (int rank = 0; rank < 2; rank++) {
      Files.write(ChakraTraceReader.rankFile(plain, rank), writer.bytes());
      Files.write(ChakraTraceReader.rankFile(gzip, rank), writer.gzipBytes());
    }

    List<TraceGraph> fromPlain = ChakraTraceReader.create().read(plain, 2);
    List<TraceGraph> fromGzip = ChakraTraceReader.create().read(gzip, 2);

    assertThat(fromGzip.get(1).nodes()).isEqualTo(fromPlain.get(1).nodes());
    TraceNode send = fromGzip.get(0).node(3);
    assertThat(send.type()).isEqualTo(TraceNodeType.COMM_SEND);
    assertThat(send.comm().peerRank()).isEqualTo(1);
    assertThat(send.comm().tag()).isEqualTo(7);
    assertThat(send.comm().commType()).isNull();
    assertThat(fromGzip.get(0).node(1).durationMicros()).isEqualTo(10);
    assertThat(fromGzip.get(0).node(2).dataDeps()).containsExactly(1L);
  }

  @Test
  void shouldAcceptADiamondOfDependencies() throws IOException {
    Path prefix = trace().comp(1).comp(2, 1).node(Node.newBuilder().setId(3).setType(NodeType.COMP_NODE)
        .addCtrlDeps(1).build()).comp(4, 2, 3).writeRanks(dir.resolve("diamond"), 1);

    TraceGraph graph = ChakraTraceReader.create().read(prefix, 1).get(0);

    assertThat(graph.nodes().keySet()).containsExactly(1L, 2L, 3L, 4L);
    assertThat(graph.node(3).ctrlDeps()).containsExactly(1L);
    assertThat(graph.node(4).dataDeps()).containsExactly(2L, 3L);
  }

  @Test
  void shouldKeepProcessGroupsAndInvolvedDimensions() throws IOException {
    Path prefix = trace().node(collectiveIn("tp0", true, false)).writeRanks(dir.resolve("pg"), 2);

    TraceGraph graph = ChakraTraceReader.create(TraceLimits.DEFAULTS, Map.of("tp0", List.of(0, 1)))
        .read(prefix, 2).get(1);

    assertThat(graph.node(5).comm().processGroup()).isEqualTo("tp0");
    assertThat(graph.node(5).comm().involvedDims()).containsExactly(true, false);
  }

  @Test
  void shouldRefuseAMissingRankFileSayingWhereTheFilesStop() throws IOException {
    Path prefix = trace().comp(1).writeRanks(dir.resolve("t"), 3);

    assertThatThrownBy(() -> ChakraTraceReader.create().read(prefix, 4))
        .isInstanceOf(TraceException.class)
        .hasMessage(dir.resolve("t.3.et")
            + ": missing: the rank files stop at rank 2, but the trace needs ranks 0..3");
    assertThatThrownBy(() -> ChakraTraceReader.create().read(dir.resolve("none"), 2))
        .hasMessageContaining("none.0.et: missing: no rank file exists");
  }

  @Test
  void shouldRefuseATraceWithMoreRankFilesThanRanksAskedFor() throws IOException {
    Path prefix = trace().comp(1).writeRanks(dir.resolve("t"), 3);

    assertThatThrownBy(() -> ChakraTraceReader.create().read(prefix, 2))
        .isInstanceOf(TraceException.class)
        .hasMessageStartingWith(dir.resolve("t.2.et") + ": a rank file beyond the 2 ranks asked for");
  }

  @Test
  void shouldRefuseATruncatedFile() throws IOException {
    byte[] whole = trace().comp(1).collective(2, 0, 4096, 1).bytes();
    Files.write(ChakraTraceReader.rankFile(dir.resolve("t"), 0), Arrays.copyOf(whole, whole.length - 3));

    assertThatThrownBy(() -> ChakraTraceReader.create().read(dir.resolve("t"), 1))
        .isInstanceOf(TraceException.class)
        .hasMessageContaining("t.0.et: truncated Node message 2 at byte");
  }

  @Test
  void shouldRefuseATruncatedOrCorruptedGzipFile() throws IOException {
    byte[] whole = trace().comp(1).collective(2, 0, 4096, 1).gzipBytes();
    Files.write(ChakraTraceReader.rankFile(dir.resolve("cut"), 0), Arrays.copyOf(whole, whole.length / 2));
    byte[] flipped = whole.clone();
    flipped[2] = (byte) 0xff; // the gzip header's compression method: 8 (deflate) is the only one
    Files.write(ChakraTraceReader.rankFile(dir.resolve("flip"), 0), flipped);

    assertThatThrownBy(() -> ChakraTraceReader.create().read(dir.resolve("cut"), 1))
        .isInstanceOf(TraceException.class)
        .hasMessageContaining("cut.0.et: truncated Node message 2");
    assertThatThrownBy(() -> ChakraTraceReader.create().read(dir.resolve("flip"), 1))
        .isInstanceOf(TraceException.class)
        .hasMessageContaining("flip.0.et: corrupted gzip content");
  }

  @Test
  void shouldRefuseACorruptedFile() throws IOException {
    byte[] bytes = trace().comp(1).comp(2, 1).bytes();
    int metadataLength = bytes[0] + 1;
    // The first Node's first tag (field 1, varint) becomes field 1 with wire type 7, which does not exist.
    bytes[metadataLength + 1] = 0x0f;
    Files.write(ChakraTraceReader.rankFile(dir.resolve("t"), 0), bytes);

    assertThatThrownBy(() -> ChakraTraceReader.create().read(dir.resolve("t"), 1))
        .isInstanceOf(TraceException.class)
        .hasMessageContaining("t.0.et: corrupted Node message 1 at byte " + metadataLength);
  }

  @Test
  void shouldRefuseAnUnknownNodeType() throws IOException {
    Path prefix = trace().node(Node.newBuilder().setId(9).setTypeValue(42).build()).writeRanks(dir.resolve("t"), 1);

    assertThatThrownBy(() -> ChakraTraceReader.create().read(prefix, 1))
        .hasMessage(dir.resolve("t.0.et")
            + ": node 9: unknown node type 42 (known: 1 METADATA_NODE to 7 COMM_COLL_NODE)");
  }

  @Test
  void shouldRefuseADependencyOnAMissingNode() throws IOException {
    Path prefix = trace().comp(1).comp(2, 1, 77).writeRanks(dir.resolve("t"), 1);

    assertThatThrownBy(() -> ChakraTraceReader.create().read(prefix, 1))
        .hasMessageEndingWith("t.0.et: node 2: depends on node 77, which does not exist");
  }

  @Test
  void shouldRefuseACycleNamingANodeOnIt() throws IOException {
    // 1 <- 2 <- 3 <- 4 <- 2: node 1 is fine, 2, 3 and 4 form the cycle, 5 only hangs from it.
    Path prefix = trace().comp(1).comp(2, 1, 4).comp(3, 2).comp(4, 3).comp(5, 4).writeRanks(dir.resolve("t"), 1);

    assertThatThrownBy(() -> ChakraTraceReader.create().read(prefix, 1))
        .isInstanceOf(TraceException.class)
        .hasMessageEndingWith("is on a dependency cycle")
        .satisfies(e -> assertThat(((TraceException) e).nodeId()).isIn(2L, 3L, 4L));
    Path self = trace().comp(6, 6).writeRanks(dir.resolve("self"), 1);
    assertThatThrownBy(() -> ChakraTraceReader.create().read(self, 1))
        .hasMessageEndingWith("self.0.et: node 6: is on a dependency cycle");
  }

  @Test
  void shouldRefuseADuplicateNodeId() throws IOException {
    Path prefix = trace().comp(1).comp(1).writeRanks(dir.resolve("t"), 1);

    assertThatThrownBy(() -> ChakraTraceReader.create().read(prefix, 1))
        .hasMessageEndingWith("t.0.et: node 1: duplicate node id");
  }

  @Test
  void shouldRefuseACommunicationNodeWithoutItsSizeOrType() throws IOException {
    Path noSize = trace().node(Node.newBuilder().setId(3).setType(NodeType.COMM_COLL_NODE)
        .addAttr(TraceWriter.int64("comm_type", 0)).build()).writeRanks(dir.resolve("nosize"), 1);
    Path noType = trace().node(Node.newBuilder().setId(4).setType(NodeType.COMM_COLL_NODE)
        .addAttr(TraceWriter.int64("comm_size", 8)).build()).writeRanks(dir.resolve("notype"), 1);
    Path noPeer = trace().node(Node.newBuilder().setId(5).setType(NodeType.COMM_SEND_NODE)
        .addAttr(TraceWriter.int64("comm_size", 8)).build()).writeRanks(dir.resolve("nopeer"), 1);
    Path badType = trace().collective(6, 12, 8).writeRanks(dir.resolve("badtype"), 1);

    assertThatThrownBy(() -> ChakraTraceReader.create().read(noSize, 1))
        .hasMessageEndingWith("node 3: COMM_COLL node without its size (attribute comm_size)");
    assertThatThrownBy(() -> ChakraTraceReader.create().read(noType, 1))
        .hasMessageEndingWith("node 4: COMM_COLL node without its collective type (attribute comm_type)");
    assertThatThrownBy(() -> ChakraTraceReader.create().read(noPeer, 1))
        .hasMessageEndingWith("node 5: COMM_SEND node without its peer (attribute comm_dst)");
    assertThatThrownBy(() -> ChakraTraceReader.create().read(badType, 1))
        .hasMessageEndingWith("node 6: unknown comm_type 12 (known: 0 ALL_REDUCE to 9 BARRIER)");
  }

  @Test
  void shouldRefuseAPeerOutsideTheRanks() throws IOException {
    Path prefix = trace().recv(8, 4, 64, 0).writeRanks(dir.resolve("t"), 4);

    assertThatThrownBy(() -> ChakraTraceReader.create().read(prefix, 4))
        .hasMessageEndingWith("t.0.et: node 8: comm_src 4 is outside the ranks 0..3");
  }

  @Test
  void shouldRefuseAProcessGroupNamingRanksTheTraceLacksOrNotDefined() throws IOException {
    Path prefix = trace().node(collectiveIn("dp", true)).writeRanks(dir.resolve("t"), 2);

    assertThatThrownBy(() -> ChakraTraceReader.create(TraceLimits.DEFAULTS, Map.of("dp", List.of(0, 1, 2)))
        .read(prefix, 2))
        .hasMessageEndingWith("t.0.et: node 5: process group 'dp' names rank 2, but the trace has ranks 0..1");
    assertThatThrownBy(() -> ChakraTraceReader.create(TraceLimits.DEFAULTS, Map.of("tp", List.of(0)))
        .read(prefix, 2))
        .hasMessageEndingWith("t.0.et: node 5: process group 'dp' is not defined (defined: [tp])");
  }

  @Test
  void shouldRefuseEachLimitExceeded() throws IOException {
    Path prefix = trace().comp(1).comp(2, 1).comp(3, 1, 2).node(Node.newBuilder().setId(4)
        .setType(NodeType.COMP_NODE).setName("x".repeat(40)).addAttr(TraceWriter.int64("a", 1))
        .addAttr(TraceWriter.int64("b", 2)).build()).writeRanks(dir.resolve("t"), 1);
    long size = Files.size(ChakraTraceReader.rankFile(prefix, 0));

    assertThat(ChakraTraceReader.create(new TraceLimits(100, 4, 2, 2, 40, size), Map.of()).read(prefix, 1))
        .hasSize(1);
    assertThatThrownBy(() -> read(prefix, new TraceLimits(20, 4, 2, 2, 40, size)))
        .hasMessageContaining("t.0.et: message 4 at byte").hasMessageContaining("over the limit of 20");
    assertThatThrownBy(() -> read(prefix, new TraceLimits(100, 3, 2, 2, 40, size)))
        .hasMessageEndingWith("t.0.et: more than 3 nodes, the limit per rank");
    assertThatThrownBy(() -> read(prefix, new TraceLimits(100, 4, 1, 2, 40, size)))
        .hasMessageEndingWith("t.0.et: node 3: 2 dependencies, over the limit of 1 per node");
    assertThatThrownBy(() -> read(prefix, new TraceLimits(100, 4, 2, 1, 40, size)))
        .hasMessageEndingWith("t.0.et: node 4: 2 attributes, over the limit of 1 per node");
    assertThatThrownBy(() -> read(prefix, new TraceLimits(100, 4, 2, 2, 39, size)))
        .hasMessageEndingWith("t.0.et: node 4: name of 40 characters exceeds the limit of 39");
    assertThatThrownBy(() -> read(prefix, new TraceLimits(100, 4, 2, 2, 40, size - 1)))
        .hasMessageEndingWith("t.0.et: file of " + size + " bytes exceeds the limit of " + (size - 1) + " bytes");
  }

  @Test
  void shouldBoundTheDecompressedSizeOfAGzipFile() throws IOException {
    TraceWriter writer = trace();
    for (int id = 0; id < 2000; id++) {
      writer.comp(id);
    }
    byte[] gzip = writer.gzipBytes();
    Files.write(ChakraTraceReader.rankFile(dir.resolve("bomb"), 0), gzip);
    long limit = gzip.length * 2L;
    assertThat(writer.bytes().length).isGreaterThan((int) limit);

    assertThatThrownBy(() -> read(dir.resolve("bomb"), new TraceLimits(100, 10_000, 2, 2, 40, limit)))
        .hasMessageEndingWith("bomb.0.et: decompressed content exceeds the limit of " + limit + " bytes");
  }

  @Test
  void shouldRefuseAnEmptyFile() throws IOException {
    Files.write(ChakraTraceReader.rankFile(dir.resolve("t"), 0), new byte[0]);

    assertThatThrownBy(() -> ChakraTraceReader.create().read(dir.resolve("t"), 1))
        .hasMessageEndingWith("t.0.et: empty: no GlobalMetadata message");
  }

  @Test
  void shouldRefuseAnIntegerAttributeOfAnotherKind() throws IOException {
    Path prefix = trace().node(Node.newBuilder().setId(2).setType(NodeType.COMM_COLL_NODE)
        .addAttr(TraceWriter.string("comm_type", "allreduce")).addAttr(TraceWriter.int64("comm_size", 8)).build())
        .writeRanks(dir.resolve("t"), 1);

    assertThatThrownBy(() -> ChakraTraceReader.create().read(prefix, 1))
        .hasMessageEndingWith("node 2: attribute comm_type holds STRING_VAL, not an integer");
  }

  @Test
  void shouldNameRankFilesAfterThePrefix() {
    assertThat(ChakraTraceReader.rankFile(Path.of("dir", "all_reduce"), 7))
        .isEqualTo(Path.of("dir", "all_reduce.7.et"));
  }

  private static List<TraceGraph> read(Path prefix, TraceLimits limits) {
    return ChakraTraceReader.create(limits, Map.of()).read(prefix, 1);
  }

  private static Node collectiveIn(String processGroup, Boolean... involvedDims) {
    AttributeProto.Builder dims = AttributeProto.newBuilder().setName("involved_dim");
    dims.getBoolListBuilder().addAllValues(List.of(involvedDims));
    return Node.newBuilder().setId(5).setType(NodeType.COMM_COLL_NODE)
        .addAttr(TraceWriter.int64("comm_type", 0)).addAttr(TraceWriter.int64("comm_size", 1024))
        .addAttr(TraceWriter.string("pg_name", processGroup)).addAttr(dims).build();
  }
}
