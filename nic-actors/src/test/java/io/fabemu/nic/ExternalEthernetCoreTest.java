package io.fabemu.nic;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabemu.core.ethernet.EthernetFrame;
import io.fabemu.core.ethernet.EthernetReport;
import io.fabemu.core.ethernet.EthernetReport.ExternalHostCounters;
import io.fabemu.core.ethernet.EthernetSpec;
import io.fabemu.core.ethernet.FramePayloads;
import io.fabemu.core.ethernet.MacAddress;
import io.fabemu.core.protocol.DeviceProtocol.CableFrame;
import io.fabemu.core.protocol.DeviceProtocol.EthernetControl;
import io.fabemu.core.protocol.DeviceProtocol.EthernetTimer;
import io.fabemu.core.protocol.Payload;
import io.fabemu.core.sim.Event;
import io.fabemu.core.sim.RecordingOutbox;
import io.fabemu.core.sim.RecordingOutbox.Sent;
import io.fabemu.core.time.Units;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@link ExternalEthernetCore} driven by hand: each round its external hosts send a frame round-robin over the nodes'
 * MACs on the cable of the I/O node the switch learned or the first enabled one, one frame after another on a cable,
 * at the interval; it corrupts frames by its seeded draw, drops what no enabled NIC can take, and checks what comes
 * back.
 */
class ExternalEthernetCoreTest {
  private static final int DEVICE = 20;
  private static final int NODES = 2;
  private static final long SEED = 5L;
  private static final long LATENCY_PS = 500_000L;
  private static final long INTERVAL_PS = 1_000_000L;
  private static final int FRAME_BYTES = 100;
  /** A 100-byte payload makes a 118-byte frame; with preamble and gap 138 B, 1104 bits at 10 Gbps. */
  private static final long SERIALIZATION_PS = 110_400L;

  private final RecordingOutbox outbox = new RecordingOutbox();
  private long sequence;

  /** I/O nodes 0 and 1, 1 on standby, two external hosts sending three rounds. */
  private static EthernetSpec spec(double corruptProbability, int unknownMacEvery) {
    return new EthernetSpec(List.of(0, 1), List.of(1), 10 * Units.GBPS, LATENCY_PS, 2, corruptProbability, 3, 0,
        unknownMacEvery, FRAME_BYTES, INTERVAL_PS, 0L);
  }

  private static ExternalEthernetCore core(EthernetSpec spec) {
    return new ExternalEthernetCore(DEVICE, spec, NODES, SEED);
  }

  private List<Sent> handle(ExternalEthernetCore core, long timePs, int sourceDevice, Payload payload) {
    core.onEvent(new Event(timePs, sourceDevice, sequence++, DEVICE, payload), outbox.at(timePs));
    return outbox.take();
  }

  private static EthernetFrame frameOf(Sent sent) {
    return EthernetFrame.decode(((CableFrame) sent.payload()).frame());
  }

  /** A frame node {@code node} sends external host {@code host} as its frame {@code sequence}. */
  private static byte[] outbound(int node, int host, long sequence, long seed) {
    long source = MacAddress.ofNode(node);
    return new EthernetFrame(MacAddress.ofExternalHost(host), source, EthernetFrame.ETHER_TYPE,
        FramePayloads.of(source, sequence, FRAME_BYTES, seed)).encode();
  }

  private static ExternalHostCounters host(ExternalEthernetCore core, int index) {
    return core.report().part(EthernetReport.class).externalHosts().get(index);
  }

  @Test
  void shouldSendEachHostsFrameOnTheEnabledCableOneAfterAnotherAndTheNextRoundAnIntervalLater() {
    ExternalEthernetCore core = core(spec(0, 0));
    List<Sent> sent = handle(core, 1_000L, DEVICE, new EthernetTimer(0));

    // Host 0's frame to node 0, then host 1's to node 1 after it on the same cable (I/O node 0's: 1 is on standby).
    assertThat(sent).extracting(Sent::targetDevice).containsExactly(0, 0, DEVICE);
    assertThat(sent).extracting(Sent::timePs).containsExactly(1_000L + SERIALIZATION_PS + LATENCY_PS,
        1_000L + 2 * SERIALIZATION_PS + LATENCY_PS, 1_000L + INTERVAL_PS);
    for (int e = 0; e < 2; e++) {
      EthernetFrame frame = frameOf(sent.get(e));
      assertThat(((CableFrame) sent.get(e).payload()).ioHost()).isZero();
      assertThat(frame.source()).isEqualTo(MacAddress.ofExternalHost(e));
      assertThat(frame.destination()).isEqualTo(MacAddress.ofNode(e));
      assertThat(FramePayloads.sequenceOf(frame.payload())).isZero();
      assertThat(FramePayloads.verify(frame.source(), frame.payload(), SEED)).isTrue();
    }
    assertThat(sent.get(2).payload()).isEqualTo(new EthernetTimer(1));
    assertThat(handle(core, 1_000L + INTERVAL_PS, DEVICE, new EthernetTimer(1))).extracting(Sent::payload)
        .contains(new EthernetTimer(2));
    assertThat(handle(core, 1_000L + 2 * INTERVAL_PS, DEVICE, new EthernetTimer(2))).as("the last round")
        .hasSize(2).noneMatch(s -> s.payload() instanceof EthernetTimer);
    assertThat(core.report().part(EthernetReport.class).externalHosts()).extracting(ExternalHostCounters::sent)
        .containsExactly(3L, 3L);
  }

