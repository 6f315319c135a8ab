package dev.firedrill.experiment;

import java.nio.file.Path;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/** The conditions that stop the method early. */
public record Abort(
    List<AbortRule> rules,
    Optional<BurnRateGuard> burnRate,
    int probeErrors,
    Optional<Path> abortFile) {

  public static final int DEFAULT_PROBE_ERRORS = 3;

  public Abort {
    rules = List.copyOf(Objects.requireNonNull(rules, "rules"));
    burnRate = burnRate == null ? Optional.empty() : burnRate;
    abortFile = abortFile == null ? Optional.empty() : abortFile;
    if (probeErrors < 1) {
      throw new IllegalArgumentException("probeErrors must be at least 1");
    }
  }
}
