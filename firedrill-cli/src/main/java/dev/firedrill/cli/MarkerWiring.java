package dev.firedrill.cli;

import dev.firedrill.engine.DrillObserver;
import dev.firedrill.engine.Milestone;
import dev.firedrill.experiment.Experiment;
import dev.firedrill.experiment.GrafanaTarget;
import dev.firedrill.experiment.MetricsExport;
import dev.firedrill.http.HttpEndpoint;
import dev.firedrill.marker.grafana.GrafanaAnnotations;
import dev.firedrill.marker.log.EventLog;
import dev.firedrill.marker.metrics.MetricsEndpointException;
import dev.firedrill.marker.metrics.MetricsSink;
import dev.firedrill.marker.trace.DrillSpans;
import dev.firedrill.marker.trace.TraceExport;
import dev.firedrill.time.Clock;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;

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

  /**
   * The sinks, opened; how long their close may take; and every note they made, for the journal
   * (read it after the close: sinks note from their own threads).
   */
  record Opened(DrillObserver observer, Duration closeLimit, List<String> notes) {}

  /**
   * {@code logCopy} also gets the structured log's lines ({@code --log-format json}); the console
   * {@code events} gets the markers' one-line notes.
   */
  static Opened open(
      Experiment experiment,
      Map<String, String> environment,
      Path journal,
      Clock clock,
      PrintWriter events,
      Optional<PrintWriter> logCopy) {
    List<DrillObserver> sinks = new ArrayList<>();
    List<String> journaled = new CopyOnWriteArrayList<>();
    Duration longestWait = Duration.ZERO;
    Optional<HttpEndpoint> grafana =
        experiment
            .markers()
            .grafana()
            .map(
                target ->
                    Wiring.endpoint(
                        "markers.grafana", target.http(), target.timeout(), environment));
    // Spans come first: their sink makes the drill's context current on DrillStarted, so the
    // requests of the sinks after it carry traceparent and baggage.
    DrillObserver spans = spans(environment, journal, clock, events);
    sinks.add(spans);
    EventLog log;
    try {
      log = eventLog(experiment, journal, clock, events, logCopy);
    } catch (RuntimeException e) {
      spans.close(CLOSE_SLACK);
      throw e;
    }
    List<DrillObserver> noting = new ArrayList<>();
    try {
      for (GrafanaTarget target : experiment.markers().grafana().stream().toList()) {
        noting.add(
            new GrafanaAnnotations(
                target, grafana.orElseThrow(), clock, notes("grafana", events, log, journaled)));
        longestWait = max(longestWait, GrafanaAnnotations.closeWait(target));
      }
      for (MetricsExport export : experiment.markers().metrics().stream().toList()) {
        // The metrics sink names itself at the start of each note.
        noting.add(
            metrics(
                experiment,
                export,
                clock,
                note -> {
                  events.println(note);
                  events.flush();
                  log.note("metrics", note);
                  journaled.add(note);
                }));
        longestWait = max(longestWait, export.scrapeWait());
      }
    } catch (RuntimeException e) {
      // Nothing is injected yet: release what did open (threads, a listening port) before saying
      // why.
      logClosedLast(noting, log).close(CLOSE_SLACK);
      spans.close(CLOSE_SLACK);
      throw e;
    }
    sinks.add(logClosedLast(noting, log));
    return new Opened(DrillObserver.composite(sinks), longestWait.plus(CLOSE_SLACK), journaled);
  }

  /**
   * The log and the sinks that write notes into it; these close first, so their last notes still
   * reach it.
   */
  private static DrillObserver logClosedLast(List<DrillObserver> noting, EventLog log) {
    List<DrillObserver> all = new ArrayList<>(noting);
    all.add(log);
    DrillObserver each = DrillObserver.composite(all);
    DrillObserver first = DrillObserver.composite(noting);
    return new DrillObserver() {
      @Override
      public void on(Milestone milestone) {
        each.on(milestone);
      }

      @Override
      public void close(Duration limit) {
        first.close(limit);
        log.close(limit);
      }
    };
  }

  /** The structured log beside the journal, and on {@code logCopy} when asked for. */
  private static EventLog eventLog(
      Experiment experiment,
      Path journal,
      Clock clock,
      PrintWriter events,
      Optional<PrintWriter> logCopy) {
    Path file = EventLog.besideJournal(journal);
    List<EventLog.Output> outputs = new ArrayList<>();
    try {
      outputs.add(EventLog.file(file));
    } catch (IOException e) {
      throw new UserError(
          file + ": cannot open the event log: " + e.getMessage(), ExitCode.INVALID, e);
    }
    logCopy.ifPresent(copy -> outputs.add(EventLog.Output.borrowed("stderr", copy)));
    return new EventLog(
        experiment.id(),
        outputs,
        clock,
        line -> {
          events.println(line);
          events.flush();
        });
  }

  /**
   * A marker's notes on the console, in the event log and in the journal, where they outlive the
   * run.
   */
  private static Consumer<String> notes(
      String source, PrintWriter events, EventLog log, List<String> journaled) {
    return note -> {
      events.println(source + ": " + note);
      events.flush();
      log.note(source, note);
      journaled.add(source + ": " + note);
    };
  }

  private static Duration max(Duration a, Duration b) {
    return a.compareTo(b) >= 0 ? a : b;
  }

  /**
   * chaos_experiment_active and the drill's metrics; a busy listen address stops the run before the
   * drill.
   */
  private static DrillObserver metrics(
      Experiment experiment, MetricsExport export, Clock clock, Consumer<String> notes) {
    try {
      return MetricsSink.open(experiment.id(), export, clock, notes);
    } catch (MetricsEndpointException e) {
      throw new UserError(
          "markers.metrics.listen "
              + export.listen().orElse("")
              + ": cannot listen there ("
              + e.reason()
              + "; expected a free address such as 127.0.0.1:19466)",
          ExitCode.INVALID,
          e);
    }
  }

  /**
   * Over OTLP when the {@code OTEL_} variables name an endpoint, else as JSON lines beside the
   * journal.
   */
  private static DrillObserver spans(
      Map<String, String> environment, Path journal, Clock clock, PrintWriter events) {
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
