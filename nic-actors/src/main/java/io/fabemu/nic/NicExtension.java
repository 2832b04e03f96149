package io.fabemu.nic;

import io.fabemu.core.protocol.DeviceProtocol.RouteUpdate;
import io.fabemu.core.sim.Outbox;

/**
 * A feature of a NIC that the chassis ({@link NicCore}) does not have by itself: INC, the reliable transport, the I/O
 * nodes' Ethernet, synthetic traffic, OCS circuit waits. An extension is built with the chassis's {@link NicServices}
 * ({@link Factory}), takes over what it serves through {@link NicClaims}, and adds its part to the device report. A
 * feature that is off is not in the NIC's list of extensions at all.
 *
 * <p>Adding a feature: a new class implementing this interface (claiming a payload family or a hook, reaching the
 * chassis only through {@link NicServices}), and one registration in the fabric's NIC installer
 * ({@code builder.extension(services -> new MyExtension(services, ...))}).
 */
public interface NicExtension {

  /** Takes over what this extension serves; called once, while the NIC is built. */
  void claim(NicClaims claims);

  /** Adds this extension's part of the NIC's device report. */
  default void report(NicReportParts parts) {}

  /** The management node's routes changed (a run with faults), already applied to the port. */
  default void routesChanged(RouteUpdate update, Outbox outbox) {}

  /** A router-network NIC's link to its router went down ({@code up} false) or came back. */
  default void onRouterLink(boolean up) {}

  /** Builds an extension for a chassis. */
  @FunctionalInterface
  interface Factory {
    NicExtension create(NicServices services);
  }
}
