package dev.firedrill.alerting;

/**
 * Where an expected alert stands in Prometheus: pending (its condition holds, its {@code for} has
 * not passed), firing, or resolved (it was pending or firing and Prometheus no longer lists it).
 */
public enum AlertState {
  PENDING("pending"),
  FIRING("firing"),
  RESOLVED("resolved");

  private final String text;

  AlertState(String text) {
    this.text = text;
  }

  public String text() {
    return text;
  }

  /** Pending or firing, as Prometheus's alerts API says. */
  static AlertState of(PromAlert alert) {
    return alert.firing() ? FIRING : PENDING;
  }
}
