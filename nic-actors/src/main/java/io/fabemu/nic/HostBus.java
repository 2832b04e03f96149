package io.fabemu.nic;

/**
 * The bus between a NIC and its host's memory, as the NIC's DMA sees it: when the bytes of a message being sent are
 * in the NIC, and when the bytes of a received segment are in host memory. Every call names the peer host at the
 * other end of the transfer ({@link #NETWORK} when there is none, as for INC's packets to the switches), so that a
 * bus may carry the traffic to some peers on another path: {@link GpuDirectBus} moves the traffic between GPUs of
 * one server over NVLink, beside PCIe. The chassis's own bus is {@link PcieBus}; an extension may claim another
 * ({@link NicClaims#hostBus}).
 */
public interface HostBus {

  /** The peer of a transfer that is not to or from one host (INC's task and control packets). */
  int NETWORK = -1;

  /** When the read channel can start reading a message to {@code peerHost} whose work request is done at {@code startPs}. */
  long readStartPs(int peerHost, long startPs);

  /** When {@code bytes} read from {@code readStartPs} on are in the NIC (the pipelined read's end, from its start). */
  long readReadyPs(int peerHost, long readStartPs, long bytes);

  /** The read channel that served {@code peerHost} is busy until {@code readyPs}. */
  void readDone(int peerHost, long readyPs);

  /** Writes {@code bytes} from {@code peerHost} that are ready at {@code readyPs}; returns when they are in memory. */
  long writtenPs(int peerHost, long readyPs, long bytes);
}
