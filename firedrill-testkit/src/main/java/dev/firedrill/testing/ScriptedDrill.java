package dev.firedrill.testing;

import dev.firedrill.alerting.Detection;
import dev.firedrill.engine.ConsoleLines;
import dev.firedrill.engine.Drill;
import dev.firedrill.engine.DrillObserver;
import dev.firedrill.engine.DrillPorts;
import dev.firedrill.engine.DrillResult;
import dev.firedrill.engine.FaultProvider;
import dev.firedrill.engine.JournalFile;
import dev.firedrill.engine.Measurer;
import dev.firedrill.engine.Milestone;
import dev.firedrill.engine.PrometheusMeasurer;
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
import dev.firedrill.experiment.Targets;
import dev.firedrill.experiment.TokenSource;
import dev.firedrill.fault.Fault;
import dev.firedrill.guard.Measurement;
import dev.firedrill.guard.Reading;
import dev.firedrill.prometheus.PrometheusClient;
import dev.firedrill.time.Clock;
import dev.firedrill.time.VirtualClock;
import dev.firedrill.watchdog.DeadMansSwitch;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A whole drill through the real engine and its real measurer, with nothing real outside it: a
 * clock (a {@link VirtualClock} at {@link #START} unless given one), a {@link ScriptedPrometheus},
 * {@link ScriptedFault}s and, once asked for, {@link ScriptedAlerts} to detect. It keeps what the
 * drill did: the log of measurements and fault calls, the console lines (the milestones as {@link
 * ConsoleLines} prints them) and the milestones.
 *
 * <p>Register the faults first; {@link #experiment()} gives the drill one fault spec per fault.
 */
public final class ScriptedDrill {

  public static final Instant START = Instant.parse("2026-11-29T10:00:00Z");

  /** The query of the SLI {@code error_ratio}; answers 0.001 until scripted otherwise. */
  public static final String ERROR_RATIO = "errors / requests";

  /** The query of the burn-rate guard's error ratio; answers 0.001 until scripted otherwise. */
  public static final String GUARD_ERROR_RATIO = "sum(rate(errors[5m])) / sum(rate(requests[5m]))";

  /** One cpu worker on this host: what {@link #fault(String)} stands for. */
  public static final FaultSpec CPU_BURN =
      new FaultSpec.CpuBurn(1, Optional.of(Duration.ofMinutes(30)));

  /**
   * 50 ms of latency on the proxy {@code payments}: the metrics' {@code
   * target="payments",fault="http-latency"}.
   */
  public static final FaultSpec HTTP_LATENCY =
      new FaultSpec.HttpToxic(
          URI.create("http://127.0.0.1:9"),
          "payments",
          1,
          new FaultSpec.HttpToxic.Latency(Duration.ofMillis(50), Duration.ZERO),
          Optional.of(Duration.ofMinutes(2)),
          Optional.empty());

  private final Clock clock;
  private volatile Instant start;
  private final ScriptedPrometheus prometheus;
  private PrometheusClient measured;
  private final List<ScriptedFault> faults = new ArrayList<>();
  private final List<String> log = new CopyOnWriteArrayList<>();

  /** The console's lines, as {@link ConsoleLines} prints the milestones. */
  private final List<String> lines = new CopyOnWriteArrayList<>();

  private final List<Milestone> milestones = new CopyOnWriteArrayList<>();
  private final StopSignal.Flag stop = new StopSignal.Flag();
  private DrillObserver observer = DrillObserver.noop();
  private Optional<ScriptedAlerts> alerts = Optional.empty();
  private Optional<JournalFile> journal = Optional.empty();
  private Optional<DeadMansSwitch> watchdog = Optional.empty();

  /** On a virtual clock at {@link #START}: sleeps advance it at once. */
  public ScriptedDrill() {
    this(new VirtualClock(START));
  }

  /** On {@code clock}; with the system clock, a drill takes as long as its experiment says. */
  public ScriptedDrill(Clock clock) {
    this.clock = clock;
    this.start = clock.now();
    this.prometheus =
        new ScriptedPrometheus(clock, () -> start)
            .answer(ERROR_RATIO, 0.001)
            .answer(GUARD_ERROR_RATIO, 0.001);
    this.measured = prometheus;
  }

  public Clock clock() {
    return clock;
  }

  /** When the last drill began (when this was made, before the first). */
  public Instant start() {
    return start;
  }

  /** How long after {@link #START} {@code at} is: the offset of a milestone at {@code at}. */
  public static Duration since(Instant at) {
    return Duration.between(START, at);
  }

  /**
   * Fault {@code index} is on, injected at {@code at}, for marker tests that hand milestones over
   * one by one.
   */
  public static Milestone.FaultInjected injected(int index, FaultSpec spec, Instant at) {
    return new Milestone.FaultInjected(
        index, spec, List.of(), Map.of(), Optional.empty(), List.of(), at, since(at));
  }

  /** Fault {@code index} is reverted and verified gone at {@code at}, at the first attempt. */
  public static Milestone.FaultReverted reverted(int index, FaultSpec spec, Instant at) {
    return new Milestone.FaultReverted(index, spec, 1, "gone", Optional.empty(), at, since(at));
  }

  /** Seconds since {@link #start()} on the drill's clock. */
  public double seconds() {
    return Duration.between(start, clock.now()).toMillis() / 1000.0;
  }

  /** The instant {@code seconds} after {@link #start()}. */
  public Instant at(double seconds) {
    return start.plusMillis(Math.round(seconds * 1000));
  }

  /** What the drill's Prometheus answers; script it before the run. */
  public ScriptedPrometheus prometheus() {
    return prometheus;
  }

  /**
   * Measures through {@code client} instead of the {@link #prometheus() scripted} one: a real HTTP
   * client against a loopback server that misbehaves.
   */
  public ScriptedDrill measureWith(PrometheusClient client) {
    this.measured = client;
    return this;
  }

  /** The next fault, a cpu burn. */
  public ScriptedFault fault(String name) {
    return fault(name, CPU_BURN);
  }

  /**
   * The next fault, injected for the experiment's next fault spec; {@code spec} is what it says it
   * is.
   */
  public ScriptedFault fault(String name, FaultSpec spec) {
    ScriptedFault fault = new ScriptedFault(name, spec, log);
    faults.add(fault);
    return fault;
  }

  public List<ScriptedFault> faults() {
    return List.copyOf(faults);
  }

  /**
   * The alert stack the drill detects with, as firedrill's webhook receiver and no Alertmanager
   * would see it.
   */
  public ScriptedAlerts alerts() {
    if (alerts.isEmpty()) {
      alerts = Optional.of(new ScriptedAlerts(this));
    }
    return alerts.get();
  }

  /**
   * Gets every milestone after the drill's own record of them; one that throws is kept from the
   * drill.
   */
  public ScriptedDrill observer(DrillObserver observer) {
    this.observer = observer;
    return this;
  }

  /** Where the drill rewrites its journal after each step; nowhere until set. */
  public ScriptedDrill journal(JournalFile file) {
    this.journal = Optional.of(file);
    return this;
  }

  /**
   * The dead-man's switch that holds the faults whose ttl the watchdog enforces; none until set.
   */
  public ScriptedDrill watchdog(DeadMansSwitch watchdog) {
    this.watchdog = Optional.of(watchdog);
    return this;
  }

  /** What a signal or an abort file does: the drill stops at its next poll. */
  public void requestStop(String reason) {
    stop.raise(reason);
  }

  /**
   * {@code checkout-latency}: error_ratio <= 0.01 every 5 s, abort above 0.05 twice in a row, a
   * burn-rate guard at 100x on a 99.9% objective, the registered faults for 60 s, 30 s to recover,
   * inside a blast radius of 15 min.
   */
  public Experiment.Builder experiment() {
    return experiment("checkout-latency");
  }

  /** {@link #experiment()} with another id. */
  public Experiment.Builder experiment(String id) {
    return Experiment.builder(id)
        .title("Checkout under CPU pressure")
        .owner("sre")
        .prometheus(
            new PrometheusSource(URI.create("http://127.0.0.1:9090"), null, TokenSource.none()))
        .steadyState(steadyState(Duration.ofSeconds(5), Missing.FAIL))
        .hypothesis(new Hypothesis("errors stay under 1%", Duration.ofSeconds(30)))
        .method(method(Duration.ofSeconds(60)))
        .abort(
            new Abort(
                List.of(new AbortRule("error_ratio", AbortRule.Direction.ABOVE, 0.05, 2)),
                Optional.of(
                    new BurnRateGuard(
                        0.999,
                        Duration.ofDays(30),
                        GUARD_ERROR_RATIO,
                        100,
                        Missing.FAIL,
                        Optional.empty())),
                Abort.DEFAULT_PROBE_ERRORS,
                Optional.empty()))
        .blastRadius(new BlastRadius(0.05, Duration.ofMinutes(15), 0.05, 1, 1));
  }

  /** The SLI error_ratio ({@link #ERROR_RATIO} <= 0.01), measured every {@code interval}. */
  public static SteadyState steadyState(Duration interval, Missing missing) {
    return new SteadyState(
        interval,
        List.of(
            new Sli(
                "error_ratio",
                ERROR_RATIO,
                OptionalDouble.empty(),
                OptionalDouble.of(0.01),
                missing)));
  }

  /** The registered faults' specs, on for {@code duration}. */
  public Method method(Duration duration) {
    return new Method(duration, faults.stream().map(ScriptedFault::spec).toList());
  }

  public DrillResult run() {
    return run(experiment().build());
  }

  public DrillResult run(Experiment experiment) {
    start = clock.now();
    DrillPorts.Builder ports =
        DrillPorts.builder(
                logged(new PrometheusMeasurer(measured, experiment, clock)), provider(), clock)
            .stop(stop)
            .observer(
                DrillObserver.composite(
                    List.of(milestones::add, new ConsoleLines(lines::add), observer)));
    journal.ifPresent(ports::journal);
    watchdog.ifPresent(ports::watchdog);
    alerts.ifPresent(
        stack ->
            ports.detection(new Detection(experiment.hypothesis().alerts(), stack, true, false)));
    return new Drill(experiment, "scripted-drill.yaml", ports.build()).run();
  }

  /**
   * Measurements and fault calls in order: {@code measure at 5.0}, {@code inject burn}, {@code
   * revert burn}.
   */
  public List<String> log() {
    return List.copyOf(log);
  }

  /**
   * The console's lines, such as {@code +5.0s during ok: error_ratio 0.001 <= 0.01, burn_rate 1 <=
   * 100}.
   */
  public List<String> lines() {
    return List.copyOf(lines);
  }

  public List<Milestone> milestones() {
    return List.copyOf(milestones);
  }

  public <T extends Milestone> List<T> milestones(Class<T> type) {
    return milestones.stream().filter(type::isInstance).map(type::cast).toList();
  }

  private Measurer logged(Measurer measurer) {
    return new Measurer() {
      @Override
      public Measurement measure(Targets targets) throws InterruptedException {
        log.add("measure at " + seconds());
        return measurer.measure(targets);
      }

      @Override
      public Optional<Reading> remainingBudget() {
        return measurer.remainingBudget();
      }
    };
  }

  private FaultProvider provider() {
    return new FaultProvider() {
      private int next;

      @Override
      public Fault create(FaultSpec spec) {
        if (next == faults.size()) {
          throw new IllegalStateException(
              "the experiment has more faults than the "
                  + faults.size()
                  + " registered with fault(...)");
        }
        return faults.get(next++);
      }

      @Override
      public Fault restore(FaultSpec spec, Map<String, Object> state) {
        throw new UnsupportedOperationException("drills never restore");
      }
    };
  }
}
