package dev.firedrill.marker;

import dev.firedrill.engine.Drill;
import dev.firedrill.engine.DrillObserver;
import dev.firedrill.engine.DrillPorts;
import dev.firedrill.engine.DrillResult;
import dev.firedrill.engine.FaultProvider;
import dev.firedrill.engine.Measurer;
import dev.firedrill.engine.StopSignal;
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
import dev.firedrill.fault.Verification;
import dev.firedrill.guard.Measurement;
import dev.firedrill.guard.Reading;
import dev.firedrill.time.VirtualClock;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.DoubleUnaryOperator;

/**
 * A whole drill through the real engine for marker tests: a test clock, an error ratio scripted
 * over the seconds since the start, and one fake cpu-burn fault that records what was done to it.
 */
public final class DrillScript {

  public static final Instant START = Instant.parse("2026-11-29T10:00:00Z");

  public final VirtualClock clock = new VirtualClock(START);
  /** What the fault went through, in order: inject, revert. */
  public final List<String> faultLog = new CopyOnWriteArrayList<>();
  /** Seconds since the start to the error ratio that every query returns. */
  public DoubleUnaryOperator errorRatio = t -> 0.001;
  private boolean applied;

  /**
   * {@code checkout-latency}: error_ratio <= 0.01, abort above 0.05 twice in a row, a burn-rate
   * guard at 100x on 99.9%, 5 s interval, 60 s of one cpu-burn fault, 30 s recovery.
   */
  public Experiment experiment() {
    return new Experiment("checkout-latency", "Checkout under CPU pressure", "sre",
        new PrometheusSource(URI.create("http://127.0.0.1:9090"), null, TokenSource.none()),
        new SteadyState(Duration.ofSeconds(5), List.of(new Sli("error_ratio", "errors / requests",
            OptionalDouble.empty(), OptionalDouble.of(0.01), Missing.FAIL))),
        new Hypothesis("errors stay under 1%", Duration.ofSeconds(30)),
        new Method(Duration.ofSeconds(60), List.of(new FaultSpec.CpuBurn(1, Optional.of(Duration.ofMinutes(30))))),
        new Abort(List.of(new AbortRule("error_ratio", AbortRule.Direction.ABOVE, 0.05, 2)),
            Optional.of(new BurnRateGuard(0.999, Duration.ofDays(30), "errors / requests", 100, Missing.FAIL,
                Optional.empty())),
            3, Optional.empty()),
        new BlastRadius(0.05, Duration.ofMinutes(15), 0.05, 1, 1));
  }

  public DrillResult run(DrillObserver observer) {
    Experiment experiment = experiment();
    DrillPorts ports = new DrillPorts(measurer(experiment), provider(), StopSignal.none(), clock, null,
        Optional.empty()).withObserver(observer);
    return new Drill(experiment, "test.yaml", ports).run();
  }

  /** Whether the fault is still on. */
  public boolean faultApplied() {
    return applied;
  }

  private Measurer measurer(Experiment experiment) {
    return () -> {
      double t = Duration.between(START, clock.now()).toMillis() / 1000.0;
      double ratio = errorRatio.applyAsDouble(t);
      Sli sli = experiment.steadyState().slis().get(0);
      BurnRateGuard guard = experiment.abort().burnRate().orElseThrow();
      double burn = guard.burnRate(ratio);
      return new Measurement(clock.now(), List.of(Reading.of(sli.name(), ratio, sli.within(ratio), sli.rangeText())),
          Optional.of(Reading.of("burn_rate", burn, burn <= guard.max(), "<= 100")));
    };
  }

  private FaultProvider provider() {
    return new FaultProvider() {
      @Override
      public Fault create(FaultSpec spec) {
        return new Fault() {
          @Override
          public FaultSpec spec() {
            return spec;
          }

          @Override
          public List<String> plan() {
            return List.of("start 1 cpu worker");
          }

          @Override
          public void inject() {
            faultLog.add("inject");
            applied = true;
          }

          @Override
          public void revert() {
            faultLog.add("revert");
            applied = false;
          }

          @Override
          public Verification verify() {
            return applied ? Verification.remaining("still burning") : Verification.reverted("gone");
          }

          @Override
          public String manualRevertCommand() {
            return "pkill -f cpu-burn";
          }

          @Override
          public Map<String, Object> state() {
            return Map.of("applied", applied);
          }
        };
      }

      @Override
      public Fault restore(FaultSpec spec, Map<String, Object> state) {
        throw new UnsupportedOperationException("drills never restore");
      }
    };
  }
}
