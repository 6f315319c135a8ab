package dev.firedrill.engine;

import dev.firedrill.time.Durations;
import java.time.Duration;

/** One line of what happened, as it happened. */
public record DrillEvent(Duration offset, Phase phase, String text) {

  /** {@code +12.0s during ok: error_ratio 0.001 <= 0.005} */
  public String line() {
    return "+" + Durations.seconds(offset) + " " + phase.text() + " " + text;
  }
}
