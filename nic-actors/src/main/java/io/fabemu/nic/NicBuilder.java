package io.fabemu.nic;

import io.fabemu.core.link.DetourViews;
import io.fabemu.core.link.PacketDropSpec;
import io.fabemu.core.link.PacketForwarder;
import io.fabemu.core.link.PcieSpec;
import io.fabemu.core.router.RouterSpec;
import io.fabemu.core.routing.RoutingTable;
import io.fabemu.core.topology.Topology;
import java.util.ArrayList;
import java.util.List;

/**
 * Builds a {@link NicCore} ({@link NicCore#builder}): a link port unless {@link #routerNetwork} is given, and no
 * feature until added.
 */
public final class NicBuilder {
  final int host;
  final int nodeDevice;
  final Topology topology;
  final RoutingTable routing;
  final NicSpec nic;
  final PcieSpec pcie;
  final int syntheticElementBytes;
  List<PacketDropSpec> packetDrops = List.of();
  long scenarioSeed;
  /** Makes the port: links unless {@link #routerNetwork} says otherwise. */
  PortMaker port;
  final List<NicExtension.Factory> factories = new ArrayList<>();

  NicBuilder(int host, int nodeDevice, Topology topology, RoutingTable routing, NicSpec nic, PcieSpec pcie,
             int syntheticElementBytes) {
    this.host = host;
    this.nodeDevice = nodeDevice;
    this.topology = topology;
    this.routing = routing;
    this.nic = nic;
    this.pcie = pcie;
    this.syntheticElementBytes = syntheticElementBytes;
    this.port = (forwarder, chassis) -> new LinkNicPort(host, forwarder);
  }

  /** The scenario's injected loss (the entry for this host's link, if any, applies), seeded by the scenario. */
  public NicBuilder packetDrops(List<PacketDropSpec> drops, long seed) {
    this.packetDrops = List.copyOf(drops);
    this.scenarioSeed = seed;
    return this;
  }

  /** A router network's NIC: its only port goes to its router, and its segments travel as flits. */
  public NicBuilder routerNetwork(RouterSpec spec, int routingVcClasses) {
    this.port = (forwarder, chassis) -> RouterNicPort.direct(host, topology, spec, routingVcClasses, forwarder,
        chassis, nic.headerBytes());
    return this;
  }

  /**
   * A router network's NIC in a run with faults: as {@link #routerNetwork(RouterSpec, int)}, but its routers route
   * by the detour routing (twice the base classes) and its packets carry the via node of the management node's
   * detours, looked up in {@code detourViews}.
   */
  public NicBuilder routerNetwork(RouterSpec spec, int routingVcClasses, DetourViews detourViews) {
    this.port = (forwarder, chassis) -> RouterNicPort.withDetours(host, topology, spec, routingVcClasses,
        detourViews, forwarder, chassis, nic.headerBytes());
    return this;
  }

  /** Adds a feature; features are built in the order they are added, once the chassis is. */
  public NicBuilder extension(NicExtension.Factory factory) {
    factories.add(factory);
    return this;
  }

  public NicCore build() {
    return new NicCore(this);
  }

  /** Makes a NIC's port once its forwarder exists. */
  @FunctionalInterface
  interface PortMaker {
    NicPort make(PacketForwarder forwarder, NicPort.Host chassis);
  }
}
