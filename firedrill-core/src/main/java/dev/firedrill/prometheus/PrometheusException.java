package dev.firedrill.prometheus;

/** A query that failed. The message is one line and never contains a token or URL user-info. */
public class PrometheusException extends Exception {
  private static final long serialVersionUID = 1L;

  public PrometheusException(String message) {
    super(message);
  }

  public PrometheusException(String message, Throwable cause) {
    super(message, cause);
  }
}
