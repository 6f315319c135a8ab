package dev.firedrill.cli;

import dev.firedrill.alerting.receiver.WebhookReceiver;
import dev.firedrill.engine.DrillResult;
import dev.firedrill.engine.JournalFile;
import dev.firedrill.engine.JournalPaths;
import dev.firedrill.experiment.Experiment;
import dev.firedrill.history.DetectionRecord;
import dev.firedrill.history.HistoryException;
import dev.firedrill.history.HistoryRecorder;
import dev.firedrill.history.HistoryStore;
import dev.firedrill.history.StoreLocation;
import dev.firedrill.history.Tolerance;
import dev.firedrill.programme.coverage.Coverage;
import dev.firedrill.programme.coverage.RuleSet;
import dev.firedrill.programme.report.SuiteReport;
import dev.firedrill.programme.suite.Cooldown;
import dev.firedrill.programme.suite.DrillLauncher;
import dev.firedrill.programme.suite.LiveCooldown;
import dev.firedrill.programme.suite.Suite;
import dev.firedrill.programme.suite.SuiteException;
import dev.firedrill.programme.suite.SuiteListener;
import dev.firedrill.programme.suite.SuiteLoader;
import dev.firedrill.programme.suite.SuiteResult;
import dev.firedrill.programme.suite.SuiteRunner;
import dev.firedrill.prometheus.HttpPrometheusClient;
import dev.firedrill.prometheus.PrometheusConfig;
import dev.firedrill.prometheus.PrometheusException;
import dev.firedrill.time.Clock;
import dev.firedrill.time.Durations;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

@Command(
    name = "suite",
    description =
        "Run a suite's drills one after another, cooling down between them, and write one report.")
final class SuiteCommand implements Callable<Integer> {

  private static final DateTimeFormatter STAMP =
      DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss'Z'").withZone(ZoneOffset.UTC);

  @Parameters(paramLabel = "FILE", description = "The suite file (YAML or JSON).")
  Path file;

  @Option(
      names = "--keep-going",
      description =
          "Run the remaining drills after one is aborted, fails to inject or needs a human.")
  boolean keepGoing;

  @Option(
      names = "--journals",
      paramLabel = "DIR",
      description = "Where the drills' journals and reports go (default: journals).")
  Path journals = JournalPaths.DIRECTORY;

  @Option(
      names = "--report-dir",
      paramLabel = "DIR",
      description =
          "Where the suite's report goes: <suite>-<UTC time>.html, .md, .xml (default: the journals"
              + " directory).")
  Path reportDir;

  @Mixin LogFormatOption logFormat;

  @Mixin HistoryOptions history;

  @Mixin CommonOptions common;

  @Spec picocli.CommandLine.Model.CommandSpec spec;

  @Override
  public Integer call() throws InterruptedException {
    Suite suite;
    try {
      suite = SuiteLoader.load(file);
    } catch (SuiteException e) {
      throw new UserError(e.getMessage(), ExitCode.INVALID, e);
    }
    PrintWriter out = spec.commandLine().getOut();
    PrintWriter err = spec.commandLine().getErr();
    Clock clock = Clock.system();
    Map<String, String> env = System.getenv();
    // The history run and history read, whatever --journals says: one alert's runs in one place.
    StoreLocation store = history.location(JournalPaths.DIRECTORY);
    DrillLauncher launcher = (entry, index, total) -> drill(entry, index, total, out, err, store);
    Cooldown cooldown =
        new LiveCooldown(
            experiment ->
                new LiveCooldown.Probes(
                    Wiring.measurer(experiment, env, clock),
                    Wiring.prometheus(experiment, env)::alerts,
                    standIn(experiment, env, clock)),
            clock);
    // two runs never drill one target at once: a lock per target in the history's place
    SuiteResult result;
    try (TargetLockPlace locks = lockPlace(store)) {
      result =
          new SuiteRunner(launcher, cooldown, new Lines(out), Optional.of(locks.locks()))
              .run(suite, keepGoing);
    }
    SuiteReport report = SuiteReport.of(result);
    try {
      List<DetectionRecord> records = records(store);
      report = report.withHistory(records).withCoverage(coverage(suite, records, env, clock));
    } catch (PrometheusException | HistoryException e) {
      err.println("suite report: no trends and no coverage section: " + e.getMessage());
    }
    Path dir = reportDir != null ? reportDir : journals;
    try {
      for (Path written : report.write(dir, suite.id() + "-" + STAMP.format(clock.now()))) {
        out.println("suite report: " + written);
      }
    } catch (IOException e) {
      err.println("suite report: not written to " + dir + ": " + e.getMessage());
    }
    out.println("suite " + suite.id() + ": exit " + result.exitCode());
    out.flush();
    return result.exitCode();
  }

