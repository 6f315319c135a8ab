package dev.firedrill.engine;

import dev.firedrill.experiment.Missing;
import dev.firedrill.experiment.SteadyState;
import dev.firedrill.guard.Measurement;
import dev.firedrill.guard.Reading;
import dev.firedrill.time.Durations;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/** The verdict table: a pure function of what the drill saw. */
public final class VerdictRules {

  /** Everything the verdict depends on, once the faults are rolled back and recovery has ended. */
  public record Evidence(
      Instant start,
      Optional<String> injectFailure,
      Optional<String> abortReason,
      List<Measurement> during,
      List<Measurement> after,
      Optional<Duration> recoveredAfter,
      Duration recoveryLimit,
      List<String> unrecovered) {

    public Evidence {
      during = List.copyOf(during);
      after = List.copyOf(after);
      unrecovered = List.copyOf(unrecovered);
    }

    /** Evidence from faults that all had something to undo, or whose targets all came back. */
    public Evidence(
        Instant start,
        Optional<String> injectFailure,
        Optional<String> abortReason,
        List<Measurement> during,
        List<Measurement> after,
        Optional<Duration> recoveredAfter,
        Duration recoveryLimit) {
      this(
          start,
          injectFailure,
          abortReason,
          during,
          after,
          recoveredAfter,
          recoveryLimit,
          List.of());
    }
  }

  public record Decision(Verdict verdict, String reason) {}

  private final SteadyState steadyState;

  public VerdictRules(SteadyState steadyState) {
    this.steadyState = steadyState;
  }

  /**
   * A fault whose targets did not come back (a deleted pod never replaced) broke the hypothesis
   * whatever the SLIs said: it turns a held or inconclusive verdict into deviated, and is named in
   * every other verdict's reason.
   */
  public Decision decide(Evidence evidence) {
    Decision decision = decideOnSlis(evidence);
    if (evidence.unrecovered().isEmpty()) {
      return decision;
    }
    String targets =
        "the fault's targets did not recover: " + String.join("; ", evidence.unrecovered());
    return decision.verdict() == Verdict.HELD || decision.verdict() == Verdict.INCONCLUSIVE
        ? new Decision(Verdict.DEVIATED, targets + "; " + decision.reason())
        : new Decision(decision.verdict(), decision.reason() + "; " + targets);
  }

  private Decision decideOnSlis(Evidence evidence) {
    String recovered = recoveredText(evidence);
    if (evidence.injectFailure().isPresent()) {
      return new Decision(
          Verdict.FAILED,
          "a fault could not be injected: " + evidence.injectFailure().get() + "; " + recovered);
    }
    if (evidence.abortReason().isPresent()) {
      return new Decision(Verdict.ABORTED, evidence.abortReason().get() + "; " + recovered);
    }
    Optional<Measurement> breach =
        evidence.during().stream()
            .filter(m -> m.readings().anyMatch(r -> r.status() == Reading.Status.BREACH))
            .findFirst();
    if (breach.isPresent()) {
      return new Decision(
          Verdict.DEVIATED,
          "hypothesis broken while the faults were on, first at "
              + offset(evidence, breach.get())
              + ": "
              + breach.get().text()
              + "; "
              + recovered);
    }
    Optional<Measurement> dark =
        evidence.during().stream().filter(m -> failingNoData(m).isPresent()).findFirst();
    if (dark.isPresent()) {
      return new Decision(
          Verdict.DEVIATED,
          failingNoData(dark.get()).get().name()
              + " had no data at "
              + offset(evidence, dark.get())
              + " and missing data is failure; "
              + recovered);
    }
    if (evidence.recoveredAfter().isEmpty()) {
      Optional<Measurement> lastAfter =
          evidence.after().isEmpty()
              ? Optional.empty()
              : Optional.of(evidence.after().get(evidence.after().size() - 1));
      if (lastAfter.isPresent()
          && lastAfter.get().readings().anyMatch(r -> r.status() == Reading.Status.BREACH)) {
        return new Decision(
            Verdict.DEVIATED,
            "the system did not return to steady state within "
                + Durations.format(evidence.recoveryLimit())
                + " of the rollback: "
                + lastAfter.get().text());
      }
      return new Decision(
          Verdict.INCONCLUSIVE,
          "no measurement after the rollback was fully within steady state"
              + lastAfter.map(m -> " (last: " + m.text() + ")").orElse(""));
    }
    if (evidence.during().isEmpty()) {
      return new Decision(
          Verdict.INCONCLUSIVE, "no measurement was taken while the faults were on; " + recovered);
    }
    long blind = evidence.during().stream().filter(m -> !m.withinSteadyState()).count();
    if (blind > 0) {
      return new Decision(
          Verdict.INCONCLUSIVE,
          blind
              + " of "
              + evidence.during().size()
              + " measurements while the faults were on had no data or errors; nothing broke, but nothing was proven either; "
              + recovered);
    }
    return new Decision(
        Verdict.HELD,
        evidence.during().size()
            + " measurement"
            + (evidence.during().size() == 1 ? "" : "s")
            + " while the faults were on within steady state; "
            + recovered);
  }

  /** A reading with no data whose SLI says missing data is failure. */
  private Optional<Reading> failingNoData(Measurement measurement) {
    return measurement.slis().stream()
        .filter(r -> r.status() == Reading.Status.NO_DATA)
        .filter(
            r ->
                steadyState.sli(r.name()) == null
                    || steadyState.sli(r.name()).missing() == Missing.FAIL)
        .findFirst();
  }

  private static String recoveredText(Evidence evidence) {
    return evidence
        .recoveredAfter()
        .map(d -> "recovered " + Durations.seconds(d) + " after the rollback")
        .orElse(
            "not back in steady state within "
                + Durations.format(evidence.recoveryLimit())
                + " of the rollback");
  }

  private static String offset(Evidence evidence, Measurement measurement) {
    return "+" + Durations.seconds(Duration.between(evidence.start(), measurement.at()));
  }
}
