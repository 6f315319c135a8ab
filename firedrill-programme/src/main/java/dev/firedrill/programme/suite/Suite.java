package dev.firedrill.programme.suite;

import dev.firedrill.experiment.Experiment;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * A checked suite: its drills in the order they run, each experiment with the suite's defaults
 * merged in, and the longest wait between two drills.
 */
public record Suite(String id, Path file, Duration cooldown, List<Entry> entries) {

  public Suite {
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(file, "file");
    if (cooldown.isNegative()) {
      throw new IllegalArgumentException("cooldown must not be negative");
    }
    entries = List.copyOf(entries);
    if (entries.isEmpty()) {
      throw new IllegalArgumentException("a suite needs at least one experiment");
    }
  }

  /** One drill of the suite: the experiment file and what it reads as. */
  public record Entry(Path file, Experiment experiment) {
    public Entry {
      Objects.requireNonNull(file, "file");
      Objects.requireNonNull(experiment, "experiment");
    }
  }
}
