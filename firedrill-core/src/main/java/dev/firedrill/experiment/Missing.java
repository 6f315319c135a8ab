package dev.firedrill.experiment;

/**
 * What a query that returns no data means. Missing data is failure unless the file says otherwise.
 */
public enum Missing {
  FAIL("fail"),
  INCONCLUSIVE("inconclusive");

  private final String text;

  Missing(String text) {
    this.text = text;
  }

  public String text() {
    return text;
  }
}
