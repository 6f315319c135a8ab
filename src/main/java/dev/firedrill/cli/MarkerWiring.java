package dev.firedrill.cli;

import dev.firedrill.engine.DrillObserver;
import dev.firedrill.experiment.Experiment;
import dev.firedrill.marker.trace.DrillSpans;
import dev.firedrill.marker.trace.TraceExport;
import dev.firedrill.time.Clock;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
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
    sinks.add(spans(environment, journal, clock, events));
    return new Opened(DrillObserver.composite(sinks), longestWait.plus(CLOSE_SLACK));
  }

  /** Over OTLP when the {@code OTEL_} variables name an endpoint, else as JSON lines beside the journal. */
  private static DrillObserver spans(Map<String, String> environment, Path journal, Clock clock, PrintWriter events) {
    TraceExport.Opened opened;
    try {
      opened = TraceExport.open(environment, journal);
    } catch (IllegalArgumentException | UncheckedIOException e) {
      throw new UserError("firedrill run: spans: " + e.getMessage(), ExitCode.INVALID, e);
    }
    events.println("spans: " + opened.description());
    events.flush();
    return new DrillSpans(opened.provider(), clock);
  }
}
