package dev.firedrill.history;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/** Hand-built history rows: one alert of one run. */
final class Rows {

  static final String ALERT = "CheckoutErrorBudgetBurn";
  static final String KEY = "CheckoutErrorBudgetBurn{service=\"checkout\"}";
  static final String EXPERIMENT = "payments-outage";

  private Rows() {}

  /** A firing expectation routed to team-checkout, run {@code day} days after 2026-01-01. */
  static DetectionRecord fired(int day, double detectSeconds) {
    return row(
        day, true, Optional.of(seconds(detectSeconds)), List.of("team-checkout"), "yes", true);
  }

  static DetectionRecord missed(int day) {
    return row(day, false, Optional.empty(), List.of(), "-", false);
  }

  static DetectionRecord routedTo(int day, String receiver, String routing) {
    return row(
        day, true, Optional.of(seconds(5)), List.of(receiver), routing, "yes".equals(routing));
  }

  static DetectionRecord row(
      int day,
      boolean fired,
      Optional<Duration> detect,
      List<String> receivers,
      String routing,
      boolean held) {
    Instant at = Instant.parse("2026-01-01T10:00:00Z").plus(Duration.ofDays(day));
    return new DetectionRecord(
        EXPERIMENT + "@" + at,
        at,
        EXPERIMENT,
        ALERT,
        KEY,
        "firing",
        fired,
        detect,
        fired ? Optional.of(Duration.ofMillis(1029)) : Optional.empty(),
        receivers,
        Optional.of("team-checkout"),
        routing,
        held,
        held ? "held" : "deviated",
        "/journals/" + EXPERIMENT + "-" + day + ".json");
  }

  static Duration seconds(double seconds) {
    return Duration.ofMillis(Math.round(seconds * 1000));
  }
}
