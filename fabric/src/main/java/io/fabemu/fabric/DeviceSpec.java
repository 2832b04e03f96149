package io.fabemu.fabric;

import io.fabemu.nic.NicSpec;
import io.fabemu.node.HostSpec;
import io.fabemu.switching.SwitchSpec;

/**
 * Every modeled delay of the devices.
 *
 * @param inc in-network computing; null when the fabric has none
 */
public record DeviceSpec(HostSpec host, NicSpec nic, SwitchSpec switchSpec, IncSpec inc) {

  /** Devices without in-network computing. */
  public DeviceSpec(HostSpec host, NicSpec nic, SwitchSpec switchSpec) {
    this(host, nic, switchSpec, null);
  }
}
