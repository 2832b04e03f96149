package io.fabemu.app.report;

/** The embedded-ring algorithms compared ({@link RingComparison}): busbw per size and the ratio to the baseline. */
final class RingComparisonSection implements ReportSection {

  private final RingComparison comparison;

  RingComparisonSection(RingComparison comparison) {
    this.comparison = comparison;
  }

  @Override
  public String id() {
    return "ring-comparison";
  }

  @Override
  public String title() {
    return "Embedded rings compared";
  }

  @Override
  public void render(Markup out) {
    comparison.html(out);
  }
}
