package dev.firedrill.cli;

import dev.firedrill.alerting.AlertStack;
import dev.firedrill.alerting.AlertmanagerClient;
import dev.firedrill.alerting.Detection;
import dev.firedrill.alerting.LiveAlertStack;
import dev.firedrill.alerting.receiver.ReceiverConfig;
import dev.firedrill.alerting.receiver.WebhookReceiver;
import dev.firedrill.engine.FaultProvider;
import dev.firedrill.engine.Journal;
import dev.firedrill.engine.JournalFile;
import dev.firedrill.engine.Measurer;
import dev.firedrill.engine.PrometheusMeasurer;
import dev.firedrill.experiment.AlertmanagerSource;
import dev.firedrill.experiment.BlastRadius;
import dev.firedrill.experiment.Experiment;
import dev.firedrill.experiment.ExperimentException;
import dev.firedrill.experiment.ExperimentLoader;
import dev.firedrill.experiment.FaultSpec;
import dev.firedrill.experiment.PrometheusSource;
import dev.firedrill.experiment.ReceiverSpec;
import dev.firedrill.fault.Fault;
import dev.firedrill.fault.FaultContext;
import dev.firedrill.fault.FaultException;
import dev.firedrill.fault.Faults;
import dev.firedrill.fault.ProcessTable;
import dev.firedrill.fault.WorkerLauncher;
import dev.firedrill.http.HttpEndpoint;
import dev.firedrill.http.HttpSettings;
import dev.firedrill.http.HttpSettingsException;
import dev.firedrill.prometheus.HttpPrometheusClient;
import dev.firedrill.prometheus.PrometheusConfig;
import dev.firedrill.time.Clock;
import dev.firedrill.time.Durations;
import dev.firedrill.watchdog.DeadMansSwitch;
import dev.firedrill.watchdog.WatchdogFiles;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;

/** Builds the real ports for a command from an experiment and the environment. */
final class Wiring {

  private Wiring() {}

  static Experiment load(Path file) {
    try {
      return ExperimentLoader.load(file);
    } catch (ExperimentException e) {
      throw new UserError(e.getMessage(), ExitCode.INVALID, e);
    }
  }

  static HttpPrometheusClient prometheus(Experiment experiment, Map<String, String> environment) {
    PrometheusSource source = experiment.prometheus();
    return prometheus(source.url(), source, environment, "prometheus.url");
  }

  /**
   * A client for {@code url} with the prometheus section's HTTP settings (the query URL or
   * rules_url).
   */
  private static HttpPrometheusClient prometheus(
      URI url, PrometheusSource source, Map<String, String> environment, String key) {
    HttpEndpoint endpoint = endpoint("prometheus", source.http(), source.timeout(), environment);
    try {
      return new HttpPrometheusClient(url, source.timeout(), endpoint, warning -> {});
    } catch (IllegalArgumentException e) {
      throw new UserError(key + ": " + e.getMessage(), ExitCode.INVALID, e);
    }
  }

  static AlertmanagerClient alertmanager(
      AlertmanagerSource source, Map<String, String> environment) {
    HttpEndpoint endpoint = endpoint("alertmanager", source.http(), source.timeout(), environment);
    try {
      return new AlertmanagerClient(source.url(), source.timeout(), endpoint);
    } catch (IllegalArgumentException e) {
      throw new UserError("alertmanager.url: " + e.getMessage(), ExitCode.INVALID, e);
    }
  }

  /**
   * The HTTP settings of section {@code name} opened: TLS set up, every secret read once (exit 2
   * otherwise).
   */
  static HttpEndpoint endpoint(
      String name, HttpSettings settings, Duration timeout, Map<String, String> environment) {
    try {
      return HttpEndpoint.open(name, settings, timeout, environment);
    } catch (HttpSettingsException e) {
      throw new UserError(e.getMessage(), ExitCode.INVALID, e);
    }
  }

  /**
   * The rules, alerts and intervals detection reads: rules and alerts from prometheus.rules_url
   * when given, intervals from the server's config or else from the experiment file.
   */
  static AlertStack alertStack(
      Experiment experiment,
      Map<String, String> environment,
      Optional<AlertmanagerClient> alertmanager,
      Optional<WebhookReceiver> receiver) {
    return alertStack(
        experiment, prometheus(experiment, environment), environment, alertmanager, receiver);
  }

  private static AlertStack alertStack(
      Experiment experiment,
      HttpPrometheusClient prometheus,
      Map<String, String> environment,
      Optional<AlertmanagerClient> alertmanager,
      Optional<WebhookReceiver> receiver) {
    PrometheusSource source = experiment.prometheus();
    HttpPrometheusClient rules =
        source.rulesUrl().isPresent()
            ? prometheus(source.rulesUrl().get(), source, environment, "prometheus.rules_url")
            : prometheus;
    PrometheusSource.Intervals intervals = source.intervals();
    PrometheusConfig fallback =
        new PrometheusConfig(
            intervals.scrapeInterval(),
            intervals.evaluationInterval(),
            intervals.queryOffset(),
            Map.of());
    return new LiveAlertStack(prometheus, rules, fallback, alertmanager, receiver);
  }

