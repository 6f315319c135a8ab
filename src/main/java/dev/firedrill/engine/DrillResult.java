package dev.firedrill.engine;

import java.util.List;

/** How a drill ended. {@code manualCommands} lists what a human must run when a rollback failed. */
public record DrillResult(Verdict verdict, String reason, boolean rollbackOk, List<String> manualCommands, Journal journal) {

  public DrillResult {
    manualCommands = List.copyOf(manualCommands);
  }
}
