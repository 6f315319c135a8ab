package dev.firedrill.report;

import java.util.function.Function;

/** The formats {@code firedrill report} writes. */
public enum ReportFormat {
  HTML("html", HtmlReport::render),
  MD("md", MarkdownReport::render),
  JUNIT("junit", JunitReport::render);

  private final String text;
  private final Function<DrillRecord, String> renderer;

  ReportFormat(String text, Function<DrillRecord, String> renderer) {
    this.text = text;
    this.renderer = renderer;
  }

  public String text() {
    return text;
  }

  public String render(DrillRecord record) {
    return renderer.apply(record);
  }
}
