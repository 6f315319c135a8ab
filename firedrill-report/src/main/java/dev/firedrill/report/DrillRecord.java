package dev.firedrill.report;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;

/**
 * What a report needs from one journal, read once and typed. Times are instants; {@link #seconds}
 * turns one into seconds since the drill started, the x axis of every chart.
 */
public record DrillRecord(
    Experiment experiment,
    Instant startedAt,
    Optional<Instant> injectedAt,
    Optional<Instant> abortedAt,
    Optional<String> abortReason,
    Optional<Instant> rollbackAt,
    Optional<Instant> rollbackDoneAt,
    Optional<Instant> recoveredAt,
    OptionalDouble recoverySeconds,
    Optional<Instant> finishedAt,
    String verdict,
    String reason,
    boolean rollbackOk,
    List<Sample> samples,
    List<Fault> faults,
    Optional<String> budgetText,
    Optional<Detection> detection,
    List<Event> events,
    boolean simulated) {

  /** What every report says first of a journal {@code firedrill simulate} wrote. */
  public static final String SIMULATED =
      "Simulated: a prediction by firedrill simulate on a model of the lab, not a drill that ran;"
          + " its times are the model's clock.";

  /** The verdict a journal carries when its drill never reached one (killed, or still running). */
  public static final String UNFINISHED = "unfinished";

  public DrillRecord {
    samples = List.copyOf(samples);
    faults = List.copyOf(faults);
    events = List.copyOf(events);
  }

  public double seconds(Instant at) {
    return Duration.between(startedAt, at).toMillis() / 1000.0;
  }

  /** The experiment as the journal describes it. */
  public record Experiment(
      String id,
      String title,
      String owner,
      String hypothesis,
      String file,
      Duration duration,
      Duration interval,
      Duration recovery,
      List<Sli> slis,
      Optional<BurnRate> burnRate) {
    public Experiment {
      slis = List.copyOf(slis);
    }
  }

  /** An SLI; {@code control} is its control group's query, for an SLI that has one. */
  public record Sli(String name, String query, Range range, Optional<String> control) {}

  public record BurnRate(double objective, Duration window, String errorRatioQuery, double max) {}

  /** One measurement: every SLI reading and the burn-rate guard's, if any. */
  public record Sample(Instant at, String phase, String status, List<Value> values) {
    public Sample {
      values = List.copyOf(values);
    }

    public Optional<Value> value(String name) {
      return values.stream().filter(v -> v.name().equals(name)).findFirst();
    }
  }

  /**
   * A reading; {@code value} is absent for no-data and error, and for a non-finite number; {@code
   * control} is the control group's value at the same instant, for an SLI with a control group.
   */
  public record Value(
      String name,
      String status,
      OptionalDouble value,
      String expectation,
      OptionalDouble control) {}

  public record Fault(
      String kind,
      Optional<Instant> injectedAt,
      Optional<Instant> revertedAt,
      boolean reverted,
      String revertDetail,
      Optional<String> manualCommand) {}

  public record Event(Instant at, String phase, String text) {}

  public record Detection(String verdict, String reason, List<Alert> alerts) {
    public Detection {
      alerts = List.copyOf(alerts);
    }
  }

  /**
   * One expected alert's row. Times are seconds after injection; {@code pendingS} is the rule's
   * activeAt, which the journal keeps only in the detect event that first saw the alert.
   */
  public record Alert(
      String alert,
      Map<String, String> matchers,
      String expect,
      double withinS,
      boolean fired,
      OptionalDouble pendingS,
      OptionalDouble timeToDetectS,
      String detectSource,
      OptionalDouble floorS,
      String floorReason,
      OptionalDouble timeToNotifyS,
      String receiver,
      String receiverDetail,
      String runbook,
      String runbookDetail,
      String dashboard,
      boolean held,
      boolean unknown,
      String reason) {

    public Alert {
      matchers = Map.copyOf(matchers);
    }

    /** {@code Name{label="value"}}, as the console and the detection table print it. */
    public String describe() {
      return dev.firedrill.experiment.AlertExpectation.describe(alert, matchers);
    }

    public boolean expectsFiring() {
      return "firing".equals(expect);
    }

    /** Seconds after injection that the notification arrived: startsAt plus the time to notify. */
    public OptionalDouble notifiedS() {
      return timeToDetectS.isPresent() && timeToNotifyS.isPresent()
          ? OptionalDouble.of(timeToDetectS.getAsDouble() + timeToNotifyS.getAsDouble())
          : OptionalDouble.empty();
    }

    /** Why this row failed, as one word for JUnit's failure type; empty when it held. */
    /** {@code held}, {@code unknown} (the stack could not be read) or {@code FAILED}. */
    public String result() {
      return held ? "held" : unknown ? "unknown" : "FAILED";
    }

    public Optional<String> failureKind() {
      if (held) {
        return Optional.empty();
      }
      if (unknown) {
        return Optional.of("unknown");
      }
      if (!expectsFiring()) {
        return Optional.of("fired");
      }
      if (!fired) {
        return Optional.of("missed");
      }
      if (timeToDetectS.isPresent() && timeToDetectS.getAsDouble() > withinS) {
        return Optional.of("late");
      }
      if ("NO".equals(receiver)) {
        return Optional.of("misrouted");
      }
      return Optional.of("wrong-link");
    }
  }
}
