package dev.firedrill.cli;

import dev.firedrill.fault.FaultKinds;
import dev.firedrill.time.Durations;
import dev.firedrill.yaml.NearestName;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

@Command(
    name = "init",
    description = {
      "Write a commented experiment scaffold for one fault kind, valid as written, with a TODO"
          + " wherever you must decide (SLI queries, thresholds, targets, expected alerts).",
      "With --from-rules and --alert, the expected alert, its detection floor and a steady state"
          + " built on the alert's own recording rules are filled in from your rule files."
    })
final class InitCommand implements Callable<Integer> {

  private static final String TEMPLATES = "init/";

  @Option(
      names = "--fault",
      paramLabel = "KIND",
      required = true,
      description =
          "The fault kind: http-latency, http-error, process-kill, ... (see firedrill schema).")
  String fault;

  @Option(
      names = "--prometheus",
      paramLabel = "URL",
      defaultValue = "http://127.0.0.1:9090",
      description = "The Prometheus the drill measures with (default: ${DEFAULT-VALUE}).")
  String prometheus;

  @Option(
      names = "--from-rules",
      paramLabel = "FILE|DIR",
      arity = "1..*",
      description =
          "Alerting and recording rule files, or directories of them (*.yml, *.yaml); give the"
              + " recording rules too, the steady state is built on them.")
  List<Path> rules;

  @Option(
      names = "--scrape-interval",
      paramLabel = "DURATION",
      defaultValue = "1m",
      description = "The scrape interval the floor assumes (default: ${DEFAULT-VALUE}).")
  String scrapeInterval;

  @Option(
      names = "--evaluation-interval",
      paramLabel = "DURATION",
      defaultValue = "1m",
      description =
          "The evaluation interval of groups without their own (default: ${DEFAULT-VALUE}).")
  String evaluationInterval;

  @Option(
      names = "--alert",
      paramLabel = "NAME",
      description = "The alert the drill must trigger, from --from-rules.")
  String alert;

  @Option(
      names = {"-o", "--output"},
      paramLabel = "FILE",
      defaultValue = "experiment.yaml",
      description =
          "Where to write it; - for stdout (default: ${DEFAULT-VALUE}, never overwritten).")
  String output;

  @Mixin CommonOptions common;

  @Spec picocli.CommandLine.Model.CommandSpec spec;

  @Override
  public Integer call() throws IOException {
    FaultKinds kinds = FaultKinds.installed();
    if (!kinds.names().contains(fault)) {
      throw new UserError(
          "firedrill init: --fault "
              + fault
              + ": "
              + NearestName.suggest(fault, kinds.names(), "expected one of: "),
          ExitCode.INVALID);
    }
    String kindTemplate = resource(fault + ".yaml");
    if (kindTemplate == null) {
      throw new UserError(
          "firedrill init: no scaffold for "
              + fault
              + " yet; write its method.faults entry by hand (firedrill schema lists its keys)",
          ExitCode.INVALID);
    }
    UrlOptions.refuseUserInfo("firedrill init", "--prometheus", prometheus);
    if (!prometheus.matches("(?i)https?://[^/\\s]+.*")) {
      // Written as is into the scaffold, a wrong url would only be refused by validate, later.
      throw new UserError(
          "firedrill init: --prometheus "
              + prometheus
              + ": expected an http or https URL such as http://127.0.0.1:9090",
          ExitCode.INVALID);
    }
    if ((rules == null) != (alert == null)) {
      throw new UserError(
          "firedrill init: --from-rules and --alert go together (the rules, and the alert in them)",
          ExitCode.INVALID);
    }
    Optional<InitFromRules.Filled> filled =
        rules == null
            ? Optional.empty()
            : Optional.of(
                InitFromRules.fill(
                    rules,
                    alert,
                    interval("--scrape-interval", scrapeInterval),
                    interval("--evaluation-interval", evaluationInterval)));
    String text = render(kindTemplate, filled);
    PrintWriter out = spec.commandLine().getOut();
    if ("-".equals(output)) {
      out.print(text);
    } else {
      Path file = Path.of(output);
      if (Files.exists(file)) {
        throw new UserError(
            "firedrill init: " + file + " exists; choose another with -o FILE", ExitCode.INVALID);
      }
      Files.writeString(file, text);
      out.println(
          "wrote "
              + file
              + ": fill in its TODOs, then firedrill validate "
              + file
              + " && firedrill plan "
              + file);
    }
    out.flush();
    return ExitCode.HELD;
  }

  private String render(String kindTemplate, Optional<InitFromRules.Filled> filled) {
    String[] parts = kindTemplate.split("--- blast_radius\n", 2);
    Duration within = filled.map(InitFromRules.Filled::within).orElse(Duration.ZERO);
    Duration duration =
        within.compareTo(Duration.ofMinutes(2)) > 0 ? within : Duration.ofMinutes(2);
    Map<String, String> values =
        Map.of(
            "prometheus", prometheus,
            "slis", filled.map(InitFromRules.Filled::slis).orElse(DEFAULT_SLIS),
            "alerts", filled.map(InitFromRules.Filled::alerts).orElse(DEFAULT_ALERTS),
            "abort_sli", filled.map(InitFromRules.Filled::abortSli).orElse("error_ratio"),
            "abort_bound",
                filled.map(InitFromRules.Filled::abortBound).orElse("above: 0.05 # TODO"),
            "fault", parts[0].stripTrailing(),
            "blast", parts.length > 1 ? parts[1].stripTrailing() : "",
            "duration", Durations.format(duration),
            "ttl", Durations.format(duration.plusMinutes(3)),
            "max_duration", Durations.format(duration.plusMinutes(10)));
    // The kind's fragment has placeholders of its own (its ttl): filled in a second pass.
    return fill(fill(resource("experiment.yaml"), values), values);
  }

  private static final Pattern PLACEHOLDER = Pattern.compile("\\{\\{([a-z_]+)\\}\\}");

  private static String fill(String template, Map<String, String> values) {
    Matcher placeholder = PLACEHOLDER.matcher(template);
    StringBuilder text = new StringBuilder();
    while (placeholder.find()) {
      placeholder.appendReplacement(
          text, Matcher.quoteReplacement(values.get(placeholder.group(1))));
    }
    placeholder.appendTail(text);
    return text.toString();
  }

  private static final String DEFAULT_SLIS =
      String.join(
          "\n",
          List.of(
              "    # TODO: your SLIs, best the recording rules your alerts use (init --from-rules"
                  + " does that).",
              "    - name: error_ratio",
              "      query: sum(rate(http_requests_total{code=~\"5..\"}[1m])) /"
                  + " sum(rate(http_requests_total[1m])) # TODO",
              "      max: 0.01 # TODO: the highest error ratio that is still steady state"));

  private static final String DEFAULT_ALERTS =
      String.join(
          "\n",
          List.of(
              "  # TODO: the alerts this fault must trigger (init --from-rules DIR --alert NAME"
                  + " fills one in):",
              "  # alerts:",
              "  #   - alert: CheckoutErrorBudgetBurn",
              "  #     within: 5m"));

  private static Duration interval(String option, String value) {
    Duration duration = Durations.parseOrNull(value);
    if (duration == null || duration.isZero()) {
      throw new UserError(
          "firedrill init: " + option + " " + value + ": " + Durations.EXPECTED, ExitCode.INVALID);
    }
    return duration;
  }

  private static String resource(String name) {
    try (InputStream in = InitCommand.class.getResourceAsStream(TEMPLATES + name)) {
      return in == null ? null : new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
