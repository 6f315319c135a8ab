package dev.firedrill.alerting;

import dev.firedrill.experiment.AlertExpectation;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * One expected alert's measurement: whether it fired, its time to detect (the firing alert's {@code
 * startsAt} minus the injection) beside its floor, its time to notify (webhook arrival minus {@code
 * startsAt}), and whether its routing and links were right. {@code receivers}: where the alert was
 * routed (the webhook's receiver, else Alertmanager's), empty when unseen. {@code held} with its
 * reason. {@code warnings}: what may explain a missing notification without failing the row, such
 * as a webhook Alertmanager cut short ({@code truncatedAlerts}). {@code unknown}: not held only
 * because the stack could not be read (whether it fired, or where it was routed, is not known);
 * nothing that was seen was wrong.
 */
public record DetectionRow(
    AlertExpectation expectation,
    boolean fired,
    Optional<Duration> timeToDetect,
    String detectSource,
    Optional<Floor> floor,
    Optional<Duration> timeToNotify,
    Check receiver,
    List<String> receivers,
    Check runbook,
    Check dashboard,
    boolean held,
    String reason,
    List<String> warnings,
    boolean unknown) {

  public DetectionRow {
    receivers = List.copyOf(receivers);
    warnings = List.copyOf(warnings);
    if (held && unknown) {
      throw new IllegalArgumentException("a held row is measured, not unknown");
    }
  }

  /** A comparison of what the alert carried with what the experiment expected. */
  public record Check(Status status, String detail) {
    public enum Status {
      RIGHT("yes"),
      WRONG("NO"),
      UNCHECKED("-");

      private final String text;

      Status(String text) {
        this.text = text;
      }

      public String text() {
        return text;
      }
    }

    public static Check unchecked(String detail) {
      return new Check(Status.UNCHECKED, detail);
    }

    public boolean wrong() {
      return status == Status.WRONG;
    }
  }
}
