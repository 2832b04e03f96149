package io.fabemu.app.report;

import io.fabemu.cluster.scenario.Quantities;
import io.fabemu.collectives.LineProtocol;
import io.fabemu.collectives.ProtocolSpec;
import io.fabemu.collectives.WorkloadSpec;
import io.fabemu.fabric.ScenarioSpec;
import java.util.ArrayList;
import java.util.List;

/**
 * Which protocol (NCCL's Simple, LL, LL128) an algorithm's cases ran by, for the text reports: the runs of sizes by
 * one protocol, e.g. {@code protocol auto: ll 1 KiB to 64 KiB, ll128 128 KiB to 4 MiB, simple 8 MiB to 1 GiB}. Empty
 * for a workload whose every case runs Simple at no cost (the default), which the reports never mention.
 */
public final class ProtocolNote {

  private ProtocolNote() {}

  /** The note for the cases of {@code spec}'s {@code algorithmIndex}-th algorithm, in the workload's sizes. */
  public static String of(ScenarioSpec spec, int algorithmIndex) {
    return of(spec, algorithmIndex, 1);
  }

  /**
   * The same with the sizes given {@code blocks} times the workload's (nccl-tests' sizes: an all-gather's is every
   * rank's block).
   */
  public static String of(ScenarioSpec spec, int algorithmIndex, int blocks) {
    WorkloadSpec w = spec.workload();
    return of(w, algorithmIndex, spec.topology().hosts() * w.ppn(), spec.topology().hostsPerServer() * w.ppn(),
        blocks);
  }

  /**
   * The note for the cases of {@code w}'s {@code algorithmIndex}-th algorithm on {@code ranks} ranks,
   * {@code ranksPerServer} to a server, its sizes {@code blocks} times the workload's; "" when there is none.
   */
  static String of(WorkloadSpec w, int algorithmIndex, int ranks, int ranksPerServer, int blocks) {
    if (w.protocols().equals(ProtocolSpec.SIMPLE_ONLY)) return "";
    List<String> runs = new ArrayList<>();
    LineProtocol current = null;
    long first = 0;
    long last = 0;
    for (int s = 0; s < w.sizesBytes().size(); s++) {
      int caseIndex = w.caseIndex(algorithmIndex, w.primaryBufferIndex(), s);
      LineProtocol p = w.protocolOfCase(caseIndex, ranks, ranksPerServer);
      long size = w.sizeOfCase(caseIndex) * blocks;
      if (p != current) {
        if (current != null) runs.add(run(current, first, last));
        current = p;
        first = size;
      }
      last = size;
    }
    if (current != null) runs.add(run(current, first, last));
    String asked = w.protocols().chooses() ? "auto" : w.protocols().candidates().get(0).configName();
    return "protocol " + asked + ": " + String.join(", ", runs);
  }

  private static String run(LineProtocol p, long firstBytes, long lastBytes) {
    return p.configName() + " " + Quantities.formatBytes(firstBytes)
        + (lastBytes == firstBytes ? "" : " to " + Quantities.formatBytes(lastBytes));
  }
}
