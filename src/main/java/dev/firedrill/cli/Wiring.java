package dev.firedrill.cli;

import com.fasterxml.jackson.databind.JsonNode;
import dev.firedrill.engine.FaultProvider;
import dev.firedrill.engine.Journal;
import dev.firedrill.experiment.BlastRadius;
import dev.firedrill.experiment.Durations;
import java.time.Duration;
import dev.firedrill.engine.Measurer;
import dev.firedrill.engine.PrometheusMeasurer;
import dev.firedrill.experiment.Experiment;
import dev.firedrill.experiment.ExperimentException;
import dev.firedrill.experiment.ExperimentLoader;
import dev.firedrill.experiment.FaultSpec;
import dev.firedrill.experiment.PrometheusSource;
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

  static PrometheusClient prometheus(Experiment experiment, Map<String, String> environment) {
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
