package dev.firedrill.programme.coverage;

import dev.firedrill.alerting.Floor;
import dev.firedrill.experiment.AlertExpectation;
import dev.firedrill.experiment.Experiment;
import dev.firedrill.history.DetectionRecord;
import dev.firedrill.history.RegressionCheck;
import dev.firedrill.history.Tolerance;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/**
 * Which alerts have a drill and how their last one went: a row per alerting rule, from the rules,
 * the experiments that expect each alert to fire, and the detection history.
 */
public final class Coverage {

  public enum Status {
    NEVER("never drilled"),
    STALE("stale"),
    REGRESSED("regressed"),
    OK("ok");

    private final String text;

    Status(String text) {
      this.text = text;
    }

    public String text() {
      return text;
    }
  }

  /**
   * One alert. The {@code last*} fields are its latest drill's (runs of {@code simulate} and
   * expectations to stay silent left out); {@code detail} says why it is stale or regressed.
   */
  public record Row(
      String alert,
      List<String> drilledBy,
      Optional<Instant> lastRun,
      Optional<Duration> lastTimeToDetect,
      Floor floor,
      Optional<Duration> lastTimeToNotify,
      String lastRouting,
      Status status,
      boolean silentWithoutData,
      String detail) {
    public Row {
      drilledBy = List.copyOf(drilledBy);
    }
  }

  /** The rows, and the share of alerts drilled within the maximum age. */
  public record Report(List<Row> rows, Duration maxAge) {
    public Report {
      rows = List.copyOf(rows);
    }

    /** Drilled within the maximum age, whether or not the last drill held. */
    public long drilled() {
      return rows.stream()
          .filter(r -> r.status() == Status.OK || r.status() == Status.REGRESSED)
          .count();
    }

    public long count(Status status) {
      return rows.stream().filter(r -> r.status() == status).count();
    }

    /** The drilled share in percent; 0 without alerts. */
    public double percent() {
      return rows.isEmpty() ? 0 : 100.0 * drilled() / rows.size();
    }

    /**
     * "34 of 52 alerts drilled in the last 90 days (65%); 12 never; 3 regressed"; the percentage
     * rounds down, so it never shows a pass that {@code --fail-under} refuses.
     */
    public String summary() {
      return drilled()
          + " of "
          + rows.size()
          + " alerts drilled in the last "
          + age(maxAge)
          + " ("
          + (long) Math.floor(percent())
          + "%); "
          + count(Status.NEVER)
          + " never; "
          + count(Status.REGRESSED)
          + " regressed";
    }
  }

  /** "90 days", or the duration as written when it is not whole days. */
  private static String age(Duration maxAge) {
    long days = maxAge.toDays();
    return days > 0 && maxAge.equals(Duration.ofDays(days))
        ? days + (days == 1 ? " day" : " days")
        : dev.firedrill.time.Durations.format(maxAge);
  }

  private Coverage() {}

  public static Report of(
      List<RuleSet.Alert> alerts,
      List<Experiment> experiments,
      List<DetectionRecord> history,
      Instant now,
      Duration maxAge,
      Tolerance tolerance) {
    List<Row> rows = new ArrayList<>();
    for (RuleSet.Alert alert : alerts) {
      List<String> drilledBy =
          experiments.stream()
              .filter(
                  e ->
                      e.hypothesis().alerts().stream()
                          .anyMatch(
                              a ->
                                  a.alert().equals(alert.name())
                                      && a.expect() == AlertExpectation.Expect.FIRING))
              .map(Experiment::id)
              .distinct()
              .toList();
      List<DetectionRecord> runs =
          history.stream()
              .filter(r -> !r.simulated() && r.expectedToFire() && r.alert().equals(alert.name()))
              .sorted(Comparator.comparing(DetectionRecord::runAt))
              .toList();
      if (runs.isEmpty()) {
        rows.add(
            new Row(
                alert.name(),
                drilledBy,
                Optional.empty(),
                Optional.empty(),
                alert.floor(),
                Optional.empty(),
                "",
                Status.NEVER,
                alert.silentWithoutData(),
                drilledBy.isEmpty()
                    ? "no experiment expects it to fire"
                    : "no run in the history"));
        continue;
      }
      DetectionRecord last = runs.get(runs.size() - 1);
      Status status;
      String detail;
      Duration age = Duration.between(last.runAt(), now);
      List<String> regressions =
          RegressionCheck.check(runs, tolerance).regressions().stream()
              .map(dev.firedrill.history.Regression::line)
              .toList();
      if (age.compareTo(maxAge) > 0) {
        status = Status.STALE;
        detail = "last drilled " + age.toDays() + " days ago";
      } else if (!regressions.isEmpty()) {
        status = Status.REGRESSED;
        detail = String.join("; ", regressions);
      } else if (!last.held()) {
        status = Status.REGRESSED;
        detail = "its last drill failed (" + last.experiment() + ", " + last.runId() + ")";
      } else {
        status = Status.OK;
        detail = "";
      }
      rows.add(
          new Row(
              alert.name(),
              drilledBy,
              Optional.of(last.runAt()),
              last.timeToDetect(),
              alert.floor(),
              last.timeToNotify(),
              last.routing(),
              status,
              alert.silentWithoutData(),
              detail));
    }
    return new Report(rows, maxAge);
  }
}
