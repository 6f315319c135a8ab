package dev.firedrill.history;

import com.fasterxml.jackson.databind.JsonNode;
import dev.firedrill.experiment.AlertExpectation;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A journal's detection rows as history records. A run is named by its experiment and start time,
 * so importing a journal twice, or importing one that {@code run} already recorded, adds nothing.
 */
public final class JournalRows {

  private JournalRows() {}

  /** Whether {@code firedrill simulate} wrote the journal: a prediction, never a run. */
  public static boolean isSimulation(JsonNode journal) {
    return journal.has("simulation");
  }

  /**
   * No rows when the drill watched no alerts (or ended before it could), and none for an alert the
   * drill could not see (its row {@code unknown}). A simulation's rows are marked in their run id,
   * so the history never shows a prediction as a run.
   */
  public static List<DetectionRecord> of(JsonNode journal, String journalPath)
      throws HistoryException {
    if (!journal.path("firedrill_journal").canConvertToInt()) {
      throw new HistoryException(
          journalPath + ": not a firedrill journal (expected a firedrill_journal field)");
    }
    String experiment = text(journal, "/experiment/id", journalPath);
    String startedAt = text(journal, "/started_at", journalPath);
    Instant runAt =
        instant(
            journal.hasNonNull("injected_at") ? journal.get("injected_at").asText() : startedAt,
            journalPath);
    String runId =
        experiment + "@" + startedAt + (isSimulation(journal) ? DetectionRecord.SIMULATED : "");
    String verdict = journal.path("verdict").asText("unfinished");
    List<DetectionRecord> records = new ArrayList<>();
    for (JsonNode row : journal.path("detection").path("alerts")) {
      if (row.path("unknown").asBoolean(false)) {
        // The drill could not read the stack for this alert: no datum of its history. Kept as
        // "did not fire", it would show as an alert that stopped firing.
        continue;
      }
      String alert = row.path("alert").asText("");
      if (alert.isEmpty()) {
        throw new HistoryException(
            journalPath + ": /detection/alerts: a row without an alert name");
      }
      Map<String, String> matchers = new LinkedHashMap<>();
      row.path("matchers")
          .properties()
          .iterator()
          .forEachRemaining(m -> matchers.put(m.getKey(), m.getValue().asText()));
      String key =
          new AlertExpectation(alert, matchers, null, Duration.ZERO, null, null, null, false)
              .describe();
      List<String> receivers = new ArrayList<>();
      row.path("receivers").forEach(r -> receivers.add(r.asText()));
      records.add(
          new DetectionRecord(
              runId,
              runAt,
              experiment,
              alert,
              key,
              row.path("expect").asText(DetectionRecord.EXPECT_FIRING),
              row.path("fired").asBoolean(false),
              seconds(row, "time_to_detect_s"),
              seconds(row, "time_to_notify_s"),
              receivers,
              Optional.ofNullable(row.path("receiver_expected").textValue()),
              row.path("receiver").asText("-"),
              row.path("held").asBoolean(false),
              verdict,
              journalPath));
    }
    return records;
  }

  private static Optional<Duration> seconds(JsonNode row, String field) {
    JsonNode value = row.get(field);
    return value == null || !value.isNumber()
        ? Optional.empty()
        : Optional.of(Duration.ofMillis(Math.round(value.asDouble() * 1000)));
  }

  private static String text(JsonNode journal, String pointer, String journalPath)
      throws HistoryException {
    String value = journal.at(pointer).asText("");
    if (value.isEmpty()) {
      throw new HistoryException(
          journalPath + ": " + pointer + ": missing; a firedrill journal has it");
    }
    return value;
  }

  private static Instant instant(String text, String journalPath) throws HistoryException {
    try {
      return Instant.parse(text);
    } catch (DateTimeParseException e) {
      throw new HistoryException(
          journalPath + ": \"" + text + "\" is not a time (expected RFC 3339 in UTC)");
    }
  }
}
