package io.fabemu.core.spec;

/** Every modeled delay of the devices. */
public record DeviceSpec(HostSpec host, NicSpec nic, SwitchSpec switchSpec) {}
