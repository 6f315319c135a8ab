package dev.firedrill.experiment;

import java.time.Duration;
import java.util.List;
import java.util.Objects;

/** How long the faults stay on, and which. */
public record Method(Duration duration, List<FaultSpec> faults) {

  public Method {
    Objects.requireNonNull(duration, "duration");
    faults = List.copyOf(Objects.requireNonNull(faults, "faults"));
  }
}
