package dev.firedrill.cli;

import dev.firedrill.engine.DrillResult;
import dev.firedrill.engine.JournalFile;
import dev.firedrill.engine.JournalPaths;
import dev.firedrill.experiment.Experiment;
import dev.firedrill.experiment.Sli;
import dev.firedrill.history.HistoryRecorder;
import dev.firedrill.history.StoreLocation;
import dev.firedrill.lab.stack.LabPorts;
import dev.firedrill.lab.stack.LabStack;
import dev.firedrill.lab.stack.StackChoice;
import dev.firedrill.time.Clock;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

@Command(
    name = "demo",
    description =
        "Start the lab on free loopback ports (payments, the fault proxy, checkout, "
            + "open-loop load, Prometheus and Alertmanager: the real ones when installed, else embedded), run a fixture drill end to end, print its verdict "
            + "and journal, and stop everything (on Ctrl-C too). Exits with the drill's exit code.")
final class DemoCommand implements Callable<Integer> {

  @Option(
      names = "--experiment",
      paramLabel = "FILE",
      description =
          "The drill to run; its lab addresses are moved to the demo's ports (default: the one "
              + "bundled in firedrill, a copy of fixtures/experiments/payments-latency.yaml).")
  Path experimentFile;

  @Option(
      names = "--dir",
      paramLabel = "DIR",
      description =
          "Where the experiment copy, the journal and the lab's logs go (default: journals/demo-<UTC time>).")
  Path dir;

  @Mixin LabStackOptions lab;

  @Mixin LogFormatOption logFormat;

  @Mixin HistoryOptions history;

  @Mixin CommonOptions common;

  @Spec picocli.CommandLine.Model.CommandSpec spec;

  private static final Duration SETTLE = Duration.ofSeconds(45);

  @Override
  public Integer call() throws IOException, InterruptedException {
    PrintWriter out = spec.commandLine().getOut();
    StackChoice choice = lab.stack("demo");
    Path workDir =
        (dir != null ? dir : JournalPaths.demoDirectory(Clock.system().now())).toAbsolutePath();
    Files.createDirectories(workDir);
    Path source =
        experimentFile != null
            ? experimentFile
            : Bundled.extractDemoExperiment(workDir.resolve("config"));
    Experiment original = Wiring.load(source);
    LabPorts ports = LabPorts.free();
    LabStackOptions.Configs configs = lab.configs(workDir);
    LabStack.Settings settings =
        new LabStack.Settings(
            ports,
            configs.labDir(),
            configs.alertRules(),
            workDir,
            LabStackOptions.firedrillCommand(),
            lab.rate,
            Duration.ofHours(1),
            Optional.of(original.id()),
            false);

    choice.lines().forEach(line -> out.println("demo: " + line));
    out.println("demo: starting the lab in " + workDir);
    out.flush();
    try (LabStack stack = startLab(settings, choice, out)) {
      Path file =
          Files.writeString(
              workDir.resolve(source.getFileName()), ports.rewrite(Files.readString(source)));
      Experiment experiment = Wiring.load(file);
      awaitSteadyState(stack, experiment, out);
      out.println();
      out.println("demo: firedrill run " + file);
      out.flush();
      JournalFile journal = new JournalFile(JournalPaths.inDirectory(workDir, experiment.id()));
      // Demo runs share the history of the default journals directory, so that `firedrill history`
      // after a few demos shows them; a demo given its own --dir keeps its history there.
      StoreLocation store = history.location(dir != null ? workDir : JournalPaths.DIRECTORY);
      DrillResult result =
          DrillRunner.run(
              experiment,
              file.toString(),
              journal,
              DrillRunner.console(out),
              out,
              logFormat.copy(spec.commandLine().getErr()),
              Optional.empty());
      int exit = ExitCode.of(result);
      out.println();
      out.println(
          "demo: "
              + experiment.id()
              + " ended "
              + result.verdict().text()
              + " (exit "
              + exit
              + ")");
      out.println("demo: journal " + journal.path());
      ReportBeside.write(journal, out);
      HistoryRecorder.record(store, result.journal().json(), journal.path().toString())
          .ifPresent(outcome -> out.println("demo: " + outcome.line()));
      out.println("demo: stopping the lab");
      out.flush();
      return exit;
    }
  }

  /**
   * Waits, at most {@link #SETTLE} in all, until each of the drill's steady-state SLIs is within
   * its bounds. When traffic first shows, the lab's first seconds (every JVM cold, on a busy
   * machine orders pending and a p99 near a second) are still in the SLIs' 5 s windows, and a drill
   * started then does not run. Not settled in time, the drill runs anyway and its own check
   * decides.
   */
  private static void awaitSteadyState(LabStack stack, Experiment experiment, PrintWriter out)
      throws InterruptedException {
    out.println("demo: waiting for checkout's steady state (the drill's SLIs within their bounds)");
    out.flush();
    Clock clock = Clock.system();
    long deadline = clock.nanoTime() + SETTLE.toNanos();
    try {
      for (Sli sli : experiment.steadyState().slis()) {
        stack.awaitQuery(
            sli.withinBoundsQuery(), Duration.ofNanos(Math.max(0, deadline - clock.nanoTime())));
      }
    } catch (IllegalStateException e) {
      out.println(
          "demo: not settled within "
              + SETTLE.toSeconds()
              + "s, the drill's own check decides: "
              + e.getMessage());
    }
  }

  private static LabStack startLab(LabStack.Settings settings, StackChoice choice, PrintWriter out)
      throws InterruptedException {
    try {
      return LabStack.start(
          settings,
          choice.prometheus(),
          choice.alertmanager(),
          Clock.system(),
          line -> {
            out.println("demo: " + line);
            out.flush();
          });
    } catch (IllegalStateException | UncheckedIOException e) {
      throw new UserError(
          "firedrill demo: the lab did not start: " + e.getMessage(), ExitCode.INVALID, e);
    }
  }
}
