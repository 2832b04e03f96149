package io.fabemu.core.protocol;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabemu.core.protocol.DeviceProtocol.CableFrame;
import io.fabemu.core.protocol.DeviceProtocol.CircuitDown;
import io.fabemu.core.protocol.DeviceProtocol.CircuitUp;
import io.fabemu.core.protocol.DeviceProtocol.Credit;
import io.fabemu.core.protocol.DeviceProtocol.EthernetControl;
import io.fabemu.core.protocol.DeviceProtocol.EthernetTimer;
import io.fabemu.core.protocol.DeviceProtocol.FailureNotice;
import io.fabemu.core.protocol.DeviceProtocol.FaultCommand;
import io.fabemu.core.protocol.DeviceProtocol.FaultDetected;
import io.fabemu.core.protocol.DeviceProtocol.Flit;
import io.fabemu.core.protocol.DeviceProtocol.IncRetransmitTimer;
import io.fabemu.core.protocol.DeviceProtocol.LocalDelivery;
import io.fabemu.core.protocol.DeviceProtocol.NicDeliver;
import io.fabemu.core.protocol.DeviceProtocol.NicSend;
import io.fabemu.core.protocol.DeviceProtocol.Packet;
import io.fabemu.core.protocol.DeviceProtocol.RouteUpdate;
import io.fabemu.core.protocol.DeviceProtocol.RoutedPacket;
import io.fabemu.core.protocol.DeviceProtocol.RouterCycle;
import io.fabemu.core.protocol.DeviceProtocol.StartWorkload;
import io.fabemu.core.protocol.DeviceProtocol.TransportTimer;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * {@link Payload#handleWith} hands each record to the method for it on the handler of its family, which the device's
 * {@link PayloadHandlers} accessor for the family returns (the device itself when it implements the family's
 * {@code Handler}); a family the device does not accept is refused whole, by the shared default.
 */
class PayloadHandlersTest {
  private static final Message MESSAGE = Message.synthetic(0, 1, 2L, 64L);

  /** One record of each kind, with the family accessor and handler method it must reach. */
  private static Map<Payload, String> everyRecordAndItsHandler() {
    Map<Payload, String> expected = new LinkedHashMap<>();
    expected.put(StartWorkload.INSTANCE, "workload.onStartWorkload");
    expected.put(new NicSend(1, MESSAGE), "host.onNicSend");
    expected.put(new NicDeliver(MESSAGE), "host.onNicDeliver");
    expected.put(new LocalDelivery(MESSAGE), "host.onLocalDelivery");
    expected.put(Packet.builder().sourceHost(0).destinationHost(1).wireBytes(64).build(), "link.onPacket");
    expected.put(new IncRetransmitTimer(0, 1L, 2L), "retransmit.onIncRetransmitTimer");
    expected.put(new TransportTimer(1, 2L, 3L), "retransmit.onTransportTimer");
    expected.put(new Flit(new RoutedPacket(1L, 0, 1, 2, 0L, false, null), 0, 1, 0, 0), "router.onFlit");
    expected.put(new Credit(1, 0, true), "router.onCredit");
    expected.put(RouterCycle.INSTANCE, "router.onRouterCycle");
    expected.put(new FaultCommand(null), "fault.onFaultCommand");
    expected.put(new FaultDetected(3), "fault.onFaultDetected");
    expected.put(new RouteUpdate(1, List.of(), 3), "fault.onRouteUpdate");
    expected.put(new FailureNotice(3, 4, 5L), "management.onFailureNotice");
    expected.put(new CableFrame(2, new byte[] {1, 2}), "ethernet.onCableFrame");
    expected.put(new EthernetTimer(4), "ethernet.onEthernetTimer");
    expected.put(new EthernetControl(List.of(2), 3), "ethernet.onEthernetControl");
    expected.put(new CircuitUp(1, 5L), "circuit.onCircuitUp");
    expected.put(new CircuitDown(1, 6L), "circuit.onCircuitDown");
    return expected;
  }

  @Test
  void shouldHandEveryRecordToItsMethodOnItsFamilysHandlerWithTheContext() {
    EveryFamily device = new EveryFamily();
    for (Map.Entry<Payload, String> entry : everyRecordAndItsHandler().entrySet()) {
      List<String> context = new ArrayList<>();

      entry.getKey().handleWith(device, context);

      assertThat(context).as("%s", entry.getKey()).containsExactly(entry.getValue() + " " + entry.getKey());
    }
  }

  @Test
  void shouldRefuseAFamilyTheDeviceDoesNotAcceptNamingTheDeviceAndThePayload() {
    LinkOnly device = new LinkOnly();
    List<String> context = new ArrayList<>();
    CircuitUp up = new CircuitUp(3, 5L);

    assertThatThrownBy(() -> up.handleWith(device, context)).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("test switch 7 cannot handle CircuitUp[peerHost=3, requestedAtPs=5]");
    assertThat(context).isEmpty();

    Packet packet = Packet.builder().sourceHost(0).destinationHost(1).wireBytes(64).build();
    packet.handleWith(device, context);
    assertThat(context).containsExactly("onPacket " + packet);
    assertThat(device.link(packet)).isSameAs(device);
  }

  @Test
  void shouldRefuseEveryRecordOfEveryFamilyWhenTheDeviceAcceptsNone() {
    PayloadHandlers<List<String>> none = () -> "test device 9";
    for (Payload payload : everyRecordAndItsHandler().keySet()) {
      List<String> context = new ArrayList<>();

      assertThatThrownBy(() -> payload.handleWith(none, context)).isInstanceOf(IllegalArgumentException.class)
          .hasMessage("test device 9 cannot handle " + payload);
      assertThat(context).isEmpty();
    }
  }

  /** Accepts only packets on links, through the family's own accessor. */
  private static final class LinkOnly implements LinkPayload.Handler<List<String>> {
    @Override
    public String deviceName() {
      return "test switch 7";
    }

    @Override
    public void onPacket(Packet packet, List<String> context) {
      context.add("onPacket " + packet);
    }
  }

  /**
   * Accepts every family and notes which family's accessor each payload went through, so a record handed to another
   * family's handler (or to another method) writes a different line into the context.
   */
  private static final class EveryFamily implements WorkloadPayload.Handler<List<String>>,
      HostPayload.Handler<List<String>>, LinkPayload.Handler<List<String>>, RetransmitPayload.Handler<List<String>>,
      RouterPayload.Handler<List<String>>, FaultPayload.Handler<List<String>>, ManagementPayload.Handler<List<String>>,
      EthernetPayload.Handler<List<String>>, CircuitPayload.Handler<List<String>> {
    private String family;

    @Override
    public String deviceName() {
      return "test device 1";
    }

    @Override
    public WorkloadPayload.Handler<List<String>> workload(WorkloadPayload payload) {
      family = "workload";
      return this;
    }

    @Override
    public void onStartWorkload(StartWorkload start, List<String> context) {
      context.add(family + ".onStartWorkload " + start);
    }

    @Override
    public HostPayload.Handler<List<String>> host(HostPayload payload) {
      family = "host";
      return this;
    }

    @Override
    public void onNicSend(NicSend send, List<String> context) {
      context.add(family + ".onNicSend " + send);
    }

    @Override
    public void onNicDeliver(NicDeliver deliver, List<String> context) {
      context.add(family + ".onNicDeliver " + deliver);
    }

    @Override
    public void onLocalDelivery(LocalDelivery delivery, List<String> context) {
      context.add(family + ".onLocalDelivery " + delivery);
    }

    @Override
    public LinkPayload.Handler<List<String>> link(LinkPayload payload) {
      family = "link";
      return this;
    }

    @Override
    public void onPacket(Packet packet, List<String> context) {
      context.add(family + ".onPacket " + packet);
    }

    @Override
    public RetransmitPayload.Handler<List<String>> retransmit(RetransmitPayload payload) {
      family = "retransmit";
      return this;
    }

    @Override
    public void onIncRetransmitTimer(IncRetransmitTimer timer, List<String> context) {
      context.add(family + ".onIncRetransmitTimer " + timer);
    }

    @Override
    public void onTransportTimer(TransportTimer timer, List<String> context) {
      context.add(family + ".onTransportTimer " + timer);
    }

    @Override
    public RouterPayload.Handler<List<String>> router(RouterPayload payload) {
      family = "router";
      return this;
    }

    @Override
    public void onFlit(Flit flit, List<String> context) {
      context.add(family + ".onFlit " + flit);
    }

    @Override
    public void onCredit(Credit credit, List<String> context) {
      context.add(family + ".onCredit " + credit);
    }

    @Override
    public void onRouterCycle(RouterCycle cycle, List<String> context) {
      context.add(family + ".onRouterCycle " + cycle);
    }

    @Override
    public FaultPayload.Handler<List<String>> fault(FaultPayload payload) {
      family = "fault";
      return this;
    }

    @Override
    public void onFaultCommand(FaultCommand command, List<String> context) {
      context.add(family + ".onFaultCommand " + command);
    }

    @Override
    public void onFaultDetected(FaultDetected detected, List<String> context) {
      context.add(family + ".onFaultDetected " + detected);
    }

    @Override
    public void onRouteUpdate(RouteUpdate update, List<String> context) {
      context.add(family + ".onRouteUpdate " + update);
    }

    @Override
    public ManagementPayload.Handler<List<String>> management(ManagementPayload payload) {
      family = "management";
      return this;
    }

    @Override
    public void onFailureNotice(FailureNotice notice, List<String> context) {
      context.add(family + ".onFailureNotice " + notice);
    }

    @Override
    public EthernetPayload.Handler<List<String>> ethernet(EthernetPayload payload) {
      family = "ethernet";
      return this;
    }

    @Override
    public void onCableFrame(CableFrame frame, List<String> context) {
      context.add(family + ".onCableFrame " + frame);
    }

    @Override
    public void onEthernetTimer(EthernetTimer timer, List<String> context) {
      context.add(family + ".onEthernetTimer " + timer);
    }

    @Override
    public void onEthernetControl(EthernetControl control, List<String> context) {
      context.add(family + ".onEthernetControl " + control);
    }

    @Override
    public CircuitPayload.Handler<List<String>> circuit(CircuitPayload payload) {
      family = "circuit";
      return this;
    }

    @Override
    public void onCircuitUp(CircuitUp up, List<String> context) {
      context.add(family + ".onCircuitUp " + up);
    }

    @Override
    public void onCircuitDown(CircuitDown down, List<String> context) {
      context.add(family + ".onCircuitDown " + down);
    }
  }
}
