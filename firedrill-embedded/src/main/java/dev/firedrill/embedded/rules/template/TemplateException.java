package dev.firedrill.embedded.rules.template;

/**
 * A template that does not parse or fails while executing, worded as Go's text/template words it.
 */
public final class TemplateException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  public TemplateException(String message) {
    super(message, null, false, false);
  }
}
