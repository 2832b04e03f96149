package io.fabemu.core.optical;

import java.util.Arrays;
import java.util.List;
import java.util.stream.IntStream;

/**
 * One transfer between two pipeline stages, as the cost model sees it: the stage on {@code sourceServer} runs on the
 * NPUs {@code sourceNpus} of that server, each holding {@code sizeBytes} for the next stage, which runs on the NPUs
 * {@code targetNpus} of {@code targetServer}; the two servers are joined by the circuit of NPU {@code gatewayNpu}
 * (the same number at both ends, formula 2).
 *
 * <p>{@code replicated} is the patent's "aggregation manner of the calculation result is all reduce" ([0149],
 * [0150]): every source NPU holds the same {@code sizeBytes} and every target NPU needs all of it. Otherwise the
 * source NPUs hold different data, {@code sourceNpus.size() x sizeBytes} in all, which the target NPUs share in equal
 * blocks ([0161]).
 *
 * @param sizeBytes    bytes each source NPU holds for the next stage, not negative
 * @param replicated   whether the source NPUs hold one and the same data (the result of an all-reduce)
 * @param sourceServer the source stage's server
 * @param sourceNpus   the source stage's NPUs in its server, distinct, not empty, kept sorted
 * @param targetServer the target stage's server, not the source server
 * @param targetNpus   the target stage's NPUs in its server, distinct, not empty, kept sorted
 * @param gatewayNpu   the number of the NPUs at both ends of the circuit joining the two servers, not negative
 */
public record StageTransfer(long sizeBytes, boolean replicated, int sourceServer, List<Integer> sourceNpus,
    int targetServer, List<Integer> targetNpus, int gatewayNpu) {

  /**
   * Checks the transfer and sorts the NPU sets.
   *
   * @throws IllegalArgumentException on a negative size, a server sent to itself, an empty or repeating NPU set,
   *     a negative number
   */
  public StageTransfer {
    if (sizeBytes < 0) throw new IllegalArgumentException("a transfer's size must not be negative, got " + sizeBytes);
    if (sourceServer < 0 || targetServer < 0 || gatewayNpu < 0) {
      throw new IllegalArgumentException("servers and the gateway NPU are not negative: servers " + sourceServer
          + " and " + targetServer + ", gateway NPU " + gatewayNpu);
    }
    if (sourceServer == targetServer) {
      throw new IllegalArgumentException("a transfer between stages joins two servers, not server " + sourceServer
          + " to itself");
    }
    sourceNpus = sortedSet(sourceNpus, "source");
    targetNpus = sortedSet(targetNpus, "target");
  }

  /**
   * The transfer between {@code sourceServer} and {@code targetServer} of {@code policy}, through the gateway NPU
   * the policy gives them.
   *
   * @throws IllegalArgumentException when the policy joins the two servers by no circuit, a server or NPU is out of
   *     the policy's range, or the transfer itself is invalid (see the constructor)
   */
  public static StageTransfer over(ConnectionPolicy policy, long sizeBytes, boolean replicated, int sourceServer,
      List<Integer> sourceNpus, int targetServer, List<Integer> targetNpus) {
    int gateway = policy.gatewayNpu(sourceServer, targetServer);
    if (gateway == ConnectionPolicy.NO_CIRCUIT) {
      throw new IllegalArgumentException("no circuit joins servers " + sourceServer + " and " + targetServer);
    }
    for (List<Integer> npus : List.of(sourceNpus, targetNpus)) {
      for (int npu : npus) {
        if (npu >= policy.npusPerServer()) {
          throw new IllegalArgumentException("NPU " + npu + " is out of range: servers have "
              + policy.npusPerServer() + " NPUs");
        }
      }
    }
    return new StageTransfer(sizeBytes, replicated, sourceServer, sourceNpus, targetServer, targetNpus, gateway);
  }

  /**
   * The transfer between two stages that each take a whole server, as the patent's stages do ([0072]): every NPU of
   * {@code sourceServer} to every NPU of {@code targetServer}, through the policy's gateway NPU.
   *
   * @throws IllegalArgumentException as {@link #over}
   */
  public static StageTransfer betweenServers(ConnectionPolicy policy, long sizeBytes, boolean replicated,
      int sourceServer, int targetServer) {
    List<Integer> all = IntStream.range(0, policy.npusPerServer()).boxed().toList();
    return over(policy, sizeBytes, replicated, sourceServer, all, targetServer, all);
  }

  /** The number of source NPUs, k_s. */
  public int sourceCount() {
    return sourceNpus.size();
  }

  /** The number of target NPUs, k_d. */
  public int targetCount() {
    return targetNpus.size();
  }

  /** The source NPUs other than the gateway: those whose data must reach the gateway inside the source server. */
  public int sourceOthers() {
    return sourceNpus.size() - (sourceNpus.contains(gatewayNpu) ? 1 : 0);
  }

  /** The target NPUs other than the gateway: those the data must reach inside the target server. */
  public int targetOthers() {
    return targetNpus.size() - (targetNpus.contains(gatewayNpu) ? 1 : 0);
  }

  /** Whether the source gateway NPU is one of the source stage's NPUs (it always is when a stage takes a server). */
  public boolean gatewayInSource() {
    return sourceNpus.contains(gatewayNpu);
  }

  /** All the source stage's data: k_s x size, what methods 2 to 4 send between the servers. */
  public long totalBytes() {
    return Math.multiplyExact(sizeBytes, (long) sourceNpus.size());
  }

  private static List<Integer> sortedSet(List<Integer> npus, String which) {
    if (npus == null || npus.isEmpty()) {
      throw new IllegalArgumentException("the " + which + " stage needs at least one NPU");
    }
    int[] sorted = npus.stream().mapToInt(Integer::intValue).sorted().toArray();
    for (int i = 0; i < sorted.length; i++) {
      if (sorted[i] < 0) throw new IllegalArgumentException("NPU numbers are not negative, got " + sorted[i]);
      if (i > 0 && sorted[i] == sorted[i - 1]) {
        throw new IllegalArgumentException("the " + which + " stage names NPU " + sorted[i] + " twice");
      }
    }
    return List.copyOf(Arrays.stream(sorted).boxed().toList());
  }
}
