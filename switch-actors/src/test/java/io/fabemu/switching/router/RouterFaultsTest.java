package io.fabemu.switching.router;

import static io.fabemu.switching.router.RouterTestNetwork.line;
import static io.fabemu.switching.router.RouterTestNetwork.portTo;
import static io.fabemu.switching.router.RouterTestNetwork.spec;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabemu.core.fault.FaultAction;
import io.fabemu.core.fault.FaultEvent;
import io.fabemu.core.fault.FaultPlan;
import io.fabemu.core.fault.FaultSettings;
import io.fabemu.core.protocol.DeviceProtocol.FailureNotice;
import io.fabemu.core.protocol.DeviceProtocol.FaultCommand;
import io.fabemu.core.protocol.DeviceProtocol.FaultDetected;
import io.fabemu.core.protocol.DeviceProtocol.Flit;
import io.fabemu.core.protocol.DeviceProtocol.RoutedPacket;
import io.fabemu.core.protocol.Payload;
import io.fabemu.core.router.RouterSpec;
import io.fabemu.core.router.Switching;
import io.fabemu.core.sim.Outbox;
import io.fabemu.core.topology.Topology;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@link RouterFaults} alone, over a fake of the router's {@link RouterFaults.Buffers} (plain arrays): router 4 of
 * the line 3 - 4 - 5 (hosts 0, 1, 2 on them), 4 virtual channels of 4 flits per port. What it does inside a running
 * router is {@link RouterCoreFaultTest}'s.
 */
class RouterFaultsTest {
  private static final int MANAGEMENT = 99;
  private static final int R3 = 3;
  private static final int R4 = 4;
  private static final int R5 = 5;

  private final RouterSpec spec = spec(4, 4, 1, 1, 1, 1, 1, 1, Switching.WORMHOLE);
  private final Topology topology = line(3, spec);
  private final FaultSettings settings = new FaultSettings(10_000L, 3, 5_000L, 0L, 50_000_000L, 10);
  private final int toR5 = portTo(topology, R4, R5);
  private final int toR3 = portTo(topology, R4, R3);
  private final int vcs = spec.virtualChannels();

  /** A payload sent, as "target@timePs payload". */
  private final List<String> sent = new ArrayList<>();

  /** Router 4's buffers and channels as plain arrays; records what the fault handling asks of it. */
  private final class FakeRouter implements RouterFaults.Buffers {
    final int ringSize = spec.bufferDepthFlits() + 1;
    final int inputVcs = topology.portCount(R4) * vcs;
    final Flit[] buffer = new Flit[inputVcs * ringSize];
    final int[] count = new int[inputVcs];
    final int[] nextArriving = new int[inputVcs];
    final int[] owner = new int[inputVcs];
    final List<String> credits = new ArrayList<>();
    int wormsEnded;
    int emptied;
    int wakes;

    FakeRouter() {
      java.util.Arrays.fill(owner, -1);
    }

    @Override
    public int deviceId() {
      return R4;
    }

    @Override
    public int portCount() {
      return topology.portCount(R4);
    }

    @Override
    public int vcCount() {
      return vcs;
    }

    @Override
    public int ringSize() {
      return ringSize;
    }

    @Override
    public int neighbour(int port) {
      return topology.ports(R4).get(port).to();
    }

    @Override
    public boolean toRouter(int port) {
      return !topology.isHost(neighbour(port));
    }

    @Override
    public int bufferedFlits(int iv) {
      return count[iv];
    }

    @Override
    public int slotOf(int iv, int k) {
      return iv * ringSize + k;
    }

    @Override
    public Flit flitAt(int slot) {
      return buffer[slot];
    }

    @Override
    public void setFlitAt(int slot, Flit flit) {
      buffer[slot] = flit;
    }

    @Override
    public int nextArrivingIndex(int iv) {
      return nextArriving[iv];
    }

    @Override
    public int append(int iv, Flit flit, long cycle) {
      int slot = slotOf(iv, count[iv]++);
      buffer[slot] = flit;
      return slot;
    }

    @Override
    public void endArrivingWorm(int iv) {
      nextArriving[iv] = 0;
      wormsEnded++;
    }

    @Override
    public int outputVcOwner(int ov) {
      return owner[ov];
    }

