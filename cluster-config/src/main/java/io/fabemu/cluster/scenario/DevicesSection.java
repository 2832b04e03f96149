package io.fabemu.cluster.scenario;

import com.typesafe.config.ConfigValue;
import io.fabemu.core.link.ForwardingMode;
import io.fabemu.nic.NicSpec;
import io.fabemu.node.HostSpec;
import io.fabemu.switching.SwitchSpec;
import java.util.Arrays;

/** {@code devices.host}, {@code devices.nic} and {@code devices.switch}; {@link IncSection} reads devices.inc. */
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
        .crossSocketLatencyPs(in.durationPs("devices.host.cross-socket-latency", false))
        .shmMessageOccupancyPs(in.durationPs("devices.host.shm-message-occupancy", false))
        .build());
    draft.nic(readNic(in));
    ForwardingMode forwarding = in.enumValue("devices.switch.forwarding", ForwardingMode::fromConfigName,
        Arrays.stream(ForwardingMode.values()).map(ForwardingMode::configName).toList());
    draft.switchSpec(new SwitchSpec(in.durationPs("devices.switch.pipeline-latency", true), forwarding));
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
