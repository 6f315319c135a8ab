package dev.firedrill.alerting;

/** A request to Alertmanager that failed. The message is one line, without token or user-info. */
public class AlertmanagerException extends Exception {
  private static final long serialVersionUID = 1L;

  public AlertmanagerException(String message) {
    super(message);
  }

  public AlertmanagerException(String message, Throwable cause) {
    super(message, cause);
  }
}