  @Test
  void shouldSendAFrameOnTheCableItLearnedItsDestinationOnOnceThatNicIsEnabled() {
    ExternalEthernetCore core = core(spec(0, 0));
    // Node 1's frame came in through I/O node 1: its MAC is learned there, but that NIC is still on standby.
    handle(core, 0L, 1, new CableFrame(1, outbound(1, 0, 0, SEED)));
    assertThat(handle(core, 1_000L, DEVICE, new EthernetTimer(0))).extracting(Sent::targetDevice)
        .containsExactly(0, 0, DEVICE);

    handle(core, 2_000L, 1, new EthernetControl(List.of(0, 1), 4));
    List<Sent> sent = handle(core, 1_000_000L, DEVICE, new EthernetTimer(1));
    // Two cables now: neither frame waits for the other.
    assertThat(sent).extracting(Sent::targetDevice).containsExactly(0, 1, DEVICE);
    assertThat(sent).extracting(Sent::timePs).containsExactly(1_000_000L + SERIALIZATION_PS + LATENCY_PS,
        1_000_000L + SERIALIZATION_PS + LATENCY_PS, 2_000_000L);
    assertThat(frameOf(sent.get(1)).destination()).isEqualTo(MacAddress.ofNode(1));
  }

  @Test
  void shouldSendEveryNthFrameToAMacNoDeviceOwns() {
    ExternalEthernetCore core = core(spec(0, 2));
    handle(core, 0L, DEVICE, new EthernetTimer(0));
    List<Sent> second = handle(core, INTERVAL_PS, DEVICE, new EthernetTimer(1));
    assertThat(frameOf(second.get(0)).destination()).isEqualTo(MacAddress.unknown(2));
    assertThat(frameOf(second.get(1)).destination()).isEqualTo(MacAddress.unknown(3));
    // The round-robin over the nodes skips the unknown frames: round 2 goes on with node 0.
    List<Sent> third = handle(core, 2 * INTERVAL_PS, DEVICE, new EthernetTimer(2));
    assertThat(frameOf(third.get(0)).destination()).isEqualTo(MacAddress.ofNode(0));
  }

  @Test
  void shouldCorruptByItsSeededDrawAndDropWhatNoEnabledNicTakes() {
    ExternalEthernetCore corrupting = core(spec(0.999_999, 0));
    List<Sent> sent = handle(corrupting, 0L, DEVICE, new EthernetTimer(0));
    assertThat(sent.subList(0, 2)).allSatisfy(s ->
        assertThat(EthernetFrame.fcsMatches(((CableFrame) s.payload()).frame())).isFalse());
    assertThat(corrupting.report().part(EthernetReport.class).corruptedSent()).isEqualTo(2);

    ExternalEthernetCore cutOff = core(spec(0, 0));
    handle(cutOff, 0L, 1, new EthernetControl(List.of(), 4));
    assertThat(handle(cutOff, 1_000L, DEVICE, new EthernetTimer(0))).extracting(Sent::payload)
        .containsExactly(new EthernetTimer(1));
    EthernetReport report = cutOff.report().part(EthernetReport.class);
    assertThat(report.noCableDrops()).isEqualTo(2);
    assertThat(report.externalHosts()).extracting(ExternalHostCounters::sent).containsExactly(1L, 1L);
  }

  @Test
  void shouldCountWhatItsHostsReceiveAndWhatWasWrong() {
    ExternalEthernetCore core = core(spec(0, 0));
    handle(core, 0L, 0, new CableFrame(0, outbound(0, 1, 0, SEED)));
    handle(core, 0L, 0, new CableFrame(0, outbound(1, 1, 1, SEED + 1)));
    assertThat(host(core, 0)).isEqualTo(new ExternalHostCounters(0, 0, 0, 0));
    assertThat(host(core, 1)).isEqualTo(new ExternalHostCounters(1, 0, 2, 1));
  }

  @Test
  void shouldRefuseWhatNoNicSendsAnExternalHost() {
    ExternalEthernetCore core = core(spec(0, 0));
    byte[] toANode = new EthernetFrame(MacAddress.ofNode(1), MacAddress.ofNode(0), EthernetFrame.ETHER_TYPE,
        FramePayloads.of(MacAddress.ofNode(0), 0, FRAME_BYTES, SEED)).encode();
    assertThatThrownBy(() -> handle(core, 0L, 0, new CableFrame(0, toANode)))
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("external Ethernet: a frame for 02:00:00:00:00:01, which is no external host");
    assertThatThrownBy(() -> handle(core, 0L, 0, new CableFrame(0, new byte[10])))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageStartingWith("external Ethernet: the Ethernet NIC of host 0 sent no valid frame: ");
  }
}
