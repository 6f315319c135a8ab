package dev.firedrill.experiment;

import java.time.Duration;
import java.util.List;
import java.util.Objects;

/** The SLIs measured every interval, before, during and after the faults. */
public record SteadyState(Duration interval, List<Sli> slis) {

  public static final Duration DEFAULT_INTERVAL = Duration.ofSeconds(5);

  public SteadyState {
    interval = interval == null ? DEFAULT_INTERVAL : interval;
    slis = List.copyOf(Objects.requireNonNull(slis, "slis"));
  }

  public Sli sli(String name) {
    return slis.stream().filter(s -> s.name().equals(name)).findFirst().orElse(null);
  }
}
