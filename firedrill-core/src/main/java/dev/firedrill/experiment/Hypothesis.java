package dev.firedrill.experiment;

import java.time.Duration;
import java.util.List;

/**
 * What the drill expects: of the system, a description and how long it may take to return to steady
 * state; of the observability stack, the alerts the fault should fire or must not.
 */
public record Hypothesis(String description, Duration recovery, List<AlertExpectation> alerts) {

  public static final Duration DEFAULT_RECOVERY = Duration.ofMinutes(1);

  public Hypothesis {
    description = description == null ? "" : description;
    recovery = recovery == null ? DEFAULT_RECOVERY : recovery;
    alerts = List.copyOf(alerts == null ? List.of() : alerts);
  }

  public Hypothesis(String description, Duration recovery) {
    this(description, recovery, List.of());
  }
}
