package dev.firedrill.alerting;

import dev.firedrill.time.Durations;
import java.time.Duration;

/**
 * The earliest an alert can fire after a fault starts, assuming the fault fails every request at
 * once, and the term of it that dominates, so a slow alert says why it is slow.
 */
public record Floor(Duration value, String reason) {

  public String text() {
    return Durations.seconds(value) + " (" + reason + ")";
  }
}