  /**
   * One drill down the path {@code run} takes: {@link DrillRunner}, the report beside the journal,
   * the history row, {@link ExitCode}.
   */
  private DrillLauncher.Launched drill(
      Suite.Entry entry,
      int index,
      int total,
      PrintWriter out,
      PrintWriter err,
      StoreLocation store) {
    Experiment experiment = entry.experiment();
    JournalFile journal =
        new JournalFile(
            journals.resolve(
                JournalPaths.run(experiment.id(), Clock.system().now()).getFileName()));
    DrillResult result;
    try (LiveStatus status =
        new LiveStatus(
            out,
            System.console() != null,
            experiment.method().duration(),
            Clock.system(),
            TerminalWidth.current(),
            common.colour(),
            "drill " + index + " of " + total + " " + experiment.id() + " | ")) {
      status.startTicking(Duration.ofSeconds(1));
      result =
          DrillRunner.run(
              experiment,
              entry.file().toString(),
              journal,
              status,
              status.writer(),
              logFormat.copy(err),
              Optional.empty());
    }
    ReportBeside.write(journal, out);
    HistoryRecorder.record(store, result.journal().json(), journal.path().toString())
        .ifPresent(o -> (o.warning() ? err : out).println(o.line()));
    return new DrillLauncher.Launched(result, journal.path(), ExitCode.of(result));
  }

  /**
   * The coverage of the rules the first drill's Prometheus evaluates by the suite's experiments,
   * from the history as the suite left it.
   */
  private static Coverage.Report coverage(
      Suite suite, List<DetectionRecord> history, Map<String, String> env, Clock clock)
      throws PrometheusException {
    HttpPrometheusClient prometheus = Wiring.prometheus(suite.entries().get(0).experiment(), env);
    PrometheusConfig config = prometheus.parsedConfig();
    List<RuleSet.Alert> alerts =
        RuleSet.fromApi(prometheus.rules(), config.scrapeInterval(), config.evaluationInterval());
    return Coverage.of(
        alerts,
        suite.entries().stream().map(Suite.Entry::experiment).toList(),
        history,
        clock.now(),
        Duration.ofDays(90),
        Tolerance.parse(Tolerance.DEFAULT_TEXT));
  }

  private static TargetLockPlace lockPlace(StoreLocation store) {
    try {
      return TargetLockPlace.open(store);
    } catch (HistoryException e) {
      throw new UserError("history: " + e.getMessage(), ExitCode.INVALID, e);
    }
  }

  private static List<DetectionRecord> records(StoreLocation store) throws HistoryException {
    try (HistoryStore records = HistoryStore.open(store)) {
      return records.query(Optional.empty(), Optional.empty());
    }
  }

  /**
   * A stand-in for the drill's webhook receiver while the suite cools down, so Alertmanager's
   * resolved notification lands; none when the address is taken (the wait then skips that check).
   */
  private static Optional<WebhookReceiver> standIn(
      Experiment experiment, Map<String, String> env, Clock clock) {
    try {
      return Wiring.receiver(experiment, env, clock);
    } catch (UserError e) {
      return Optional.empty();
    }
  }

  /** The suite's own lines between the drills' lines. */
  private static final class Lines implements SuiteListener {
    private final PrintWriter out;

    Lines(PrintWriter out) {
      this.out = out;
    }

    @Override
    public void drillStarting(int index, int total, Suite.Entry entry) {
      print(
          "suite: drill "
              + index
              + " of "
              + total
              + ": "
              + entry.experiment().id()
              + " ("
              + entry.file()
              + ")");
    }

    @Override
    public void drillEnded(int index, int total, SuiteResult.Ran ran) {
      DrillResult r = ran.launched().result();
      print(
          "suite: drill "
              + index
              + " of "
              + total
              + " ended "
              + r.verdict().text()
              + r.observability().map(o -> ", alerts " + o.verdict().text()).orElse("")
              + (r.rollbackOk() ? "" : ", ROLLBACK NEEDS A HUMAN")
              + " (exit "
              + ran.launched().exitCode()
              + ")");
    }

    @Override
    public void coolingDown(int index, int total, Suite.Entry previous) {
      print(
          "suite: cooling down before drill "
              + index
              + ": waiting for "
              + previous.experiment().id()
              + "'s steady state and for its alerts to resolve");
    }

    @Override
    public void cooledDown(int index, int total, Cooldown.Waited waited) {
      print(
          waited.quiet()
              ? "suite: quiet after " + Durations.seconds(waited.waited())
              : "suite: cooldown ran out after "
                  + Durations.seconds(waited.waited())
                  + "; still unsettled: "
                  + String.join(", ", waited.still()));
    }

    @Override
    public void stopping(int index, int total, String why) {
      print("suite: drills " + index + " to " + total + " " + why);
    }

    @Override
    public void locked(int index, int total, String why) {
      print("suite: drill " + index + " of " + total + " " + why);
    }

    private void print(String line) {
      out.println(line);
      out.flush();
    }
  }
}
