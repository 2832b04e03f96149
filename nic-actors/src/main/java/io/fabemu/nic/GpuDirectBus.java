package io.fabemu.nic;

/**
 * The host bus of a GPU in a server whose GPUs share a server switch (NVSwitch): the traffic to and from the other
 * GPUs of its server is GPU-direct over NVLink (the GPU's copy engines read and write its HBM, and the NVLink port
 * paces the bytes: no PCIe channel is held and none delays them), everything else crosses PCIe as on any host
 * ({@link PcieBus}, shared by all of the GPU's traffic to the network). Which path a transfer takes is decided by its
 * peer: a GPU of the same server goes over NVLink even when a fault plan reroutes its packets over the rails (the
 * rails' PCIe then goes unpriced for them: a run with such a fault says so in docs/gpu-clusters.md).
 */
public final class GpuDirectBus implements HostBus {
  private final int server;
  private final int gpusPerServer;
  private final PcieBus pcie;

  /**
   * @param host          this GPU's host id; hosts {@code s * gpusPerServer ..} are server {@code s}'s GPUs
   * @param gpusPerServer the GPUs of a server, at least 1
   * @param pcie          the bus of the GPU's NIC, for every other transfer
   */
  public GpuDirectBus(int host, int gpusPerServer, PcieBus pcie) {
    if (host < 0 || gpusPerServer < 1) {
      throw new IllegalArgumentException("GPU-direct bus: host " + host + " and " + gpusPerServer
          + " GPUs per server: the host must not be negative and a server has at least one GPU");
    }
    this.server = host / gpusPerServer;
    this.gpusPerServer = gpusPerServer;
    this.pcie = pcie;
  }

  /** Whether a transfer with {@code peerHost} goes over NVLink: a GPU of this server (never {@link #NETWORK}). */
  public boolean overNvlink(int peerHost) {
    return peerHost >= 0 && peerHost / gpusPerServer == server;
  }

  @Override
  public long readStartPs(int peerHost, long startPs) {
    return overNvlink(peerHost) ? startPs : pcie.readStartPs(peerHost, startPs);
  }

  @Override
  public long readReadyPs(int peerHost, long readStartPs, long bytes) {
    return overNvlink(peerHost) ? readStartPs : pcie.readReadyPs(peerHost, readStartPs, bytes);
  }

  @Override
  public void readDone(int peerHost, long readyPs) {
    if (!overNvlink(peerHost)) pcie.readDone(peerHost, readyPs);
  }

  @Override
  public long writtenPs(int peerHost, long readyPs, long bytes) {
    return overNvlink(peerHost) ? readyPs : pcie.writtenPs(peerHost, readyPs, bytes);
  }
}
