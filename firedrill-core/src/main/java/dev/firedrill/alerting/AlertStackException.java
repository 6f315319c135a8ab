package dev.firedrill.alerting;

/**
 * A part of the observability stack did not answer; the message is one line naming which and why.
 */
public class AlertStackException extends Exception {
  private static final long serialVersionUID = 1L;

  public AlertStackException(String message) {
    super(message);
  }

  public AlertStackException(String message, Throwable cause) {
    super(message, cause);
  }
}
