package dev.firedrill.embedded.rules;

import java.time.Instant;
import java.util.Optional;

/**
 * Health, lastError and the last evaluation's start and duration, as the rules API reports them.
 */
final class RuleStatus {

  private Health health = Health.UNKNOWN;
  private String lastError = "";
  private long lastEvaluationMs = Long.MIN_VALUE;
  private long durationNanos;

  synchronized void set(long startedMs, long nanos, String error) {
    health = error == null ? Health.OK : Health.ERR;
    lastError = error == null ? "" : error;
    lastEvaluationMs = startedMs;
    durationNanos = nanos;
  }

  synchronized Health health() {
    return health;
  }

  synchronized String lastError() {
    return lastError;
  }

  synchronized Optional<Instant> lastEvaluation() {
    return lastEvaluationMs == Long.MIN_VALUE
        ? Optional.empty()
        : Optional.of(Instant.ofEpochMilli(lastEvaluationMs));
  }

  synchronized double evaluationSeconds() {
    return durationNanos / 1e9;
  }
}
