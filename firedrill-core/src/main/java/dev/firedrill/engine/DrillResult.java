package dev.firedrill.engine;

import dev.firedrill.alerting.ObservabilityResult;
import java.util.List;
import java.util.Optional;

/**
 * How a drill ended: the system verdict, and the observability one when the drill watched alerts.
 * {@code manualCommands} lists what a human must run when a rollback failed.
 */
public record DrillResult(
    Verdict verdict,
    String reason,
    boolean rollbackOk,
    List<String> manualCommands,
    Journal journal,
    Optional<ObservabilityResult> observability) {

  public DrillResult {
    manualCommands = List.copyOf(manualCommands);
    observability = observability == null ? Optional.empty() : observability;
  }
}
