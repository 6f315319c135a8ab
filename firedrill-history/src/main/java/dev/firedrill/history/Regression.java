package dev.firedrill.history;

/** One alert whose latest run is worse than its earlier ones: what regressed, with the figures. */
public record Regression(String alertKey, String experiment, Kind kind, String figures) {

  public enum Kind {
    STOPPED_FIRING("stopped firing"),
    MISROUTED("misrouted"),
    ROUTING_CHANGED("routing changed"),
    SLOWER("time to detect grew");

    private final String text;

    Kind(String text) {
      this.text = text;
    }

    public String text() {
      return text;
    }
  }

  /** {@code CheckoutOrdersPending in payments-outage: stopped firing: ...}. */
  public String line() {
    return alertKey + " in " + experiment + ": " + kind.text() + ": " + figures;
  }
}
