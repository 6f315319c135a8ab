package dev.firedrill.cli;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.firedrill.engine.JournalPaths;
import dev.firedrill.experiment.Experiment;
import dev.firedrill.format.ControlChars;
import dev.firedrill.history.DetectionRecord;
import dev.firedrill.history.HistoryException;
import dev.firedrill.history.HistoryStore;
import dev.firedrill.history.Tolerance;
import dev.firedrill.programme.coverage.Coverage;
import dev.firedrill.programme.coverage.CoverageText;
import dev.firedrill.programme.coverage.ExperimentSet;
import dev.firedrill.programme.coverage.RuleSet;
import dev.firedrill.programme.suite.SuiteException;
import dev.firedrill.prometheus.HttpPrometheusClient;
import dev.firedrill.prometheus.PrometheusConfig;
import dev.firedrill.prometheus.PrometheusException;
import dev.firedrill.time.Clock;
import dev.firedrill.time.Durations;
import java.io.PrintWriter;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

@Command(
    name = "coverage",
    description =
        "Which alerts have a drill: a row per alerting rule with its last drill and its status"
            + " (never drilled, stale, regressed, ok).")
final class CoverageCommand implements Callable<Integer> {

  @Option(
      names = "--rules",
      paramLabel = "PATH",
      description = "A rule file or a directory of them (PrometheusRule objects too); repeatable.")
  List<Path> rules = new ArrayList<>();

  @Option(
      names = "--prometheus",
      paramLabel = "URL",
      description =
          "Read the rules a live Prometheus evaluates (/api/v1/rules), and its intervals.")
  String prometheus;

  @Option(
      names = "--experiments",
      paramLabel = "PATH",
      description = "A suite file, a directory of experiment files, or one; repeatable.")
  List<Path> experiments = new ArrayList<>();

  @Option(
      names = "--max-age",
      paramLabel = "DURATION",
      description = "An alert last drilled longer ago is stale (default: 90d).")
  String maxAge = "90d";

  @Option(
      names = "--fail-under",
      paramLabel = "PERCENT",
      description = "Exit 1 when fewer alerts than this were drilled within --max-age, e.g. 80%%.")
  String failUnder;

  @Option(
      names = "--tolerance",
      paramLabel = "RATIO,SECONDS",
      description = "How much slower a detection may get before it regressed (default: 50%%,2s).")
  String tolerance = Tolerance.DEFAULT_TEXT;

  @Option(
      names = "--scrape-interval",
      paramLabel = "DURATION",
      description = "For the floors, without --prometheus (default: 1m, Prometheus's own).")
  String scrapeInterval = "1m";

  @Option(
      names = "--evaluation-interval",
      paramLabel = "DURATION",
      description =
          "For the floors of groups without an interval, without --prometheus (default: 1m).")
  String evaluationInterval = "1m";

  @Option(names = "--json", description = "The same as --output json (kept).")
  boolean json;

  @Mixin OutputOption output;

  @Mixin HistoryOptions history;

  @Mixin CommonOptions common;

  @Spec picocli.CommandLine.Model.CommandSpec spec;

