package dev.firedrill.guard;

import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/** Every SLI and the burn-rate guard, read once. */
public record Measurement(Instant at, List<Reading> slis, Optional<Reading> burnRate) {

  public Measurement {
    Objects.requireNonNull(at, "at");
    slis = List.copyOf(slis);
    burnRate = burnRate == null ? Optional.empty() : burnRate;
  }

  public Optional<Reading> sli(String name) {
    return slis.stream().filter(r -> r.name().equals(name)).findFirst();
  }

  public Stream<Reading> readings() {
    return Stream.concat(slis.stream(), burnRate.stream());
  }

  /** Every reading ok: the system is inside its steady state. */
  public boolean withinSteadyState() {
    return readings().allMatch(r -> r.status() == Reading.Status.OK);
  }

  /** Some query failed outright (the backend, not the data). */
  public boolean hasProbeError() {
    return readings().anyMatch(r -> r.status() == Reading.Status.ERROR);
  }

  /** The worst status among the readings, in the order ok < no-data < error < breach. */
  public Reading.Status status() {
    return readings().map(Reading::status).max(Measurement::severity).orElse(Reading.Status.OK);
  }

  public String text() {
    return readings().map(Reading::text).collect(Collectors.joining(", "));
  }

  private static int severity(Reading.Status a, Reading.Status b) {
    return Integer.compare(rank(a), rank(b));
  }

  private static int rank(Reading.Status status) {
    return switch (status) {
      case OK -> 0;
      case NO_DATA -> 1;
      case ERROR -> 2;
      case BREACH -> 3;
    };
  }
}
