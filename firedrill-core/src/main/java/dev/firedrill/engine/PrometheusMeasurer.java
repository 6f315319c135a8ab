package dev.firedrill.engine;

import dev.firedrill.experiment.BurnRateGuard;
import dev.firedrill.experiment.Experiment;
import dev.firedrill.experiment.Numbers;
import dev.firedrill.experiment.Sli;
import dev.firedrill.experiment.Targets;
import dev.firedrill.guard.Measurement;
import dev.firedrill.guard.Reading;
import dev.firedrill.prometheus.Labels;
import dev.firedrill.prometheus.PrometheusClient;
import dev.firedrill.prometheus.PrometheusException;
import dev.firedrill.prometheus.QueryResult;
import dev.firedrill.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.stream.Collectors;

/** Measures an experiment's SLIs and burn-rate guard with instant queries against Prometheus. */
public final class PrometheusMeasurer implements Measurer {

  private final PrometheusClient client;
  private final Experiment experiment;
  private final Clock clock;

  public PrometheusMeasurer(PrometheusClient client, Experiment experiment, Clock clock) {
    this.client = client;
    this.experiment = experiment;
    this.clock = clock;
  }

  @Override
  public Measurement measure(Targets targets) throws InterruptedException {
    List<Reading> readings = new ArrayList<>();
    for (Sli sli : experiment.steadyState().slis()) {
      readings.add(readSli(sli, targets));
    }
    Optional<Reading> burn = experiment.abort().burnRate().map(this::readBurnRate);
    if (Thread.currentThread().isInterrupted()) {
      throw new InterruptedException("interrupted while measuring");
    }
    return new Measurement(clock.now(), readings, burn);
  }

  @Override
  public Optional<Reading> remainingBudget() {
    return experiment
        .abort()
        .burnRate()
        .flatMap(
            guard ->
                guard
                    .remainingBudget()
                    .map(
                        query ->
                            read(
                                "remaining_budget",
                                query,
                                "0..1",
                                share -> share >= 0 && share <= 1,
                                "",
                                1)));
  }

  private Reading readBurnRate(BurnRateGuard guard) {
    String expectation = "<= " + Numbers.format(guard.max());
    String context =
        "error ratio %s against an objective of " + Numbers.format(guard.objective() * 100) + "%%";
    return read(
        "burn_rate",
        guard.errorRatioQuery(),
        expectation,
        burn -> burn <= guard.max(),
        context,
        1 / (1 - guard.objective()));
  }

  /**
   * The SLI's query and, for an SLI with a control group, the control's query right after it: one
   * reading holding both values, in bounds only when both are.
   */
  private Reading readSli(Sli sli, Targets targets) {
    String query = targets.resolve(sli.query());
    if (sli.control().isEmpty()) {
      return read(sli.name(), query, sli.rangeText(), sli::within, "", 1);
    }
    Reading own = read(sli.name(), query, sli.rangeText(), value -> true, "", 1);
    if (own.value().isEmpty()) {
      return own;
    }
    String controlQuery = targets.resolve(sli.control().get().query());
    Reading control = read(sli.name(), controlQuery, sli.rangeText(), value -> true, "", 1);
    if (control.value().isEmpty()) {
      return new Reading(
          sli.name(),
          control.status(),
          OptionalDouble.empty(),
          sli.rangeText(),
          "control: " + control.detail());
    }
    double value = own.value().getAsDouble();
    double controlValue = control.value().getAsDouble();
    if (sli.control().get().hasRatio() && controlValue == 0) {
      return Reading.noData(
          sli.name(),
          sli.rangeText(),
          "control is 0 for " + controlQuery + ", no ratio to hold to its bounds");
    }
    OptionalDouble controlReading = OptionalDouble.of(controlValue);
    return new Reading(
        sli.name(),
        sli.within(value, controlReading) ? Reading.Status.OK : Reading.Status.BREACH,
        OptionalDouble.of(value),
        sli.rangeText(),
        "",
        controlReading);
  }

  private interface Range {
    boolean within(double value);
  }

  /** One query, one reading; {@code scale} turns the query's value into the reading's value. */
  private Reading read(
      String name,
      String query,
      String expectation,
      Range range,
      String detailFormat,
      double scale) {
    QueryResult result;
    try {
      result = client.query(query);
    } catch (PrometheusException e) {
      return Reading.error(name, expectation, e.getMessage());
    }
    OptionalDouble raw;
    try {
      raw = singleValue(result);
    } catch (IllegalStateException e) {
      return Reading.error(name, expectation, e.getMessage());
    }
    if (raw.isEmpty()) {
      return Reading.noData(name, expectation, "empty result for " + query);
    }
    double value = raw.getAsDouble();
    if (Double.isNaN(value)) {
      return Reading.noData(name, expectation, "NaN for " + query + ", nothing to divide by");
    }
    double scaled = value * scale;
    String detail =
        detailFormat.isEmpty() ? "" : String.format(detailFormat, Numbers.format(value));
    return new Reading(
        name,
        range.within(scaled) ? Reading.Status.OK : Reading.Status.BREACH,
        OptionalDouble.of(scaled),
        expectation,
        detail);
  }

  /** One sample or a scalar: none is no data, several is an error naming the label sets. */
  static OptionalDouble singleValue(QueryResult result) {
    if (result instanceof QueryResult.Scalar scalar) {
      return OptionalDouble.of(scalar.value());
    }
    if (result instanceof QueryResult.Vector vector) {
      if (vector.samples().isEmpty()) {
        return OptionalDouble.empty();
      }
      if (vector.samples().size() > 1) {
        throw new IllegalStateException(
            "expected one sample or a scalar, got "
                + vector.samples().size()
                + " series: "
                + vector.samples().stream()
                    .map(s -> Labels.format(s.labels()))
                    .collect(Collectors.joining(", "))
                + "; aggregate them, for example with sum()");
      }
      return OptionalDouble.of(vector.samples().get(0).value());
    }
    String kind = result instanceof QueryResult.Matrix ? "a range vector" : "a string";
    throw new IllegalStateException("expected one sample or a scalar, got " + kind);
  }
}
