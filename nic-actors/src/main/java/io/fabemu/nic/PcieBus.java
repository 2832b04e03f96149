package io.fabemu.nic;

import io.fabemu.core.link.PcieSpec;
import io.fabemu.core.time.Units;

/**
 * The host-NIC DMA over PCIe: one FIFO channel per direction, shared by all messages. The read channel reads the
 * segments of the messages sent, message after message in send order (a segment may leave once its bytes are read);
 * the write channel writes the payload of every received segment, in arrival order, at the PCIe rate. A rate of 0
 * means free: no channel then delays anything. The peer host does not matter here: every transfer crosses PCIe.
 */
public final class PcieBus implements HostBus {
  private final long bitsPerSecond;
  /** When the read channel (host memory to NIC, all messages sent) has read everything queued so far. */
  private long readFreeAtPs;
  /** When the write channel (NIC to host memory, all segments received) has written everything so far. */
  private long writeFreeAtPs;

  public PcieBus(PcieSpec pcie) {
    this.bitsPerSecond = pcie.bitsPerSecond();
  }

  @Override
  public long readStartPs(int peerHost, long startPs) {
    return Math.max(startPs, readFreeAtPs);
  }

  @Override
  public long readReadyPs(int peerHost, long readStartPs, long bytes) {
    return readStartPs + Units.transferPs(bytes, bitsPerSecond);
  }

  @Override
  public void readDone(int peerHost, long readyPs) {
    readFreeAtPs = readyPs;
  }

  @Override
  public long writtenPs(int peerHost, long readyPs, long bytes) {
    if (bitsPerSecond == 0) {
      return readyPs; // free PCIe: no channel to wait for
    }
    long written = Math.max(readyPs, writeFreeAtPs) + Units.transferPs(bytes, bitsPerSecond);
    writeFreeAtPs = written;
    return written;
  }
}
