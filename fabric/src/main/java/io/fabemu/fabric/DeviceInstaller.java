package io.fabemu.fabric;

import io.fabemu.core.sim.DeviceCore;

/**
 * Puts one device family (NICs, routers, switches, compute nodes) or one extra device (management node, external
 * Ethernet, OCS controller) of a fabric at its ids, and says how its devices start. {@link Fabric#build} runs every
 * installer of its ordered list on one {@link FabricContext}; an installer whose devices the scenario lacks does
 * nothing. Installers keep no state: the context holds everything they share.
 */
interface DeviceInstaller {

  /** Creates this installer's devices and puts each at its id in {@code devices} (sized by the context's ids). */
  void install(FabricContext context, DeviceCore[] devices);

  /**
   * Adds the events that start this installer's devices, in the order they are to be numbered; none by default.
   * {@link Fabric#startEvents} asks the installers in the order of the list.
   */
  default void addStartEvents(FabricContext context, StartEvents events) {
  }
}
