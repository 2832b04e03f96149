package io.fabemu.fabric;

import io.fabemu.core.router.RouterSpec;
import io.fabemu.core.router.Switching;
import io.fabemu.nic.NicSpec;
import io.fabemu.node.HostSpec;
import io.fabemu.switching.SwitchSpec;

/**
 * Every modeled delay of the devices.
 *
 * <p>A fabric uses the parts its topology has devices for: a leaf-spine's switches use {@code switchSpec}, a router
 * network's (mesh, torus, group-ring) routers use {@code router} and {@code routerStallLimitPs}; the other parts
 * keep their defaults and are ignored. Every part is always present, so a device never checks for a missing one.
 *
 * @param inc                in-network computing; null when the fabric has none
 * @param router             the routers of a router network, and its channels ({@link RouterSpec#channel()})
 * @param routerStallLimitPs the deadlock watchdog of a router network: a run in which flits are buffered but none
 *                           has moved for this long (virtual time) has deadlocked and is stopped; greater than 0
 */
public record DeviceSpec(HostSpec host, NicSpec nic, SwitchSpec switchSpec, IncSpec inc, RouterSpec router,
                         long routerStallLimitPs) {

  /**
   * The router a scenario gets when it sets none (BookSim's defaults: a 1 GHz clock, 16-byte flits, 2 virtual
   * channels of 8 flits, one cycle per pipeline stage, per channel and per credit, wormhole switching). The
   * scenario defaults file states the same values; the loader's tests hold the two equal.
   */
  public static final RouterSpec DEFAULT_ROUTER =
      new RouterSpec(1_000L, 16, 2, 8, 1, 1, 1, 1, 1, 1, Switching.WORMHOLE);
  /** The stall limit a scenario gets when it sets none: 1 ms of virtual time. */
  public static final long DEFAULT_ROUTER_STALL_LIMIT_PS = 1_000_000_000L;

  public DeviceSpec {
    if (router == null) throw new IllegalArgumentException("devices need a router spec, got none");
    if (routerStallLimitPs <= 0) {
      throw new IllegalArgumentException("routerStallLimitPs must be greater than 0, got " + routerStallLimitPs);
    }
  }

  /** Devices with the default router ({@link #DEFAULT_ROUTER}, {@link #DEFAULT_ROUTER_STALL_LIMIT_PS}). */
  public DeviceSpec(HostSpec host, NicSpec nic, SwitchSpec switchSpec, IncSpec inc) {
    this(host, nic, switchSpec, inc, DEFAULT_ROUTER, DEFAULT_ROUTER_STALL_LIMIT_PS);
  }

  /** Devices without in-network computing, with the default router. */
  public DeviceSpec(HostSpec host, NicSpec nic, SwitchSpec switchSpec) {
    this(host, nic, switchSpec, null);
  }
}
