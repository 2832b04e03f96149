package io.fabemu.core.optical;

import io.fabemu.core.time.Units;
import java.util.ArrayList;
import java.util.List;

/**
 * The communication overheads of the four transmission methods between pipeline stages (the optical patent, [0167]-[0173]) and
 * the choice of the cheapest, as the management device makes it before the model is compiled ([0188], process 3).
 * Plain logic: no device, no virtual clock; docs/optical.md, "Transmission methods and the cost model", gives the
 * formulas and how they are read.
 *
 * <p>With D the bytes of each source NPU, k_s source NPUs (o_s of them other than the gateway NPU g), k_d target NPUs
 * (o_d other than g), T = k_s x D, B_intra and B_inter the two bandwidths and t_read, t_write the peer-to-peer
 * delays, each term {@code x / B} being {@link Units#transferPs} (rounded up to the picosecond):
 *
 * <pre>
 * method 1 = [g not a source NPU] D / B_intra + D / B_inter + [o_d > 0] D / B_intra      (replicated data only)
 * method 2 = [o_s > 0] t_read + T / B_inter + [o_d > 0] t_write                          (peer-to-peer only)
 * method 3 = [o_s > 0] T / B_intra + T / B_inter + [o_d > 0] T / B_intra
 * method 4 = o_s D / B_intra + T / B_inter + ceil(o_d T / k_d) / B_intra
 * </pre>
 *
 * <p>Contract: deterministic; {@link #choose} returns the possible method of least total, the lower number on a
 * tie; methods 3 and 4 are always possible, so there is always a choice.
 */
public final class TransmissionCostModel {
  private final TransmissionCosts costs;

  /** A model of the cluster whose fixed quantities are {@code costs}. */
  public TransmissionCostModel(TransmissionCosts costs) {
    this.costs = costs;
  }

  /** The configuration the model reads. */
  public TransmissionCosts costs() {
    return costs;
  }

  /** The cost of {@code method} for {@code transfer}, or why the method cannot carry it. */
  public MethodCost cost(TransmissionMethod method, StageTransfer transfer) {
    long d = transfer.sizeBytes();
    long total = transfer.totalBytes();
    int sourceOthers = transfer.sourceOthers();
    int targetOthers = transfer.targetOthers();
    switch (method) {
      case SEND_BROADCAST -> {
        // Only one copy crosses: correct only when every source NPU holds the same data ([0150]).
        if (!transfer.replicated()) {
          return MethodCost.notPossible(method,
              "the source NPUs hold different data (not the result of an all-reduce)");
        }
        // A stage that does not hold the gateway NPU first hands it one copy (stages of the patent take whole servers).
        return MethodCost.of(method, transfer.gatewayInSource() ? 0 : intra(d), inter(d),
            targetOthers > 0 ? intra(d) : 0);
      }
      case P2P_BUS -> {
        if (!costs.peerToPeer()) {
          return MethodCost.notPossible(method, "the servers have no peer-to-peer capability");
        }
        return MethodCost.of(method, sourceOthers > 0 ? costs.p2pReadPs() : 0, inter(total),
            targetOthers > 0 ? costs.p2pWritePs() : 0);
      }
      case ALLGATHER_SEND_SCATTER -> {
        return MethodCost.of(method, sourceOthers > 0 ? intra(total) : 0, inter(total),
            targetOthers > 0 ? intra(total) : 0);
      }
      case SWITCH_SEND -> {
        long scattered = ceilDiv(Math.multiplyExact(total, (long) targetOthers), transfer.targetCount());
        return MethodCost.of(method, intra(Math.multiplyExact(d, (long) sourceOthers)), inter(total),
            intra(scattered));
      }
      default -> throw new IllegalStateException("unknown method " + method);
    }
  }

  /** Every method's cost for {@code transfer} and the cheapest possible one, the lower number on a tie. */
  public TransmissionChoice choose(StageTransfer transfer) {
    List<MethodCost> all = new ArrayList<>();
    MethodCost best = null;
    for (TransmissionMethod method : TransmissionMethod.values()) {
      MethodCost c = cost(method, transfer);
      all.add(c);
      // Strictly less: values() is in the patent's order, so a tie keeps the lower number.
      if (c.possible() && (best == null || c.totalPs() < best.totalPs())) best = c;
    }
    return new TransmissionChoice(all, best.method());
  }

  /**
   * The patent's flowchart (FIG. 18, S1801-S1807), for comparison with {@link #choose}: replicated data gives method 1
   * whatever it costs; otherwise the peer-to-peer capability gives method 2; otherwise method 4 when method 3 costs
   * more, else method 3 (the seed leaves a tie open; method 3 here, as in {@link #choose}).
   */
  public TransmissionMethod seedFlowchart(StageTransfer transfer) {
    if (transfer.replicated()) return TransmissionMethod.SEND_BROADCAST;
    if (costs.peerToPeer()) return TransmissionMethod.P2P_BUS;
    long third = cost(TransmissionMethod.ALLGATHER_SEND_SCATTER, transfer).totalPs();
    long fourth = cost(TransmissionMethod.SWITCH_SEND, transfer).totalPs();
    return third > fourth ? TransmissionMethod.SWITCH_SEND : TransmissionMethod.ALLGATHER_SEND_SCATTER;
  }

  private long intra(long bytes) {
    return Units.transferPs(bytes, costs.intraServerBitsPerSecond());
  }

  private long inter(long bytes) {
    return Units.transferPs(bytes, costs.interServerBitsPerSecond());
  }

  private static long ceilDiv(long a, long b) {
    return a == 0 ? 0 : (a - 1) / b + 1;
  }
}
