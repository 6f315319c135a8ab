package dev.firedrill.cli;

import dev.firedrill.engine.DrillResult;
import dev.firedrill.engine.JournalFile;
import dev.firedrill.engine.JournalPaths;
import dev.firedrill.experiment.Experiment;
import dev.firedrill.history.HistoryException;
import dev.firedrill.history.HistoryRecorder;
import dev.firedrill.history.StoreLocation;
import dev.firedrill.programme.lock.TargetLocks;
import dev.firedrill.time.Clock;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

@Command(
    name = "run",
    description =
        "Run the drill: preflight, inject, observe, roll back on every path, recover, verdict.")
final class RunCommand implements Callable<Integer> {

  @Parameters(paramLabel = "FILE", description = "The experiment file (YAML or JSON).")
  Path file;

  @Option(
      names = "--journal",
      paramLabel = "PATH",
      description = "Where to write the journal (default: journals/<id>-<UTC time>.json).")
  Path journal;

  @Option(
      names = "--json",
      description =
          "Print the journal as JSON on stdout at the end; event lines go to stderr (the same as"
              + " --output json).")
  boolean json;

  @Mixin OutputOption output;

  @Option(
      names = "--abort-file",
      paramLabel = "PATH",
      description = "Abort as soon as this file exists (in addition to abort.abort_file).")
  Path abortFile;

  @Option(names = "--no-report", description = "Do not write the HTML report beside the journal.")
  boolean noReport;

  @Mixin LogFormatOption logFormat;

  @Mixin HistoryOptions history;

  @Mixin CommonOptions common;

  @Spec picocli.CommandLine.Model.CommandSpec spec;

  @Override
  public Integer call() {
    Experiment experiment = Wiring.load(file);
    boolean json = this.json || output.json();
    PrintWriter out = spec.commandLine().getOut();
    PrintWriter err = spec.commandLine().getErr();
    // stdout carries the journal with --json and stderr the JSON lines with --log-format json; the
    // human lines take the stream left free, and are dropped when both are taken so that each
    // stream
    // stays machine-readable (the event log holds the same facts).
    PrintWriter events =
        !json ? out : logFormat.json() ? new PrintWriter(java.io.Writer.nullWriter()) : err;
    JournalFile journalFile =
        new JournalFile(
            journal != null ? journal : JournalPaths.run(experiment.id(), Clock.system().now()));
    // One history wherever --journal puts the journal: one alert's runs are never split by folder.
    StoreLocation store = history.location(JournalPaths.DIRECTORY);
    // two runs never drill one target at once: the lock per target in the history's place, held
    // until the drill has rolled back; nothing is touched without it
    PrintWriter refusal = json ? err : events;
    TargetLockPlace place;
    try {
      place = TargetLockPlace.open(store);
    } catch (HistoryException e) {
      return notRun(refusal, "cannot take the target locks: " + e.getMessage());
    }
    DrillResult result;
    try (place) {
      TargetLocks.Outcome lock;
      try {
        lock = place.locks().tryLock(experiment);
      } catch (IOException e) {
        return notRun(refusal, "cannot take the target locks: " + e.getMessage());
      }
      if (lock instanceof TargetLocks.Refused refused) {
        return notRun(refusal, refused.busy().text());
      }
      try (TargetLocks.Held held = ((TargetLocks.Taken) lock).held()) {
        result = drill(experiment, journalFile, events, err, json);
      }
    }
    if (!noReport) {
      ReportBeside.write(journalFile, events);
    }
    HistoryRecorder.record(store, result.journal().json(), journalFile.path().toString())
        .ifPresent(o -> (o.warning() ? err : events).println(o.line()));
    if (json) {
      out.println(JournalFile.toJson(result.journal()));
    }
    out.flush();
    return ExitCode.of(result);
  }

  private DrillResult drill(
      Experiment experiment,
      JournalFile journalFile,
      PrintWriter events,
      PrintWriter err,
      boolean json) {
    try (LiveStatus status =
        new LiveStatus(
            events,
            System.console() != null && !json,
            experiment.method().duration(),
            Clock.system(),
            TerminalWidth.current(),
            json ? new Colour(false) : common.colour())) {
      status.startTicking(Duration.ofSeconds(1));
      return DrillRunner.run(
          experiment,
          file.toString(),
          journalFile,
          status,
          status.writer(),
          logFormat.copy(err),
          Optional.ofNullable(abortFile));
    }
  }

  /** Before anything ran: no journal, nothing injected, the line says why. */
  private static int notRun(PrintWriter out, String why) {
    out.println("verdict not-run: " + why + "; nothing was touched");
    out.flush();
    return ExitCode.NOT_RUN;
  }
}
