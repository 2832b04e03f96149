package io.fabemu.cluster.scenario;

import com.typesafe.config.ConfigValue;
import io.fabemu.core.link.ForwardingMode;
import io.fabemu.nic.NicSpec;
import io.fabemu.node.HostSpec;
import io.fabemu.switching.SwitchSpec;
import java.util.Arrays;
import java.util.Optional;

/**
 * {@code devices.host}, {@code devices.nic}, {@code devices.switch} and {@code devices.router} ({@link RouterSection});
 * {@link IncSection} reads devices.inc.
 *
 * <p>Contract: every part's values are read and checked whatever the topology, then the part the topology has no
 * devices for is refused when the user wrote a key of it: {@code devices.router} on a topology without routers,
 * {@code devices.switch} on a router network (whose nodes have routers, not switches). That part keeps its defaults
 * in the spec and is left out of the echo. (The direct networks line, ring and full-mesh have no switches either but
 * have always taken {@code devices.switch}, which they ignore, and still do.)
 */
final class DevicesSection implements ScenarioSection {

  @Override
  public void read(ScenarioReader in, ScenarioDraft draft) {
    draft.host(HostSpec.builder()
        .sendOverheadPs(in.durationPs("devices.host.send-overhead", false))
        .recvOverheadPs(in.durationPs("devices.host.recv-overhead", false))
        .reduceBitsPerSecond(in.byteRateBitsPerSecond("devices.host.reduce-rate"))
        .memoryBitsPerSecond(in.byteRateBitsPerSecond("devices.host.memory-bandwidth"))
        .memoryLatencyPs(in.durationPs("devices.host.memory-latency", true))
        .pcieBitsPerSecond(in.rateBitsPerSecond("devices.host.pcie-bandwidth", false))
        .pcieLatencyPs(in.durationPs("devices.host.pcie-latency", true))
        .socketsPerNode(in.intValue("devices.host.sockets-per-node", 1, ScenarioLoader.MAX_SOCKETS))
        .engines(in.intValue("devices.host.engines", 1, HostSpec.MAX_ENGINES))
        .crossSocketLatencyPs(in.durationPs("devices.host.cross-socket-latency", false))
        .shmMessageOccupancyPs(in.durationPs("devices.host.shm-message-occupancy", false))
        .build());
    draft.nic(readNic(in));
    ForwardingMode forwarding = in.enumValue("devices.switch.forwarding", ForwardingMode::fromConfigName,
        Arrays.stream(ForwardingMode.values()).map(ForwardingMode::configName).toList());
    draft.switchSpec(new SwitchSpec(in.durationPs("devices.switch.pipeline-latency", true), forwarding));
    draft.router(RouterSection.spec(in), RouterSection.stallLimitPs(in));
    refuseUnusedPart(in, draft);
  }

  private static void refuseUnusedPart(ScenarioReader in, ScenarioDraft draft) {
    CheckedTopology topology = draft.topology();
    String kind = topology.spec().configName();
    String unused = topology.routerNetwork() ? "devices.switch" : "devices.router";
    Optional<String> written = in.firstWrittenUnder(unused);
    if (written.isPresent()) {
      throw in.error(written.get(), topology.routerNetwork()
          ? "not used: a " + kind + " has a router in every node and no switches (set the routers under "
              + "devices.router)"
          : "only used when topology.kind " + TopologySection.routerNetworkKinds() + " (this topology is " + kind
              + ", which has no routers)");
    }
    draft.echo(draft.echo().withoutPath(unused));
  }

  private static NicSpec readNic(ScenarioReader in) {
    ConfigValue segmentValue = in.value("devices.nic.segment-size");
    long segment = in.sizeBytes("devices.nic.segment-size", segmentValue, 1, ScenarioLoader.MAX_PACKET_BYTES);
    long header = in.sizeBytes("devices.nic.header-bytes", 0, ScenarioLoader.MAX_HEADER_BYTES);
    if (segment + header > ScenarioLoader.MAX_PACKET_BYTES) {
      throw in.error("devices.nic.segment-size", segmentValue, "'" + ScenarioReader.text(segmentValue)
          + "' plus header-bytes (" + Quantities.formatBytes(header) + ") is above the limit of "
          + Quantities.formatBytes(ScenarioLoader.MAX_PACKET_BYTES) + " per packet");
    }
    return new NicSpec((int) segment, (int) header,
        in.durationPs("devices.nic.per-message-overhead", false),
        in.durationPs("devices.nic.forwarding-latency", true));
  }
}
