package io.fabemu.nic;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabemu.core.fault.FaultReport;
import io.fabemu.core.fault.FaultTally;
import java.util.List;
import org.junit.jupiter.api.Test;

/** What the extensions add to a NIC's report. */
class NicReportPartsTest {

  @Test
  void shouldHaveNoFaultReportWithoutFaults() {
    NicReportParts parts = new NicReportParts();
    parts.inc(List.of("task given up"), List.of());
    assertThat(parts.faultReport()).isNull();
    assertThat(parts.traffic()).isNull();
    assertThat(parts.ethernet()).isNull();
  }

  @Test
  void shouldListTheTransportsLinesBeforeIncsWhicheverCameFirst() {
    NicReportParts parts = new NicReportParts();
    parts.inc(List.of("inc gave up"), List.of("group 3 broken"));
    parts.faults(new FaultTally(1), List.of("message gave up"));
    FaultReport report = parts.faultReport();
    assertThat(report.gaveUp()).containsExactly("message gave up", "inc gave up");
    assertThat(report.incFallbacks()).containsExactly("group 3 broken");
  }
}