    @Override
    public void returnCredit(int iv, boolean tail, long cycle, Outbox outbox) {
      credits.add("iv" + iv + (tail ? " tail" : "") + " @" + cycle);
    }

    @Override
    public void emptyAll() {
      java.util.Arrays.fill(count, 0);
      emptied++;
    }

    @Override
    public void wake(Outbox outbox) {
      wakes++;
    }
  }

  private Outbox at(long nowPs) {
    return new Outbox() {
      @Override
      public long nowPs() {
        return nowPs;
      }

      @Override
      public void send(int target, long timePs, Payload payload) {
        sent.add(target + "@" + timePs + " " + payload);
      }
    };
  }

  private static RoutedPacket packet(long id, int flits) {
    return new RoutedPacket(id, 0, 2, flits, 0, false, null);
  }

  private Flit flit(RoutedPacket packet, int index, int port, int vc) {
    return new Flit(packet, index, port, vc, 0);
  }

  private FaultPlan plan(FaultEvent... events) {
    return new FaultPlan(settings, List.of(events));
  }

  private FaultEvent cable(long atPs, FaultAction action) {
    return FaultEvent.link(atPs, action, "cable 4-5", R4, R5);
  }

  @Test
  void shouldHaveNoDeadPortNoLossAndNoReportWhenTheRunHasNoFaults() {
    RouterFaults none = RouterFaults.NONE;
    assertThat(none.active()).isFalse();
    assertThat(none.isPortDead(0)).isFalse();
    assertThat(none.losesAt(0)).isFalse();
    assertThat(none.unpaidHeld(0)).isZero();
    assertThat(none.leavesPaid(0, 0)).isTrue();
    assertThat(none.report()).isNull();
  }

  @Test
  void shouldCloseAWormWithAnUnpaidCutFlitWhenItsPortDiesWithNoneOfItsFlitsBuffered() {
    FaultPlan plan = plan(cable(4_250, FaultAction.DOWN));
    FakeRouter router = new FakeRouter();
    RouterFaults faults = new RouterFaults(router, plan, MANAGEMENT, spec);
    int iv = toR5 * vcs + 1;
    RoutedPacket p = packet(7, 4);
    assertThat(faults.dropsOnArrival(flit(p, 0, toR5, 1), iv, 3, at(3_000))).isFalse();
    router.nextArriving[iv] = 1;

    faults.onFaultCommand(new FaultCommand(plan.event(0)), at(4_250));

    assertThat(faults.isPortDead(toR5)).isTrue();
    assertThat(faults.isPortDead(toR3)).isFalse();
    assertThat(faults.losesAt(toR5 * vcs + 2)).isTrue();
    assertThat(faults.losesAt(toR3 * vcs + 2)).isFalse();
    Flit cut = router.buffer[iv * router.ringSize];
    assertThat(cut.flitIndex()).isEqualTo(1);
    assertThat(cut.isCut()).isTrue();
    assertThat(cut.cutByEvent()).isZero();
    assertThat(router.wormsEnded).isEqualTo(1);
    assertThat(router.wakes).isEqualTo(1);
    assertThat(sent).containsExactly(R4 + "@" + (4_250 + settings.detectionDelayPs()) + " FaultDetected[eventId=0]");
    // The cut flit took no credit: it returns none when it leaves.
    assertThat(faults.unpaidHeld(iv)).isEqualTo(1);
    assertThat(faults.leavesPaid(iv * router.ringSize, iv)).isFalse();
    assertThat(faults.unpaidHeld(iv)).isZero();
    assertThat(faults.leavesPaid(iv * router.ringSize, iv)).isTrue();
  }

  @Test
  void shouldCutTheLastBufferedFlitWhenThePortOfItsWormDies() {
    FaultPlan plan = plan(cable(4_250, FaultAction.DOWN));
    FakeRouter router = new FakeRouter();
    RouterFaults faults = new RouterFaults(router, plan, MANAGEMENT, spec);
    int iv = toR5 * vcs;
    RoutedPacket p = packet(7, 4);
    router.append(iv, flit(p, 0, toR5, 0), 3);
    router.append(iv, flit(p, 1, toR5, 0), 4);
    router.nextArriving[iv] = 2;

    faults.onFaultCommand(new FaultCommand(plan.event(0)), at(4_250));

    assertThat(router.count[iv]).isEqualTo(2);
    assertThat(router.buffer[iv * router.ringSize].isCut()).isFalse();
    assertThat(router.buffer[iv * router.ringSize + 1].isCut()).isTrue();
    assertThat(faults.unpaidHeld(iv)).isZero();
  }

