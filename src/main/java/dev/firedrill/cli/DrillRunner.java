package dev.firedrill.cli;

import dev.firedrill.engine.Drill;
import dev.firedrill.engine.DrillListener;
import dev.firedrill.engine.DrillPorts;
import dev.firedrill.engine.DrillResult;
import dev.firedrill.engine.JournalFile;
import dev.firedrill.engine.StopSignal;
import dev.firedrill.experiment.Experiment;
import dev.firedrill.time.Clock;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.Optional;

/** Runs one drill with the real ports: Prometheus, this host's faults, signals, the abort files, the journal. */
final class DrillRunner {

  private DrillRunner() {}

  static DrillResult run(Experiment experiment, String source, JournalFile journal, PrintWriter events,
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
    DrillListener console = event -> {
      events.println(event.line());
      events.flush();
    };
    DrillPorts ports = new DrillPorts(Wiring.measurer(experiment, System.getenv(), clock), Wiring.faults(experiment),
        stop, clock, console, Optional.of(journal));
    DrillResult result;
    try (Signals ignored = Signals.install(flag, events)) {
      result = new Drill(experiment, source, ports).run();
    }
    events.println("journal: " + journal.path());
    events.flush();
    return result;
  }
}
