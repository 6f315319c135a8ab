package dev.firedrill.cli;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.firedrill.alerting.lint.Finding;
import dev.firedrill.alerting.lint.LintContext;
import dev.firedrill.alerting.lint.RulesLint;
import dev.firedrill.promconfig.GlobalConfig;
import dev.firedrill.time.Durations;
import dev.firedrill.yaml.Problem;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.stream.Collectors;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

@Command(
    name = "lint",
    description = {
      "Lint rule files, and every rule file (*.yml, *.yaml) in a directory, as one set: alerts without a"
          + " runbook_url, alerts whose expression cannot filter (no comparison and no absent()), alerts whose input"
          + " series have no absent() companion, range windows shorter than four scrape intervals, and a for shorter"
          + " than the evaluation interval. One line per finding."
    },
    exitCodeListHeading = "%nExit codes:%n",
    exitCodeList = {
      "0:no findings",
      "1:findings",
      "2:unreadable input (a file, a field, a duration)"
    })
final class RulesLintCommand implements Callable<Integer> {

  @Parameters(
      paramLabel = "FILE|DIR",
      arity = "1..*",
      description = "Rule files, or directories of rule files (not searched recursively).")
  List<Path> paths;

  @Option(
      names = "--scrape-interval",
      paramLabel = "DURATION",
      description =
          "The scrape interval (default: the longest one in --prometheus-config, else 1m).")
  String scrapeInterval;

  @Option(
      names = "--evaluation-interval",
      paramLabel = "DURATION",
      description =
          "The global evaluation interval (default: the one in --prometheus-config, else 1m).")
  String evaluationInterval;

  @Option(
      names = "--prometheus-config",
      paramLabel = "FILE",
      description =
          "A prometheus.yml: its intervals, and its rule_files for recording rules and companion alerts.")
  Path prometheusConfig;

  @Mixin OutputOption output;

  @Mixin CommonOptions common;

  @Spec picocli.CommandLine.Model.CommandSpec spec;

  @Override
  public Integer call() {
    List<Problem> problems = new ArrayList<>();
    Duration scrape = GlobalConfig.DEFAULT_SCRAPE_INTERVAL;
    Duration evaluation = GlobalConfig.DEFAULT_EVALUATION_INTERVAL;
    String scrapeSource = "Prometheus's default";
    String evaluationSource = "Prometheus's default";
    List<Path> context = List.of();
    if (prometheusConfig != null) {
      LintContext config = LintContext.read(prometheusConfig, problems);
      if (config == null) {
        throw unreadable(problems);
      }
      scrape = config.scrapeInterval();
      evaluation = config.evaluationInterval();
      scrapeSource = prometheusConfig.toString();
      evaluationSource = prometheusConfig.toString();
      context = config.ruleFiles();
    }
    if (scrapeInterval != null) {
      scrape = option("--scrape-interval", scrapeInterval);
      scrapeSource = "--scrape-interval";
    }
    if (evaluationInterval != null) {
      evaluation = option("--evaluation-interval", evaluationInterval);
      evaluationSource = "--evaluation-interval";
    }
    RulesLint.Report report =
        RulesLint.lint(
            paths,
            new RulesLint.Settings(scrape, scrapeSource, evaluation, evaluationSource),
            context);
    PrintWriter out = spec.commandLine().getOut();
    if (output.json()) {
      ObjectNode doc = OutputOption.document("rules lint");
      ArrayNode inputs = doc.putArray("paths");
      paths.forEach(path -> inputs.add(path.toString()));
      doc.put("files", report.files());
      doc.put("rules", report.rules());
      doc.put("scrape_interval_seconds", scrape.toMillis() / 1000.0);
      doc.put("scrape_interval_source", scrapeSource);
      doc.put("evaluation_interval_seconds", evaluation.toMillis() / 1000.0);
      doc.put("evaluation_interval_source", evaluationSource);
      ArrayNode findings = doc.putArray("findings");
      for (Finding finding : report.findings()) {
        ObjectNode row = findings.addObject();
        row.put("file", finding.file());
        row.put("group", finding.group());
        row.put("rule", finding.rule());
        row.put("kind", finding.kind());
        row.put("message", finding.message());
      }
      ArrayNode errors = doc.putArray("errors");
      report.problems().forEach(problem -> errors.add(problem.toString()));
      OutputOption.print(out, doc);
      return report.problems().isEmpty() ? ExitCode.of(report) : ExitCode.INVALID;
    }
    for (Finding finding : report.findings()) {
      out.println(finding);
    }
    if (!report.problems().isEmpty()) {
      throw unreadable(report.problems());
    }
    out.println(
        paths.stream().map(Path::toString).collect(Collectors.joining(" "))
            + ": "
            + (report.findings().isEmpty() ? "clean" : report.findings().size() + " finding(s)")
            + " in "
            + report.files()
            + " file(s), "
            + report.rules()
            + " rule(s); scrape interval "
            + Durations.format(scrape)
            + " ("
            + scrapeSource
            + "), evaluation interval "
            + Durations.format(evaluation)
            + " ("
            + evaluationSource
            + ")");
    return ExitCode.of(report);
  }

  private static Duration option(String name, String value) {
    Duration duration = Durations.parseOrNull(value);
    if (duration == null || duration.isZero()) {
      throw new UserError(
          "firedrill: " + name + " " + value + ": expected a duration such as 15s or 1m",
          ExitCode.INVALID);
    }
    return duration;
  }

  private static UserError unreadable(List<Problem> problems) {
    return new UserError(
        problems.stream().map(Problem::toString).collect(Collectors.joining("\n")),
        ExitCode.INVALID);
  }
}
