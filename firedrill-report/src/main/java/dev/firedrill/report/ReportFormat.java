package dev.firedrill.report;

import java.util.function.Function;

/** The formats {@code firedrill report} writes. */
public enum ReportFormat {
  HTML("html", ".html", HtmlReport::render),
  MD("md", ".md", MarkdownReport::render),
  JUNIT("junit", ".junit.xml", JunitReport::render);

  private final String text;
  private final String suffix;
  private final Function<DrillRecord, String> renderer;

  ReportFormat(String text, String suffix, Function<DrillRecord, String> renderer) {
    this.text = text;
    this.suffix = suffix;
    this.renderer = renderer;
  }

  public String text() {
    return text;
  }

  /** The file name's ending for a report written beside its journal. */
  public String suffix() {
    return suffix;
  }

  public String render(DrillRecord record) {
    return renderer.apply(record);
  }
}
