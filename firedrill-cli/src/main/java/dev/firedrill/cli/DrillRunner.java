package dev.firedrill.cli;

import dev.firedrill.alerting.receiver.WebhookReceiver;
import dev.firedrill.engine.ConsoleLines;
import dev.firedrill.engine.Drill;
import dev.firedrill.engine.DrillObserver;
import dev.firedrill.engine.DrillPorts;
import dev.firedrill.engine.DrillResult;
import dev.firedrill.engine.JournalFile;
import dev.firedrill.engine.JournalPatch;
import dev.firedrill.engine.PrometheusMeasurer;
import dev.firedrill.engine.StopSignal;
import dev.firedrill.experiment.Experiment;
import dev.firedrill.prometheus.HttpPrometheusClient;
import dev.firedrill.time.Clock;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * Runs one drill with the real ports: Prometheus, this host's faults, signals, the abort files, the
 * journal.
 */
final class DrillRunner {

  private DrillRunner() {}

  /** The drill's lines, printed as they happen. */
  static DrillObserver console(PrintWriter out) {
    return new ConsoleLines(
        line -> {
          out.println(line);
          out.flush();
        });
  }

  /**
   * {@code console} shows the drill's milestones; {@code events} gets every other line (the
   * receiver, the signals, the markers' notes, the journal's path). {@code logCopy} also gets the
   * structured event log's JSON lines ({@code --log-format json}).
   */
  static DrillResult run(
      Experiment experiment,
      String source,
      JournalFile journal,
      DrillObserver console,
      PrintWriter events,
      Optional<PrintWriter> logCopy,
      Optional<Path> extraAbortFile) {
    Clock clock = Clock.system();
    StopSignal.Flag flag = new StopSignal.Flag();
    StopSignal stop = flag;
    for (Path path : experiment.abort().abortFile().stream().toList()) {
      stop = StopSignal.anyOf(stop, StopSignal.abortFile(path));
    }
    for (Path path : extraAbortFile.stream().toList()) {
      stop = StopSignal.anyOf(stop, StopSignal.abortFile(path));
    }
    HttpPrometheusClient prometheus = Wiring.prometheus(experiment, System.getenv());
    // Markers open first: a receiver that cannot start must not leave a marker endpoint open, and
    // closing the markers is cheap when nothing was marked.
    MarkerWiring.Opened markers =
        MarkerWiring.open(experiment, System.getenv(), journal.path(), clock, events, logCopy);
    Optional<WebhookReceiver> receiver;
    try {
      receiver = Wiring.receiver(experiment, System.getenv(), clock);
    } catch (RuntimeException e) {
      markers.observer().close(markers.closeLimit());
      throw e;
    }
    receiver.ifPresent(
        r -> {
          events.println(
              "receiver: Alertmanager webhooks on http://"
                  + r.address().getHostString()
                  + ":"
                  + r.address().getPort());
          events.flush();
        });
    DrillPorts.Builder ports =
        DrillPorts.builder(
                new PrometheusMeasurer(prometheus, experiment, clock),
                Wiring.faults(experiment),
                clock)
            .stop(stop)
            .journal(journal)
            .watchdog(Wiring.watchdog(experiment, journal, clock))
            .observer(DrillObserver.composite(List.of(console, markers.observer())));
    Wiring.detection(experiment, prometheus, System.getenv(), receiver).ifPresent(ports::detection);
    DrillResult result;
    try (Signals ignored = Signals.install(flag, events)) {
      result = new Drill(experiment, source, ports.build()).run();
    } finally {
      receiver.ifPresent(WebhookReceiver::close);
      markers.observer().close(markers.closeLimit());
    }
    new JournalPatch(receiver.map(JournalPatch.ReceiverTally::of), markers.notes())
        .applyTo(result.journal(), journal);
    events.println("journal: " + journal.path());
    events.flush();
    return result;
  }
}
