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
import io.opentelemetry.context.Context;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
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

  /**
   * Every SLI and the burn-rate guard at once, each on its own thread: one measurement then takes
   * as long as its slowest query, not the sum of them, so a slow Prometheus keeps the schedule.
   */
  @Override
  public Measurement measure(Targets targets) throws InterruptedException {
    List<Future<Reading>> slis = new ArrayList<>();
    Future<Reading> burn = null;
    try {
      for (Sli sli : experiment.steadyState().slis()) {
        slis.add(QUERIES.submit(() -> readSli(sli, targets)));
      }
      Optional<BurnRateGuard> guard = experiment.abort().burnRate();
      if (guard.isPresent()) {
        burn = QUERIES.submit(() -> readBurnRate(guard.get()));
      }
      List<Reading> readings = new ArrayList<>();
      for (Future<Reading> sli : slis) {
        readings.add(answer(sli));
      }
      Optional<Reading> burnReading = burn == null ? Optional.empty() : Optional.of(answer(burn));
      return new Measurement(clock.now(), readings, burnReading);
    } catch (InterruptedException e) {
      slis.forEach(sli -> sli.cancel(true));
      if (burn != null) {
        burn.cancel(true);
      }
      throw e;
    }
  }

  /**
   * Daemon threads, kept a minute between measurements: they never hold the JVM open. Each query
   * carries the drill thread's trace context, so its request is still the drill's span's child.
   */
  private static final ExecutorService QUERIES =
      Context.taskWrapping(
          new ThreadPoolExecutor(
              0,
              Integer.MAX_VALUE,
              60,
              TimeUnit.SECONDS,
              new SynchronousQueue<>(),
              runnable -> {
                Thread thread = new Thread(runnable, "firedrill-measure");
                thread.setDaemon(true);
                return thread;
              }));

  private static Reading answer(Future<Reading> reading) throws InterruptedException {
    try {
      return reading.get();
    } catch (ExecutionException e) {
      Throwable cause = e.getCause();
      if (cause instanceof RuntimeException runtime) {
        throw runtime;
      }
      if (cause instanceof Error error) {
        throw error;
      }
      throw new IllegalStateException(cause);
    }
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
