package dev.firedrill.cli;

import dev.firedrill.engine.DrillObserver;
import dev.firedrill.experiment.Experiment;
import dev.firedrill.experiment.MetricsExport;
import dev.firedrill.marker.metrics.MetricsEndpointException;
import dev.firedrill.marker.metrics.MetricsSink;
import dev.firedrill.time.Clock;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Opens the sinks that mark a drill in other signals (package {@code dev.firedrill.marker}): the
 * experiment's {@code markers} section decides Grafana and metrics; the log and spans beside the
 * journal are always written. A sink that cannot open is a {@link UserError} before anything is
 * injected.
 */
final class MarkerWiring {

  /** How long closing may take at most: the longest wait any sink is configured for, plus slack. */
  private static final Duration CLOSE_SLACK = Duration.ofSeconds(5);

  private MarkerWiring() {}

  /** The sinks, opened; and how long their close may take. */
  record Opened(DrillObserver observer, Duration closeLimit) {}

  static Opened open(Experiment experiment, Map<String, String> environment, Path journal, Clock clock,
      PrintWriter events) {
    List<DrillObserver> sinks = new ArrayList<>();
    Duration longestWait = Duration.ZERO;
    if (experiment.markers().metrics().isPresent()) {
      MetricsExport export = experiment.markers().metrics().get();
      sinks.add(metrics(experiment, export, clock, events));
      longestWait = longest(longestWait, export.scrapeWait());
    }
    return new Opened(DrillObserver.composite(sinks), longestWait.plus(CLOSE_SLACK));
  }

  private static Duration longest(Duration a, Duration b) {
    return a.compareTo(b) >= 0 ? a : b;
  }

  /** chaos_experiment_active and the drill's metrics; a busy listen address stops the run before the drill. */
  private static DrillObserver metrics(Experiment experiment, MetricsExport export, Clock clock, PrintWriter events) {
    try {
      return MetricsSink.open(experiment.id(), export, clock, line -> {
        events.println(line);
        events.flush();
      });
    } catch (MetricsEndpointException e) {
      throw new UserError("markers.metrics.listen " + export.listen().orElse("") + ": cannot listen there ("
          + e.reason() + "; expected a free address such as 127.0.0.1:19466)", ExitCode.INVALID, e);
    }
  }
}