  @Override
  public Integer call() {
    UrlOptions.refuseUserInfo("coverage", "--prometheus", prometheus);
    if (rules.isEmpty() && prometheus == null) {
      throw new UserError(
          "coverage: expected --rules PATH (rule files or directories) or --prometheus URL",
          ExitCode.INVALID);
    }
    Duration age = duration("--max-age", maxAge);
    Duration scrape = duration("--scrape-interval", scrapeInterval);
    Duration evaluation = duration("--evaluation-interval", evaluationInterval);
    Optional<Double> floorPercent = percent();
    Tolerance allowed;
    try {
      allowed = Tolerance.parse(tolerance);
    } catch (IllegalArgumentException e) {
      throw new UserError("--tolerance " + tolerance + ": " + e.getMessage(), ExitCode.INVALID);
    }
    List<RuleSet.Alert> alerts = new ArrayList<>();
    if (prometheus != null) {
      alerts.addAll(live(scrape, evaluation));
    }
    try {
      alerts.addAll(RuleSet.read(rules, scrape, evaluation));
    } catch (RuleSet.Unreadable e) {
      throw new UserError(e.getMessage(), ExitCode.INVALID, e);
    }
    List<Experiment> drills;
    try {
      drills = ExperimentSet.read(experiments);
    } catch (SuiteException e) {
      throw new UserError(e.getMessage(), ExitCode.INVALID, e);
    }
    List<DetectionRecord> records;
    try (HistoryStore store = HistoryStore.open(history.location(JournalPaths.DIRECTORY))) {
      records = store.query(Optional.empty(), Optional.empty());
    } catch (HistoryException e) {
      throw new UserError("history: " + e.getMessage(), ExitCode.INVALID, e);
    }
    Coverage.Report report =
        Coverage.of(distinct(alerts), drills, records, Clock.system().now(), age, allowed);
    PrintWriter out = spec.commandLine().getOut();
    if (json || output.json()) {
      ObjectNode doc = OutputOption.document("coverage");
      CoverageText.json(report, doc);
      OutputOption.print(out, doc);
    } else {
      out.print(CoverageText.table(report));
      out.flush();
    }
    return floorPercent.isPresent() && report.percent() < floorPercent.get()
        ? ExitCode.DEVIATED
        : ExitCode.HELD;
  }

  /** Parsed here rather than by picocli, whose error would quote the value. */
  private URI prometheusUrl() {
    try {
      URI url = new URI(prometheus);
      if (url.getHost() != null
          && ("http".equalsIgnoreCase(url.getScheme())
              || "https".equalsIgnoreCase(url.getScheme()))) {
        return url;
      }
    } catch (URISyntaxException e) {
      // refused below
    }
    throw new UserError(
        "coverage: --prometheus "
            + ControlChars.quote(prometheus)
            + ": expected an http or https URL such as http://127.0.0.1:9090",
        ExitCode.INVALID);
  }

  private List<RuleSet.Alert> live(Duration scrape, Duration evaluation) {
    HttpPrometheusClient client =
        new HttpPrometheusClient(prometheusUrl(), Duration.ofSeconds(10), Optional.empty());
    try {
      Duration s = scrape;
      Duration e = evaluation;
      try {
        PrometheusConfig config = client.parsedConfig();
        s = config.scrapeInterval();
        e = config.evaluationInterval();
      } catch (PrometheusException ignored) {
        // a backend without /api/v1/status/config (Mimir, vmalert): the options' intervals stand
      }
      return RuleSet.fromApi(client.rules(), s, e);
    } catch (PrometheusException e) {
      throw new UserError(
          "--prometheus " + prometheus + ": cannot read its rules: " + e.getMessage(),
          ExitCode.INVALID,
          e);
    }
  }

  /** An alert both in a rule file and on the server is one row. */
  private static List<RuleSet.Alert> distinct(List<RuleSet.Alert> alerts) {
    java.util.Map<String, RuleSet.Alert> byName = new java.util.LinkedHashMap<>();
    alerts.forEach(a -> byName.putIfAbsent(a.name(), a));
    return List.copyOf(byName.values());
  }

  private static Duration duration(String option, String text) {
    try {
      return Durations.parse(text);
    } catch (IllegalArgumentException e) {
      throw new UserError(option + " " + text + ": " + Durations.EXPECTED, ExitCode.INVALID);
    }
  }

  private Optional<Double> percent() {
    if (failUnder == null) {
      return Optional.empty();
    }
    String text = failUnder.strip();
    try {
      double value =
          Double.parseDouble(text.endsWith("%") ? text.substring(0, text.length() - 1) : text);
      if (value < 0 || value > 100) {
        throw new NumberFormatException();
      }
      return Optional.of(value);
    } catch (NumberFormatException e) {
      throw new UserError(
          "--fail-under " + failUnder + ": expected a percentage from 0% to 100%, such as 80%",
          ExitCode.INVALID);
    }
  }
}
