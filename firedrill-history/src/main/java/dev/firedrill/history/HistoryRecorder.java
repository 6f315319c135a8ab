package dev.firedrill.history;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;
import java.util.Optional;

/**
 * Appends a finished drill's detection rows to the history. By then the faults are rolled back and
 * the verdict decided, so a store that fails is a warning line, never a failed drill.
 */
public final class HistoryRecorder {

  /** The line to print, and whether it is a warning. */
  public record Outcome(String line, boolean warning) {}

  private HistoryRecorder() {}

  /** Empty when the drill watched no alerts. */
  public static Optional<Outcome> record(
      StoreLocation location, JsonNode journal, String journalPath) {
    try {
      List<DetectionRecord> records = JournalRows.of(journal, journalPath);
      if (records.isEmpty()) {
        return Optional.empty();
      }
      try (HistoryStore store = HistoryStore.open(location)) {
        store.append(records);
      }
      return Optional.of(
          new Outcome(
              "detection history: "
                  + records.size()
                  + " alert"
                  + (records.size() == 1 ? "" : "s")
                  + " recorded in "
                  + location.name(),
              false));
    } catch (HistoryException e) {
      return Optional.of(warning(e.getMessage()));
    } catch (RuntimeException | LinkageError e) {
      // A driver that breaks in its own way (a native library that will not load) must not fail a
      // finished drill.
      return Optional.of(
          warning(
              "cannot record in the detection history "
                  + location.name()
                  + ": "
                  + location.redact(String.valueOf(e.getMessage()))));
    }
  }

  private static Outcome warning(String message) {
    return new Outcome("firedrill: warning: " + message + " (the drill's verdict stands)", true);
  }
}
