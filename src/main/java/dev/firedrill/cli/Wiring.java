package dev.firedrill.cli;

import com.fasterxml.jackson.databind.JsonNode;
import dev.firedrill.engine.FaultProvider;
import dev.firedrill.engine.Journal;
import dev.firedrill.experiment.BlastRadius;
import dev.firedrill.experiment.Durations;
import java.time.Duration;
import dev.firedrill.alerting.AlertStack;
import dev.firedrill.alerting.AlertmanagerClient;
import dev.firedrill.alerting.Detection;
import dev.firedrill.alerting.LiveAlertStack;
import dev.firedrill.alerting.receiver.ReceiverConfig;
import dev.firedrill.alerting.receiver.WebhookReceiver;
import dev.firedrill.engine.Measurer;
import dev.firedrill.engine.PrometheusMeasurer;
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
import dev.firedrill.prometheus.HttpPrometheusClient;
import dev.firedrill.prometheus.PrometheusClient;
import dev.firedrill.time.Clock;
import java.io.IOException;
import java.nio.file.Path;
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
    Optional<String> token;
    try {
      token = source.bearerToken().resolve(environment);
    } catch (IOException e) {
      throw new UserError("prometheus bearer token (" + source.bearerToken().describe() + "): " + e.getMessage(),
          ExitCode.INVALID, e);
    }
    try {
      return new HttpPrometheusClient(source.url(), source.timeout(), token);
    } catch (IllegalArgumentException e) {
      throw new UserError("prometheus.url: " + e.getMessage(), ExitCode.INVALID, e);
    }
  }

  static Measurer measurer(Experiment experiment, Map<String, String> environment, Clock clock) {
    return new PrometheusMeasurer(prometheus(experiment, environment), experiment, clock);
  }

  /** firedrill's webhook receiver, when the experiment routes Alertmanager to one. */
  static Optional<WebhookReceiver> receiver(Experiment experiment, Map<String, String> environment, Clock clock) {
    if (experiment.receiver().isEmpty()) {
      return Optional.empty();
    }
    ReceiverSpec spec = experiment.receiver().get();
    Optional<String> token;
    try {
      token = spec.bearerToken().resolve(environment);
    } catch (IOException e) {
      throw new UserError("receiver bearer token (" + spec.bearerToken().describe() + "): " + e.getMessage(),
          ExitCode.INVALID, e);
    }
    ReceiverConfig config = ReceiverConfig.defaults().withListen(spec.listen()).withMaxPayloadBytes(spec.maxPayloadBytes());
    try {
      return Optional.of(WebhookReceiver.start(token.map(config::withBearerToken).orElse(config), clock));
    } catch (RuntimeException e) {
      throw new UserError("receiver.listen " + spec.listen() + ": cannot listen there (" + e.getMessage()
          + "; expected a free loopback address such as 127.0.0.1:19101)", ExitCode.INVALID, e);
    }
  }

  /** Detection for the experiment's expected alerts, or empty when it expects none. */
  static Optional<Detection> detection(Experiment experiment, HttpPrometheusClient prometheus,
      Optional<WebhookReceiver> receiver) {
    if (experiment.hypothesis().alerts().isEmpty()) {
      return Optional.empty();
    }
    Optional<AlertmanagerClient> alertmanager = experiment.alertmanager()
        .map(am -> new AlertmanagerClient(am.url(), am.timeout(), Optional.empty()));
    AlertStack stack = new LiveAlertStack(prometheus, alertmanager, receiver);
    return Optional.of(new Detection(experiment.hypothesis().alerts(), stack, receiver.isPresent(),
        alertmanager.isPresent()));
  }

  static FaultProvider faults(Experiment experiment) {
    return faults(FaultContext.onThisHost(experiment.id(), experiment.blastRadius(), experiment.method().duration()));
  }

  /**
   * Cleanup only reverts what the journal recorded; it plans nothing, so the blast radius it
   * passes on limits nothing.
   */
  static FaultProvider faultsForCleanup(Journal journal) {
    JsonNode experiment = journal.json().path("experiment");
    Duration duration = Durations.parse(experiment.path("duration").asText("1s"));
    BlastRadius revertOnly = new BlastRadius(1, duration, 1, Integer.MAX_VALUE, Integer.MAX_VALUE);
    return faults(FaultContext.onThisHost(experiment.path("id").asText(), revertOnly, duration));
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
