package io.fabemu.app.report;

import io.fabemu.collectives.WorkloadSpec;

/** How the report and results name a case: its number, collective, algorithm, buffer placement and size. */
final class CaseLabels {
  private CaseLabels() {}

  /** {@code "1 (allreduce ring, 4 KiB)"}: case {@code caseIndex} of {@code workload}. */
  static String of(WorkloadSpec workload, int caseIndex) {
    return caseIndex + " (" + workload.collective().configName() + " " + workload.algorithmOfCase(caseIndex)
        .configName() + (workload.inPlaceOfCase(caseIndex) ? " in-place" : "") + ", "
        + Formats.bytes(workload.sizeOfCase(caseIndex)) + ")";
  }
}
