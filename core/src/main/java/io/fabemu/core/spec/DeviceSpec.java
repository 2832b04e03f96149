package io.fabemu.core.spec;

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
