package dev.firedrill.cli;

import dev.firedrill.alerting.Floor;
import dev.firedrill.alerting.Floors;
import dev.firedrill.alerting.RuleBook;
import dev.firedrill.alerting.lint.RuleFile;
import dev.firedrill.experiment.Numbers;
import dev.firedrill.time.Durations;
import dev.firedrill.yaml.NearestName;
import dev.firedrill.yaml.Problem;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * What {@code init --from-rules} fills in from an alert's rule files: the expected alert with a
 * {@code within} above its detection floor (core's {@link Floors}, the same arithmetic the drill's
 * detection table uses), and a steady state on the recording rules the alert reads.
 */
final class InitFromRules {

  /** The YAML lines for the template, and the {@code within} the method must cover. */
  record Filled(String slis, String alerts, String abortSli, String abortBound, Duration within) {}

  private record Recorded(String name, String selector) {}

  private InitFromRules() {}

  static Filled fill(List<Path> paths, String alertName, Duration scrape, Duration evaluation) {
    List<Problem> problems = new ArrayList<>();
    List<RuleFile> files = RuleFile.readAll(paths, problems);
    if (!problems.isEmpty()) {
      throw new UserError(
          problems.stream().map(Problem::toString).collect(Collectors.joining("\n")),
          ExitCode.INVALID);
    }
    RuleBook book = RuleBook.of(files, scrape, evaluation);
    Map<String, String> recording = book.recording();
    RuleBook.AlertRule rule =
        book.alert(alertName)
            .orElseThrow(
                () ->
                    new UserError(
                        "firedrill init: --alert "
                            + alertName
                            + ": no such alerting rule in "
                            + paths.stream().map(Path::toString).collect(Collectors.joining(" "))
                            + "; "
                            + NearestName.suggest(
                                alertName,
                                book.alerting().stream().map(RuleBook.AlertRule::name).toList(),
                                "the alerts are: "),
                        ExitCode.INVALID));
    Floor floor = Floors.of(rule, book);
    // Room above the floor: one more evaluation for the rule's phase, and half the floor for noise.
    Duration within =
        roundUp(floor.value().plus(rule.groupInterval()).plus(floor.value().dividedBy(2)));
    List<Recorded> used = recordedIn(rule.query(), recording.keySet());
    return new Filled(
        slis(rule, used),
        alerts(rule, floor, within, scrape),
        used.isEmpty() ? "error_ratio" : sliName(used.get(0).name()),
        threshold(rule.query(), used)
            .map(t -> "above: " + t + " # the alert's own threshold; TODO: stop sooner?")
            .orElse("above: 0.05 # TODO"),
        within);
  }

  /** The recording rules the expression reads, in order, each with the selector it uses. */
  private static List<Recorded> recordedIn(String expr, Iterable<String> names) {
    Map<Integer, Recorded> byPosition = new TreeMap<>();
    for (String name : names) {
      Matcher m =
          Pattern.compile(
                  "(?<![A-Za-z0-9_:])" + Pattern.quote(name) + "(\\{[^}]*\\})?(?![A-Za-z0-9_:])")
              .matcher(expr);
      if (m.find()) {
        byPosition.put(m.start(), new Recorded(name, m.group(1) == null ? "" : m.group(1)));
      }
    }
    return List.copyOf(byPosition.values());
  }

  private static String slis(RuleBook.AlertRule rule, List<Recorded> used) {
    if (used.isEmpty()) {
      return "    # TODO: "
          + rule.name()
          + " reads no recording rule given to --from-rules; write its SLI here.\n"
          + "    - name: error_ratio\n"
          + "      query: TODO_your_sli\n"
          + "      max: 0.01 # TODO";
    }
    StringBuilder text =
        new StringBuilder(
            "    # The recording rules "
                + rule.name()
                + " reads: the drill measures what the alert sees.\n");
    Optional<String> threshold = threshold(rule.query(), used);
    for (Recorded recorded : used) {
      text.append("    - name: ").append(sliName(recorded.name())).append('\n');
      text.append("      query: ")
          .append(quoted(recorded.name() + recorded.selector()))
          .append('\n');
      text.append("      max: ")
          .append(
              threshold
                  .map(
                      t ->
                          t
                              + " # TODO: the alert fires above "
                              + t
                              + "; steady state sits well below it")
                  .orElse("1 # TODO: the highest value that is still steady state"))
          .append('\n');
    }
    return text.toString().stripTrailing();
  }

  private static String alerts(
      RuleBook.AlertRule rule, Floor floor, Duration within, Duration scrape) {
    return "  alerts:\n"
        + "    # Its floor, the earliest it can fire with scrape "
        + Durations.format(scrape)
        + " and evaluation "
        + Durations.format(rule.groupInterval())
        + ": "
        + floor.text()
        + ".\n"
        + "    - alert: "
        + quoted(rule.name())
        + "\n"
        + "      within: "
        + Durations.format(within)
        + " # the floor, an evaluation and half the floor again; TODO: what you promise"
        + (rule.annotations().containsKey("runbook_url")
            ? "\n      runbook_url: " + quoted(rule.annotations().get("runbook_url"))
            : "");
  }

  /** {@code NAME{...} > 0.0144} or {@code > (14.4 * 0.001)}: the threshold, as a number. */
  private static Optional<String> threshold(String expr, List<Recorded> used) {
    for (Recorded recorded : used) {
      Matcher m =
          Pattern.compile(
                  Pattern.quote(recorded.name() + recorded.selector())
                      + "\\s*>\\s*\\(?\\s*([0-9.]+)(?:\\s*\\*\\s*([0-9.]+))?\\s*\\)?")
              .matcher(expr);
      if (m.find()) {
        try {
          double value = Double.parseDouble(m.group(1));
          if (m.group(2) != null) {
            value *= Double.parseDouble(m.group(2));
          }
          return Optional.of(Numbers.format(value));
        } catch (NumberFormatException e) {
          return Optional.empty();
        }
      }
    }
    return Optional.empty();
  }

  private static String sliName(String recording) {
    String name = recording.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9_]+", "_");
    return Character.isDigit(name.charAt(0)) ? "sli_" + name : name;
  }

  /** A YAML double-quoted scalar, safe for any PromQL. */
  private static String quoted(String text) {
    return "\"" + text.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
  }

  private static Duration roundUp(Duration duration) {
    long seconds = (duration.toMillis() + 999) / 1000;
    return Duration.ofSeconds(Math.max(1, seconds));
  }
}