  @Test
  void shouldDropWhatArrivesOnADeadPortReturningItsCreditAndCountingItsPacketOnce() {
    FaultPlan plan = plan(cable(2_250, FaultAction.DOWN));
    FakeRouter router = new FakeRouter();
    RouterFaults faults = new RouterFaults(router, plan, MANAGEMENT, spec);
    faults.onFaultCommand(new FaultCommand(plan.event(0)), at(2_250));
    int iv = toR5 * vcs + 3;
    RoutedPacket p = packet(7, 2);

    assertThat(faults.dropsOnArrival(flit(p, 0, toR5, 3), iv, 20, at(20_000))).isTrue();
    assertThat(faults.dropsOnArrival(flit(p, 1, toR5, 3), iv, 21, at(21_000))).isTrue();

    assertThat(router.credits).containsExactly("iv" + iv + " @20", "iv" + iv + " tail @21");
    assertThat(faults.report().tally().lostPackets(0)).isEqualTo(1);
  }

  @Test
  void shouldLoseTheRestOfALeavingWormEvenAfterItsPortIsBack() {
    FaultPlan plan = plan(cable(2_250, FaultAction.DOWN), cable(6_250, FaultAction.UP));
    FakeRouter router = new FakeRouter();
    RouterFaults faults = new RouterFaults(router, plan, MANAGEMENT, spec);
    int ov = toR5 * vcs + 1;
    router.owner[ov] = toR3 * vcs;  // its head left, nothing of it is buffered
    RoutedPacket p = packet(7, 3);

    faults.onFaultCommand(new FaultCommand(plan.event(0)), at(2_250));
    faults.onFaultCommand(new FaultCommand(plan.event(1)), at(6_250));

    assertThat(faults.isPortDead(toR5)).isFalse();
    assertThat(faults.losesAt(ov)).isTrue();
    faults.loseAt(flit(p, 1, toR3, 0), ov, toR5);
    assertThat(faults.losesAt(ov)).isTrue();
    faults.loseAt(flit(p, 2, toR3, 0), ov, toR5);
    assertThat(faults.losesAt(ov)).isFalse();
    // Counted where the head was lost, not by its body flits.
    assertThat(faults.report().tally().lostPackets(0)).isZero();
  }

  @Test
  void shouldLoseEveryHeldFlitAndReturnItsCreditWhenTheRouterGoesDown() {
    FaultPlan plan = plan(FaultEvent.device(5_250, FaultAction.DOWN, "router4", R4, topology));
    FakeRouter router = new FakeRouter();
    RouterFaults faults = new RouterFaults(router, plan, MANAGEMENT, spec);
    int iv = toR3 * vcs + 2;
    RoutedPacket p = packet(7, 2);
    router.append(iv, flit(p, 0, toR3, 2), 3);
    router.append(iv, flit(p, 1, toR3, 2), 4);

    faults.onFaultCommand(new FaultCommand(plan.event(0)), at(5_250));

    assertThat(router.emptied).isEqualTo(1);
    assertThat(router.credits).containsExactly("iv" + iv + " @6", "iv" + iv + " tail @6");
    assertThat(faults.report().tally().lostPackets(0)).isEqualTo(1);
    assertThat(faults.isPortDead(toR3)).isTrue();
    assertThat(faults.isPortDead(toR5)).isTrue();
  }

  @Test
  void shouldTellTheManagementNodeWhatItNoticed() {
    FaultPlan plan = plan(cable(4_250, FaultAction.DOWN));
    RouterFaults faults = new RouterFaults(new FakeRouter(), plan, MANAGEMENT, spec);
    faults.onFaultCommand(new FaultCommand(plan.event(0)), at(4_250));
    sent.clear();
    long detectedPs = 4_250 + settings.detectionDelayPs();

    faults.onFaultDetected(new FaultDetected(0), at(detectedPs));

    assertThat(sent).containsExactly(MANAGEMENT + "@" + (detectedPs + settings.managementLatencyPs()) + " "
        + new FailureNotice(0, R4, detectedPs));
  }
}
