package dev.firedrill.experiment;

import java.time.Duration;

/** What the drill expects, and how long the system may take to return to steady state. */
public record Hypothesis(String description, Duration recovery) {

  public static final Duration DEFAULT_RECOVERY = Duration.ofMinutes(1);

  public Hypothesis {
    description = description == null ? "" : description;
    recovery = recovery == null ? DEFAULT_RECOVERY : recovery;
  }
}
