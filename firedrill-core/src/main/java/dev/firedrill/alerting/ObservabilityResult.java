package dev.firedrill.alerting;

import java.util.List;
import java.util.stream.Collectors;

/** The observability hypothesis's outcome, beside the system's: one row per expected alert. */
public record ObservabilityResult(Verdict verdict, String reason, List<DetectionRow> rows) {

  public enum Verdict {
    HELD("held"),
    DEVIATED("deviated"),
    INCONCLUSIVE("inconclusive");

    private final String text;

    Verdict(String text) {
      this.text = text;
    }

    public String text() {
      return text;
    }
  }

  public ObservabilityResult {
    rows = List.copyOf(rows);
  }

  /**
   * Deviated when a row failed on what was seen; inconclusive when every row that did not hold is
   * unknown because the stack could not be read.
   */
  public static ObservabilityResult of(List<DetectionRow> rows) {
    List<DetectionRow> failed = rows.stream().filter(r -> !r.held()).toList();
    if (failed.isEmpty()) {
      return new ObservabilityResult(
          Verdict.HELD,
          rows.size() + " expected alert" + (rows.size() == 1 ? "" : "s") + " behaved as expected",
          rows);
    }
    boolean blind = failed.stream().allMatch(DetectionRow::unknown);
    String reasons =
        failed.stream()
            .map(r -> r.expectation().describe() + ": " + r.reason())
            .collect(Collectors.joining("; "));
    return new ObservabilityResult(blind ? Verdict.INCONCLUSIVE : Verdict.DEVIATED, reasons, rows);
  }
}
