package dev.firedrill.marker.metrics;

import dev.firedrill.engine.Drill;
import dev.firedrill.engine.DrillObserver;
import dev.firedrill.engine.DrillPorts;
import dev.firedrill.engine.DrillResult;
import dev.firedrill.engine.FaultProvider;
import dev.firedrill.engine.Measurer;
import dev.firedrill.experiment.Abort;
import dev.firedrill.experiment.AbortRule;
import dev.firedrill.experiment.BlastRadius;
import dev.firedrill.experiment.Experiment;
import dev.firedrill.experiment.FaultSpec;
import dev.firedrill.experiment.Hypothesis;
import dev.firedrill.experiment.Method;
import dev.firedrill.experiment.Missing;
import dev.firedrill.experiment.PrometheusSource;
import dev.firedrill.experiment.Sli;
import dev.firedrill.experiment.SteadyState;
import dev.firedrill.experiment.TokenSource;
import dev.firedrill.fault.Fault;
import dev.firedrill.fault.FaultException;
import dev.firedrill.fault.Verification;
import dev.firedrill.guard.Measurement;
import dev.firedrill.guard.Reading;
import dev.firedrill.time.Clock;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.prometheus.metrics.model.snapshots.GaugeSnapshot;
import io.prometheus.metrics.model.snapshots.MetricSnapshot;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.function.DoubleFunction;

/**
 * Drills for the metrics tests through the real engine: switch faults (a flag, no side effects)
 * on the proxy {@code payments} as {@code http-latency}, and an error ratio scripted over the
 * seconds since the drill began.
 */
final class TestDrill {

  /** Seconds since start -> error ratio; null is an empty query result. */
  DoubleFunction<Double> errorRatio = t -> 0.001;
  final List<SwitchFault> faults = new ArrayList<>();
  private final Clock clock;
  private Instant start;

  TestDrill(Clock clock) {
    this.clock = clock;
  }

  static final FaultSpec LATENCY = new FaultSpec.HttpToxic(URI.create("http://127.0.0.1:9"), "payments", 1,
      new FaultSpec.HttpToxic.Latency(Duration.ofMillis(50), Duration.ZERO), Optional.of(Duration.ofMinutes(2)),
      Optional.empty());

  SwitchFault fault() {
    SwitchFault fault = new SwitchFault();
    faults.add(fault);
    return fault;
  }

  /** error_ratio <= 0.01, abort above 0.05 at once, one fault per switch. */
  Experiment experiment(String id, Duration interval, Duration duration, Duration recovery) {
    List<FaultSpec> specs = faults.stream().map(f -> LATENCY).toList();
    return new Experiment(id, "Metrics drill", "sre",
        new PrometheusSource(URI.create("http://127.0.0.1:9090"), null, TokenSource.none()),
        new SteadyState(interval, List.of(new Sli("error_ratio", "errors / requests", OptionalDouble.empty(),
            OptionalDouble.of(0.01), Missing.FAIL))),
        new Hypothesis("errors stay under 1%", recovery),
        new Method(duration, specs),
        new Abort(List.of(new AbortRule("error_ratio", AbortRule.Direction.ABOVE, 0.05, 1)), Optional.empty(), 3,
            Optional.empty()),
        new BlastRadius(0.05, Duration.ofMinutes(15), 0.05, 1, 1));
  }

  DrillResult run(Experiment experiment, DrillObserver observer) {
    start = clock.now();
    Measurer measurer = () -> {
      double t = Duration.between(start, clock.now()).toMillis() / 1000.0;
      Double ratio = errorRatio.apply(t);
      Reading reading = ratio == null ? Reading.noData("error_ratio", "<= 0.01", "empty result")
          : Reading.of("error_ratio", ratio, ratio <= 0.01, "<= 0.01");
      return new Measurement(clock.now(), List.of(reading), Optional.empty());
    };
    FaultProvider provider = new FaultProvider() {
      private int next;

      @Override
      public Fault create(FaultSpec spec) {
        return faults.get(next++);
      }

      @Override
      public Fault restore(FaultSpec spec, Map<String, Object> state) {
        throw new UnsupportedOperationException("drills never restore");
      }
    };
    DrillPorts ports = new DrillPorts(measurer, provider, null, clock, Optional.empty()).withObserver(observer);
    return new Drill(experiment, "metrics-test.yaml", ports).run();
  }

  /** The value of the gauge series with exactly these labels, or empty when there is no such series. */
  static OptionalDouble value(PrometheusRegistry registry, String name, Map<String, String> labels) {
    for (MetricSnapshot snapshot : registry.scrape()) {
      if (snapshot.getMetadata().getPrometheusName().equals(name) && snapshot instanceof GaugeSnapshot gauge) {
        for (GaugeSnapshot.GaugeDataPointSnapshot point : gauge.getDataPoints()) {
          if (point.getLabels().size() == labels.size()
              && labels.entrySet().stream().allMatch(e -> e.getValue().equals(point.getLabels().get(e.getKey())))) {
            return OptionalDouble.of(point.getValue());
          }
        }
      }
    }
    return OptionalDouble.empty();
  }

  /** A fault that is a flag: on after inject, off after revert unless told to fail. */
  static final class SwitchFault implements Fault {
    volatile boolean applied;
    boolean failInject;
    int revertFailures;

    @Override
    public FaultSpec spec() {
      return LATENCY;
    }

    @Override
    public List<String> plan() {
      return List.of("switch on");
    }

    @Override
    public void inject() throws FaultException {
      if (failInject) {
        throw new FaultException("switch stuck");
      }
      applied = true;
    }

    @Override
    public void revert() throws FaultException {
      if (revertFailures > 0) {
        revertFailures--;
        throw new FaultException("switch refused to go off");
      }
      applied = false;
    }

    @Override
    public Verification verify() {
      return applied ? Verification.remaining("switch on") : Verification.reverted("switch off");
    }

    @Override
    public String manualRevertCommand() {
      return "switch off";
    }

    @Override
    public Map<String, Object> state() {
      return Map.of("applied", applied);
    }
  }
}
