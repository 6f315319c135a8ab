package dev.firedrill.engine;

import dev.firedrill.experiment.Abort;
import dev.firedrill.experiment.AbortRule;
import dev.firedrill.experiment.BlastRadius;
import dev.firedrill.experiment.BurnRateGuard;
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
import dev.firedrill.guard.Measurement;
import dev.firedrill.guard.Reading;
import dev.firedrill.time.VirtualClock;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.function.Function;

/**
 * A virtual world for drills: a test clock, an error ratio scripted over the seconds since the
 * drill started, and fake faults that log what was done to them.
 */
final class ScriptedWorld {

  static final Instant START = Instant.parse("2026-11-29T10:00:00Z");

  final VirtualClock clock = new VirtualClock(START);
  final List<String> log = new ArrayList<>();
  final List<FakeFault> faults = new ArrayList<>();
  final List<DrillEvent> events = new ArrayList<>();
  final StopSignal.Flag flag = new StopSignal.Flag();
  final List<Milestone> milestones = new ArrayList<>();
  /** Seconds since start -> error ratio; null means the query returned nothing; NaN means the query failed. */
  Function<Double, Double> errorRatio = t -> 0.001;
  Function<Double, Double> burnErrorRatio = t -> errorRatio.apply(t);

  FakeFault fault(String name) {
    FakeFault fault = new FakeFault(name, log);
    faults.add(fault);
    return fault;
  }

  double seconds() {
    return Duration.between(START, clock.now()).toMillis() / 1000.0;
  }

  Measurer measurer(Experiment experiment) {
    return () -> {
      double t = seconds();
      List<Reading> readings = new ArrayList<>();
      for (Sli sli : experiment.steadyState().slis()) {
        readings.add(reading(sli.name(), errorRatio.apply(t), sli::within, sli.rangeText()));
      }
      Optional<Reading> burn = experiment.abort().burnRate().map(guard -> {
        Double ratio = burnErrorRatio.apply(t);
        Double scaled = ratio == null || ratio.isNaN() ? ratio : Double.valueOf(guard.burnRate(ratio));
        return reading("burn_rate", scaled, v -> v <= guard.max(), "<= " + dev.firedrill.experiment.Numbers.format(guard.max()));
      });
      log.add("measure at " + t);
      return new Measurement(clock.now(), readings, burn);
    };
  }

  private static Reading reading(String name, Double value, java.util.function.DoublePredicate within, String range) {
    if (value == null) {
      return Reading.noData(name, range, "empty result");
    }
    if (value.isNaN()) {
      return Reading.error(name, range, "Prometheus at http://127.0.0.1:9 is unreachable");
    }
    return new Reading(name, within.test(value) ? Reading.Status.OK : Reading.Status.BREACH,
        OptionalDouble.of(value), range, "");
  }

  FaultProvider provider() {
    return new FaultProvider() {
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
  }

  DrillResult run(Experiment experiment) {
    DrillPorts ports = new DrillPorts(measurer(experiment), provider(), flag, clock, events::add, Optional.empty())
        .withObserver(milestones::add);
    return new Drill(experiment, "test.yaml", ports).run();
  }

  List<String> lines() {
    return events.stream().map(DrillEvent::line).toList();
  }

  /**
   * error_ratio <= 0.01, abort above 0.05 twice in a row, burn-rate guard at 14.4x on a 99.9%
   * objective, 5 s interval, 60 s method, 30 s recovery, one fault per registered fake.
   */
  Experiment experiment() {
    return experiment(Duration.ofSeconds(60), Missing.FAIL);
  }

  Experiment experiment(Duration duration, Missing missing) {
    List<FaultSpec> specs = new ArrayList<>();
    for (int i = 0; i < Math.max(1, faults.size()); i++) {
      specs.add(new FaultSpec.CpuBurn(1, Optional.of(Duration.ofMinutes(30))));
    }
    return new Experiment("unit-drill", "Unit drill", "sre",
        new PrometheusSource(URI.create("http://127.0.0.1:9090"), null, TokenSource.none()),
        new SteadyState(Duration.ofSeconds(5), List.of(new Sli("error_ratio", "errors / requests",
            OptionalDouble.empty(), OptionalDouble.of(0.01), missing))),
        new Hypothesis("errors stay under 1%", Duration.ofSeconds(30)),
        new Method(duration, specs),
        new Abort(List.of(new AbortRule("error_ratio", AbortRule.Direction.ABOVE, 0.05, 2)),
            Optional.of(new BurnRateGuard(0.999, Duration.ofDays(30), "errors / requests", 100, missing, Optional.empty())),
            3, Optional.empty()),
        new BlastRadius(0.05, Duration.ofMinutes(15), 0.05, 1, 1));
  }
}
