package dev.firedrill.marker.metrics;

/** firedrill's metrics endpoint cannot listen where the experiment says. */
public final class MetricsEndpointException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  private final String reason;

  MetricsEndpointException(String address, String reason, Throwable cause) {
    super("cannot listen on " + address + " (" + reason + ")", cause);
    this.reason = reason;
  }

  /** Why, as the operating system put it: {@code Address already in use}. */
  public String reason() {
    return reason;
  }
}
