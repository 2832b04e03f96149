package io.fabemu.nic;

import io.fabemu.core.link.PcieSpec;

/**
 * GPU servers with a server switch (NVSwitch): a GPU's traffic to the other GPUs of its server is GPU-direct over
 * NVLink, beside its NIC's PCIe ({@link GpuDirectBus}). Registered on every host of a fabric whose topology has such
 * servers ({@code TopologySpec.gpuDirectHostsPerServer() > 0}); it claims the NIC's host bus.
 */
public final class GpuDirectExtension implements NicExtension {
  private final GpuDirectBus bus;

  /**
   * @param gpusPerServer the GPUs of a server, which reach each other over NVLink
   * @param pcie          the PCIe between a GPU and its NIC, for the traffic to other servers
   */
  public GpuDirectExtension(NicServices services, int gpusPerServer, PcieSpec pcie) {
    this.bus = new GpuDirectBus(services.host(), gpusPerServer, new PcieBus(pcie));
  }

  @Override
  public void claim(NicClaims claims) {
    claims.hostBus(bus);
  }
}
