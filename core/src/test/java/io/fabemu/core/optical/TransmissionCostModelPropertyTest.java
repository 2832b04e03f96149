package io.fabemu.core.optical;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.LongRange;

class TransmissionCostModelPropertyTest {

  @Property(tries = 500)
  void shouldChooseAPossibleMethodOfLeastCostAndTheLowestNumberOnATie(
      @ForAll @LongRange(min = 0, max = 1L << 32) long sizeBytes, @ForAll boolean replicated,
      @ForAll boolean peerToPeer, @ForAll @IntRange(min = 1, max = 16) int sourceCount,
      @ForAll @IntRange(min = 1, max = 16) int targetCount, @ForAll @IntRange(min = 0, max = 15) int gateway,
      @ForAll @IntRange(min = 1, max = 2_000) int intraGbps, @ForAll @IntRange(min = 1, max = 2_000) int interGbps,
      @ForAll @IntRange(min = 0, max = 100_000_000) int readPs,
      @ForAll @IntRange(min = 0, max = 100_000_000) int writePs) {
    TransmissionCostModel model = new TransmissionCostModel(new TransmissionCosts(intraGbps * 1_000_000_000L,
        interGbps * 1_000_000_000L, readPs, writePs, peerToPeer));
    StageTransfer t = new StageTransfer(sizeBytes, replicated, 0, firstNpus(sourceCount), 1,
        firstNpus(targetCount), gateway);
    TransmissionChoice c = model.choose(t);

    MethodCost chosen = c.cost(c.chosen());
    assertThat(chosen.possible()).isTrue();
    for (MethodCost other : c.costs()) {
      assertThat(other.totalPs()).isEqualTo(other.stepsPs().stream().mapToLong(Long::longValue).sum());
      if (!other.possible()) continue;
      assertThat(chosen.totalPs()).isLessThanOrEqualTo(other.totalPs());
      if (other.totalPs() == chosen.totalPs()) {
        assertThat(c.chosen().number()).isLessThanOrEqualTo(other.method().number());
      }
    }
    assertThat(c.cost(TransmissionMethod.SEND_BROADCAST).possible()).isEqualTo(replicated);
    assertThat(c.cost(TransmissionMethod.P2P_BUS).possible()).isEqualTo(peerToPeer);
    // With one intra-server bandwidth method 4 never moves more inside a server than method 3's spliced data.
    assertThat(c.cost(TransmissionMethod.SWITCH_SEND).totalPs())
        .isLessThanOrEqualTo(c.cost(TransmissionMethod.ALLGATHER_SEND_SCATTER).totalPs());
    // The flowchart agrees when it reaches S1805 (distinct data, no peer-to-peer).
    if (!replicated && !peerToPeer) assertThat(model.seedFlowchart(t)).isEqualTo(c.chosen());
  }

  @Property(tries = 300)
  void shouldFindSendAndBroadcastCheapestOfOneThreeAndFourOnReplicatedDataBetweenEqualStages(
      @ForAll @LongRange(min = 0, max = 1L << 32) long sizeBytes, @ForAll @IntRange(min = 1, max = 16) int npus,
      @ForAll @IntRange(min = 0, max = 15) int gateway, @ForAll @IntRange(min = 1, max = 2_000) int intraGbps,
      @ForAll @IntRange(min = 1, max = 2_000) int interGbps) {
    // Without peer-to-peer the flowchart's S1802 (method 1 for an all-reduce's result) is then also the minimum.
    TransmissionCostModel model = new TransmissionCostModel(new TransmissionCosts(intraGbps * 1_000_000_000L,
        interGbps * 1_000_000_000L, 0, 0, false));
    StageTransfer t = new StageTransfer(sizeBytes, true, 0, firstNpus(npus), 1, firstNpus(npus), gateway);
    TransmissionChoice c = model.choose(t);
    long first = c.cost(TransmissionMethod.SEND_BROADCAST).totalPs();
    assertThat(first).isLessThanOrEqualTo(c.cost(TransmissionMethod.ALLGATHER_SEND_SCATTER).totalPs());
    assertThat(first).isLessThanOrEqualTo(c.cost(TransmissionMethod.SWITCH_SEND).totalPs());
    assertThat(c.chosen()).isEqualTo(model.seedFlowchart(t)).isEqualTo(TransmissionMethod.SEND_BROADCAST);
  }

  @Property(tries = 500)
  void shouldCostEveryMethodMoreForMoreData(
      @ForAll @LongRange(min = 0, max = 1L << 32) long sizeBytes, @ForAll @LongRange(min = 1, max = 1L << 20) long more,
      @ForAll @IntRange(min = 1, max = 16) int sourceCount, @ForAll @IntRange(min = 1, max = 16) int targetCount,
      @ForAll @IntRange(min = 0, max = 15) int gateway, @ForAll @IntRange(min = 1, max = 2_000) int intraGbps,
      @ForAll @IntRange(min = 1, max = 2_000) int interGbps) {
    TransmissionCostModel model = new TransmissionCostModel(new TransmissionCosts(intraGbps * 1_000_000_000L,
        interGbps * 1_000_000_000L, 1_000, 2_000, true));
    StageTransfer small = new StageTransfer(sizeBytes, true, 0, firstNpus(sourceCount), 1, firstNpus(targetCount),
        gateway);
    StageTransfer large = new StageTransfer(sizeBytes + more, true, 0, firstNpus(sourceCount), 1,
        firstNpus(targetCount), gateway);
    for (TransmissionMethod m : TransmissionMethod.values()) {
      long before = model.cost(m, small).totalPs();
      long after = model.cost(m, large).totalPs();
      // Every method sends at least D across the servers, so at least the added bytes' time across is added.
      long acrossPs = more * 8_000L / interGbps;
      assertThat(after - before).as("%s", m).isGreaterThanOrEqualTo(acrossPs);
      assertThat(after).as("%s", m).isGreaterThan(before);
    }
  }

  private static List<Integer> firstNpus(int count) {
    List<Integer> npus = new ArrayList<>();
    for (int i = 0; i < count; i++) npus.add(i);
    return npus;
  }
}
