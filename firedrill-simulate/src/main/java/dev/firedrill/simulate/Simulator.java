package dev.firedrill.simulate;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.firedrill.alerting.AlertmanagerClient;
import dev.firedrill.alerting.Detection;
import dev.firedrill.alerting.LiveAlertStack;
import dev.firedrill.embedded.alertmanager.config.AlertmanagerConfig;
import dev.firedrill.engine.Drill;
import dev.firedrill.engine.DrillObserver;
import dev.firedrill.engine.DrillPorts;
import dev.firedrill.engine.DrillResult;
import dev.firedrill.engine.FaultProvider;
import dev.firedrill.engine.JournalFile;
import dev.firedrill.engine.PrometheusMeasurer;
import dev.firedrill.engine.StopSignal;
import dev.firedrill.experiment.Experiment;
import dev.firedrill.experiment.FaultSpec;
import dev.firedrill.fault.Fault;
import dev.firedrill.fault.FaultException;
import dev.firedrill.promconfig.Config;
import dev.firedrill.prometheus.HttpPrometheusClient;
import dev.firedrill.promql.eval.Compat;
import dev.firedrill.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * Runs a drill against the simulated lab: the real engine, guards, detection and verdicts, with the
 * model in place of the services and virtual time in place of waiting.
 */
public final class Simulator {

  /** How long the embedded API may take to answer the drill's queries, in real time. */
  static final Duration API_TIMEOUT = Duration.ofSeconds(30);

  /**
   * One simulation. {@code warmup} runs the model before the drill so that rate windows are full;
   * {@code start} is the virtual time the warm-up starts at; {@code compat} is the PromQL the
   * embedded Prometheus answers with (the default mode when null); {@code live} the phases of the
   * live Prometheus the drill names, which the simulated groups and scrapes keep ({@link
   * LivePhases#NONE} when null).
   */
  public record Request(
      Experiment experiment,
      String source,
      LabModel model,
      Config prometheus,
      String prometheusYaml,
      AlertmanagerConfig routes,
      Duration warmup,
      Instant start,
      Optional<JournalFile> journal,
      StopSignal stop,
      Compat compat,
      LivePhases live) {
    public Request {
      Objects.requireNonNull(experiment, "experiment");
      Objects.requireNonNull(model, "model");
      Objects.requireNonNull(prometheus, "prometheus");
      Objects.requireNonNull(routes, "routes");
      if (warmup.isNegative()) {
        throw new IllegalArgumentException(
            "warm-up " + warmup + " is negative (expected zero or more)");
      }
      journal = journal == null ? Optional.empty() : journal;
      stop = stop == null ? StopSignal.noop() : stop;
      compat = compat == null ? Compat.defaultMode() : compat;
      live = live == null ? LivePhases.NONE : live;
    }
  }

  /** Slack for rollback, cleanup and measurements beyond the phases {@link #startEndingBy} adds. */
  private static final Duration SLACK = Duration.ofMinutes(1);

  /**
   * A virtual start whose warm-up and drill end before {@code now}: a prediction is never dated in
   * the future, where a report or a history would read it as a run still to come. The drill's
   * longest course is its first measurement, the method, the recovery it may wait for, the longest
   * alert window, a measurement on either side and {@link #SLACK}.
   */
  public static Instant startEndingBy(Experiment experiment, Duration warmup, Instant now) {
    Duration interval = experiment.steadyState().interval();
    Duration within =
        experiment.hypothesis().alerts().stream()
            .map(a -> a.within())
            .max(Duration::compareTo)
            .orElse(Duration.ZERO);
    Duration longest =
        warmup
            .plus(experiment.method().duration())
            .plus(experiment.hypothesis().recovery())
            .plus(within)
            .plus(interval.multipliedBy(3))
            .plus(SLACK);
    return now.minus(longest);
  }

  /** The drill's result and how long the simulation took in real time. */
  public record Outcome(DrillResult result, Duration realTime, Duration simulated) {}

  private Simulator() {}

  /**
   * @param observer hears the drill's milestones, on simulated time
   * @param events the simulated Alertmanager's lines
   * @param real the clock the real time taken is read from
   */
  public static Outcome run(
      Request request, DrillObserver observer, Consumer<String> events, Clock real)
      throws InterruptedException {
    long began = real.nanoTime();
    Experiment experiment = request.experiment();
    try (SimulatedStack stack =
        SimulatedStack.start(
            request.prometheus(),
            request.prometheusYaml(),
            request.routes(),
            request.model(),
            request.start(),
            request.compat(),
            request.live(),
            events)) {
      Clock clock = stack.clock();
      clock.sleep(request.warmup());
      Instant drillStart = clock.now();
      HttpPrometheusClient prometheus =
          new HttpPrometheusClient(stack.prometheusUrl(), API_TIMEOUT, Optional.empty());
      DrillPorts.Builder ports =
          DrillPorts.builder(
                  new PrometheusMeasurer(prometheus, experiment, clock),
                  faults(stack.metrics(), clock),
                  clock)
              .stop(request.stop())
              .observer(observer);
      request.journal().ifPresent(ports::journal);
      if (!experiment.hypothesis().alerts().isEmpty()) {
        ports.detection(
            new Detection(
                experiment.hypothesis().alerts(),
                new LiveAlertStack(
                    prometheus,
                    Optional.of(
                        new AlertmanagerClient(
                            stack.alertmanagerUrl(), API_TIMEOUT, Optional.empty())),
                    Optional.of(stack.receiver())),
                true,
                true));
      }
      DrillResult result = new Drill(experiment, request.source(), ports.build()).run();
      Duration simulated = Duration.between(drillStart, clock.now());
      Duration took = Duration.ofNanos(real.nanoTime() - began);
      mark(result, request, simulated, took);
      request.journal().ifPresent(file -> file.write(result.journal()));
      return new Outcome(result, took, simulated);
    }
  }

  /** The journal says it is a simulation, of which model, and how long it took. */
  private static void mark(DrillResult result, Request request, Duration simulated, Duration took) {
    ObjectNode node = result.journal().json().putObject("simulation");
    LabModel model = request.model();
    node.put("rate_per_second", model.rate());
    node.put("checkout_timeout_s", seconds(model.checkoutTimeout()));
    for (ServiceModel service : new ServiceModel[] {model.checkout(), model.payments()}) {
      ObjectNode s = node.putObject(service.name());
      s.put("error_ratio", service.errorRatio());
      s.put("latency_s", seconds(service.latency()));
      s.put("jitter_s", seconds(service.jitter()));
    }
    node.put("cpu_burn_latency_per_worker_s", seconds(model.cpuBurnLatencyPerWorker()));
    node.put("warmup_s", seconds(request.warmup()));
    node.put("promql_compat", request.compat().major());
    node.put("simulated_s", seconds(simulated));
    node.put("real_s", seconds(took));
  }

  private static double seconds(Duration d) {
    return d.toNanos() / 1e9;
  }

  private static FaultProvider faults(LabMetrics metrics, Clock clock) {
    return new FaultProvider() {
      @Override
      public Fault create(FaultSpec spec) {
        return new SimulatedFault(spec, metrics, clock);
      }

      @Override
      public Fault restore(FaultSpec spec, Map<String, Object> state) throws FaultException {
        throw new FaultException(
            "a simulated fault cannot be restored: it lived in the simulating process only");
      }
    };
  }
}
