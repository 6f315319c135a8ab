package dev.firedrill.embedded.scrape;

/** An exposition that does not parse: {@code TARGET: line N: expected ..., found ...}. */
public final class ExpositionException extends Exception {
  private static final long serialVersionUID = 1L;

  public ExpositionException(String message) {
    super(message);
  }
}
