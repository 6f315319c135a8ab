package dev.firedrill.guard;

import dev.firedrill.experiment.Abort;
import dev.firedrill.experiment.AbortRule;
import dev.firedrill.experiment.Missing;
import dev.firedrill.experiment.Numbers;
import dev.firedrill.experiment.SteadyState;
import java.util.List;
import java.util.Optional;

/**
 * The abort conditions that depend on measurements, as a pure function of the measurements taken
 * while the faults are on. The abort file and signals are checked by the engine between them.
 */
public final class AbortGuards {

  private final Abort abort;
  private final SteadyState steadyState;

  public AbortGuards(Abort abort, SteadyState steadyState) {
    this.abort = abort;
    this.steadyState = steadyState;
  }

  /** Decides on the latest measurement, looking back as far as the rules need. */
  public Optional<AbortDecision> check(List<Measurement> during) {
    if (during.isEmpty()) {
      return Optional.empty();
    }
    Measurement latest = during.get(during.size() - 1);
    return burnRate(latest)
        .or(() -> rules(during))
        .or(() -> missingGuardData(latest))
        .or(() -> probeErrors(during));
  }

  private Optional<AbortDecision> burnRate(Measurement latest) {
    return abort
        .burnRate()
        .flatMap(
            guard ->
                latest
                    .burnRate()
                    .flatMap(
                        reading -> {
                          if (reading.status() == Reading.Status.BREACH) {
                            return Optional.of(
                                new AbortDecision(
                                    "burn rate "
                                        + Numbers.format(reading.value().getAsDouble())
                                        + " above "
                                        + Numbers.format(guard.max())
                                        + " ("
                                        + reading.detail()
                                        + ")"));
                          }
                          if (reading.status() == Reading.Status.NO_DATA
                              && guard.missing() == Missing.FAIL) {
                            return Optional.of(
                                new AbortDecision(
                                    "burn-rate guard has no data ("
                                        + reading.detail()
                                        + "); missing data is failure unless abort.burn_rate.missing is inconclusive"));
                          }
                          return Optional.empty();
                        }));
  }

  private Optional<AbortDecision> rules(List<Measurement> during) {
    for (AbortRule rule : abort.rules()) {
      if (during.size() < rule.consecutive()) {
        continue;
      }
      List<Measurement> tail = during.subList(during.size() - rule.consecutive(), during.size());
      boolean breachedThroughout =
          tail.stream()
              .allMatch(
                  m ->
                      m.sli(rule.sli())
                          .filter(
                              r ->
                                  r.value().isPresent() && rule.breachedBy(r.value().getAsDouble()))
                          .isPresent());
      if (breachedThroughout) {
        double value =
            tail.get(tail.size() - 1).sli(rule.sli()).orElseThrow().value().getAsDouble();
        return Optional.of(
            new AbortDecision(
                rule.sli()
                    + " "
                    + Numbers.format(value)
                    + " "
                    + rule.direction().symbol()
                    + " "
                    + Numbers.format(rule.threshold())
                    + " in "
                    + rule.consecutive()
                    + " measurement"
                    + (rule.consecutive() == 1 ? "" : "s in a row")));
      }
    }
    return Optional.empty();
  }

  /** An SLI that an abort rule watches is a guard too: when it goes dark the drill is blind. */
  private Optional<AbortDecision> missingGuardData(Measurement latest) {
    return abort.rules().stream()
        .map(AbortRule::sli)
        .distinct()
        .filter(
            name ->
                steadyState.sli(name) != null && steadyState.sli(name).missing() == Missing.FAIL)
        .flatMap(name -> latest.sli(name).stream())
        .filter(r -> r.status() == Reading.Status.NO_DATA)
        .findFirst()
        .map(
            r ->
                new AbortDecision(
                    r.name()
                        + " has no data ("
                        + r.detail()
                        + "); an abort rule watches it and missing data is failure"));
  }

  private Optional<AbortDecision> probeErrors(List<Measurement> during) {
    int limit = abort.probeErrors();
    if (during.size() < limit) {
      return Optional.empty();
    }
    List<Measurement> tail = during.subList(during.size() - limit, during.size());
    if (!tail.stream().allMatch(Measurement::hasProbeError)) {
      return Optional.empty();
    }
    String last =
        tail.get(tail.size() - 1)
            .readings()
            .filter(r -> r.status() == Reading.Status.ERROR)
            .findFirst()
            .map(Reading::detail)
            .orElse("");
    return Optional.of(
        new AbortDecision(
            limit
                + " probe error"
                + (limit == 1 ? "" : "s in a row")
                + "; the drill cannot see the system: "
                + last));
  }
}
