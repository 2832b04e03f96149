package io.fabemu.fabric;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabemu.collectives.Algorithm;
import io.fabemu.core.data.DataType;
import io.fabemu.core.data.ReduceOp;
import io.fabemu.core.inc.IncCodes.FailCause;
import io.fabemu.core.link.PacketDropSpec;
import io.fabemu.fabric.result.CaseResult;
import io.fabemu.fabric.result.RunResult;
import io.fabemu.nic.IncNicSpec;
import io.fabemu.switching.inc.IncSwitchSpec;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * INC Allreduce of messages larger than the switches' maximum data size (256 B here), streamed in chunks with a
 * bounded window, end to end: exact results in Node and Socket mode, under loss, with the window cut to the
 * switches' slots; and messages that fit one task unchanged by streaming.
 */
class IncStreamingTest {

  private static IncSwitchSpec unit(int slots) {
    return new IncSwitchSpec(400_000L, 0, slots, 8, 256, 256, EnumSet.of(ReduceOp.SUM, ReduceOp.MAX),
        EnumSet.of(DataType.INT32, DataType.FLOAT32, DataType.INT64));
  }

  private static IncSpec streaming(int window, int slots) {
    return new IncSpec(unit(slots), unit(slots), Set.of(), new IncNicSpec(256, 100_000L, 20_000_000L, 16, window));
  }

  private static RunResult run(ScenarioSpec spec) {
    return Fabric.build(spec).runOnPlainEngine();
  }

  private static void assertExactInc(RunResult result) {
    assertThat(result.complete()).as("complete: %s", result.incompleteReason()).isTrue();
    for (CaseResult c : result.cases()) {
      assertThat(c.wrongElements()).as("wrong elements of %s", c).isZero();
      assertThat(c.checked()).isTrue();
      assertThat(c.incOutcome()).as("INC outcome of %s", c).isEqualTo(FailCause.NONE);
    }
  }

  @Test
  void shouldAggregateExactlyInTheSwitchesWhenNodeModeStreamsMessagesLargerThanMaxDataSize() {
    // 1 KiB: 4 chunks of 256 B; 8 KiB: 32 chunks through a window of 8; 128 KiB: the pipelined schedule, two
    // segments of 64 KiB, each a stream of 256 chunks.
    RunResult r = run(IncAllreduceTest.scenario(8, 2, 4, 2, List.of(Algorithm.INC_NODE),
        List.of(1024L, 8192L, 131_072L), DataType.INT32, ReduceOp.SUM, streaming(8, 64)));
    assertExactInc(r);
  }

  @Test
  void shouldKeepEverySlotsGenerationsApartWhenTheLastSegmentIsSmaller() {
    // Units of 4 KiB (chunks of 16 fragments of 256 B) and a vector of 3,145,729 float32: 192 pipelined segments,
    // 191 equal and a smaller last one. With the one extra element spread over the first segment instead, slots only
    // that segment used sat out 191 tasks in a row, the 8-bit req_id wrapped, and tor0 found both generations busy.
    IncSwitchSpec large = new IncSwitchSpec(400_000L, 0, 4096, 8, 256, 4096, EnumSet.of(ReduceOp.SUM),
        EnumSet.of(DataType.FLOAT32));
    IncSpec inc = new IncSpec(large, large, Set.of(), new IncNicSpec(256, 100_000L, 20_000_000L, 16, 64));
    RunResult r = run(IncAllreduceTest.scenario(4, 2, 1, 1, List.of(Algorithm.INC_NODE), List.of(12_582_916L),
        DataType.FLOAT32, ReduceOp.SUM, inc));
    assertExactInc(r);
  }

  @Test
  void shouldAggregateExactlyWhenSocketModeStreams() {
    RunResult r = run(IncAllreduceTest.scenario(6, 3, 8, 2, List.of(Algorithm.INC_SOCKET), List.of(4096L, 98_304L),
        DataType.FLOAT32, ReduceOp.MAX, streaming(8, 64)));
    assertExactInc(r);
  }

  @Test
  void shouldStreamWithTheWindowTheSlotsHoldWhenTheSwitchesHaveFewerSlotsThanTheNicsWindow() {
    // 3 slots of 256 B: a window of 3 chunks, not the NIC's 32.
    RunResult r = run(IncAllreduceTest.scenario(4, 2, 2, 1, List.of(Algorithm.INC_NODE), List.of(4096L),
        DataType.INT64, ReduceOp.SUM, streaming(32, 3)));
    assertExactInc(r);
  }

  @Test
  void shouldFallBackWithMessageTooLargeWhenTheNicsDoNotStream() {
    RunResult r = run(IncAllreduceTest.scenario(4, 2, 2, 1, List.of(Algorithm.INC_NODE), List.of(256L, 1024L),
        DataType.INT32, ReduceOp.SUM, streaming(0, 64)));
    assertThat(r.cases().get(0).incOutcome()).isEqualTo(FailCause.NONE);
    assertThat(r.cases().get(1).incOutcome()).isEqualTo(FailCause.MESSAGE_TOO_LARGE);
    assertThat(r.cases().get(1).wrongElements()).isZero();
  }

  @Test
  void shouldStayExactAndRepeatableWhenChunksOfAStreamAreDroppedOnEveryTier() {
    // 8 hosts, 2 per TOR: host0-7, tor0-3 = vertices 8-11, spine0-1 = 12-13. Loss up and down at each tier.
    ScenarioSpec clean = IncAllreduceTest.scenario(8, 2, 2, 1, List.of(Algorithm.INC_NODE),
        List.of(2048L, 131_072L), DataType.INT32, ReduceOp.SUM, streaming(8, 64));
    List<PacketDropSpec> drops = List.of(new PacketDropSpec(0, 8, 0.1), new PacketDropSpec(8, 0, 0.1),
        new PacketDropSpec(8, 12, 0.1), new PacketDropSpec(12, 8, 0.1), new PacketDropSpec(8, 13, 0.1),
        new PacketDropSpec(13, 9, 0.1), new PacketDropSpec(9, 3, 0.1));
    ScenarioSpec lossy = clean.toBuilder().packetDrops(drops).build();
    RunResult r = run(lossy);
    assertExactInc(r);
    assertThat(r.links().stream().mapToLong(l -> l.droppedPackets()).sum()).as("INC packets dropped").isPositive();
    RunResult reference = run(clean);
    assertThat(r.cases().get(1).avgLatencyPs()).isGreaterThan(reference.cases().get(1).avgLatencyPs());
    assertThat(run(lossy).digest()).isEqualTo(r.digest());
  }

  @Test
  void shouldGiveTheSameResultsForMessagesThatFitOneTaskWhetherOrNotTheNicsStream() {
    List<Long> small = List.of(4L, 64L, 256L);
    RunResult withWindow = run(IncAllreduceTest.scenario(8, 2, 4, 2, List.of(Algorithm.INC_NODE), small,
        DataType.INT32, ReduceOp.SUM, streaming(64, 64)));
    RunResult without = run(IncAllreduceTest.scenario(8, 2, 4, 2, List.of(Algorithm.INC_NODE), small,
        DataType.INT32, ReduceOp.SUM, streaming(0, 64)));
    assertExactInc(withWindow);
    assertThat(withWindow.digest()).isEqualTo(without.digest());
    assertThat(withWindow.cases()).isEqualTo(without.cases());
  }
}