  static Measurer measurer(Experiment experiment, Map<String, String> environment, Clock clock) {
    return new PrometheusMeasurer(prometheus(experiment, environment), experiment, clock);
  }

  /** firedrill's webhook receiver, when the experiment routes Alertmanager to one. */
  static Optional<WebhookReceiver> receiver(
      Experiment experiment, Map<String, String> environment, Clock clock) {
    if (experiment.receiver().isEmpty()) {
      return Optional.empty();
    }
    ReceiverSpec spec = experiment.receiver().get();
    Optional<String> token;
    try {
      token = spec.bearerToken().resolve(environment);
    } catch (IOException e) {
      throw new UserError(
          "receiver bearer token (" + spec.bearerToken().describe() + "): " + e.getMessage(),
          ExitCode.INVALID,
          e);
    }
    ReceiverConfig config =
        ReceiverConfig.defaults()
            .withListen(spec.listen())
            .withMaxPayloadBytes(spec.maxPayloadBytes());
    try {
      return Optional.of(
          WebhookReceiver.start(token.map(config::withBearerToken).orElse(config), clock));
    } catch (RuntimeException e) {
      throw new UserError(
          "receiver.listen "
              + spec.listen()
              + ": cannot listen there ("
              + e.getMessage()
              + "; expected a free loopback address such as 127.0.0.1:19101)",
          ExitCode.INVALID,
          e);
    }
  }

  /** Detection for the experiment's expected alerts, or empty when it expects none. */
  static Optional<Detection> detection(
      Experiment experiment,
      HttpPrometheusClient prometheus,
      Map<String, String> environment,
      Optional<WebhookReceiver> receiver) {
    if (experiment.hypothesis().alerts().isEmpty()) {
      return Optional.empty();
    }
    Optional<AlertmanagerClient> alertmanager =
        experiment.alertmanager().map(am -> alertmanager(am, environment));
    AlertStack stack = alertStack(experiment, prometheus, environment, alertmanager, receiver);
    return Optional.of(
        new Detection(
            experiment.hypothesis().alerts(),
            stack,
            receiver.isPresent(),
            alertmanager.isPresent()));
  }

  static FaultProvider faults(Experiment experiment) {
    return faults(experiment, true);
  }

  /**
   * {@code resolve}: whether the faults' plans may read a cluster to choose their targets ({@code
   * plan --resolve}; a drill always does).
   */
  static FaultProvider faults(Experiment experiment, boolean resolve) {
    return faults(
        FaultContext.onThisHost(
                experiment.id(), experiment.blastRadius(), experiment.method().duration())
            .withKubernetesContext(experiment.kubernetesContext())
            .withRecovery(experiment.hypothesis().recovery())
            .withResolve(resolve));
  }

  /**
   * The test-only system property that lowers the lease grace's floor of 30s (a duration such as
   * {@code 3s}, never below 1s), so a test sees the watchdog act without waiting half a minute.
   */
  static final String GRACE_FLOOR_PROPERTY = "firedrill.watchdog.grace-floor";

  /**
   * The dead-man's switch of a drill: its files beside the journal, a grace of three measurement
   * intervals and at least 30s.
   */
  static DeadMansSwitch watchdog(Experiment experiment, JournalFile journal, Clock clock) {
    String floor = System.getProperty(GRACE_FLOOR_PROPERTY);
    Duration grace =
        DeadMansSwitch.grace(
            experiment.steadyState().interval(),
            floor == null ? DeadMansSwitch.MIN_GRACE : Durations.parse(floor));
    return new DeadMansSwitch(
        WatchdogFiles.beside(journal.path()),
        experiment.id(),
        experiment.method().duration(),
        grace,
        WorkerLauncher.current(),
        ProcessTable.system(),
        clock);
  }

  /**
   * Cleanup only reverts what the journal recorded; it plans nothing, so the blast radius it passes
   * on limits nothing.
   */
  static FaultProvider faultsForCleanup(Journal journal) {
    Duration duration = journal.methodDuration();
    BlastRadius revertOnly = new BlastRadius(1, duration, 1, Integer.MAX_VALUE, Integer.MAX_VALUE);
    return faults(FaultContext.onThisHost(journal.experimentId(), revertOnly, duration));
  }

  private static FaultProvider faults(FaultContext context) {
    return new FaultProvider() {
      @Override
      public Fault create(FaultSpec spec) {
        return Faults.create(spec, context);
      }

      @Override
      public Fault create(int index, FaultSpec spec) {
        return Faults.create(spec, context, index);
      }

      @Override
      public Fault restore(FaultSpec spec, Map<String, Object> state) throws FaultException {
        return Faults.restore(spec, context, state);
      }
    };
  }
}
