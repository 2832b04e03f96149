package io.fabemu.app.report;

/**
 * A pipeline run's iterations, their parts, and the cost model's choice against the measured methods
 * ({@link PipelineTable}).
 */
final class PipelineSection implements ReportSection {

  private final PipelineTable table;

  PipelineSection(PipelineTable table) {
    this.table = table;
  }

  @Override
  public String id() {
    return "pipeline";
  }

  @Override
  public String title() {
    return "Pipeline iterations and transmission methods";
  }

  @Override
  public void render(Markup out) {
    table.html(out);
  }
}
