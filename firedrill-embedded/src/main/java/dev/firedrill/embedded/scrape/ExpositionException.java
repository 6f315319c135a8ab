package dev.firedrill.embedded.scrape;

/** An exposition that does not parse: {@code TARGET: line N: expected ..., found ...}. */
public final class ExpositionException extends Exception {

  public ExpositionException(String message) {
    super(message);
  }
}
