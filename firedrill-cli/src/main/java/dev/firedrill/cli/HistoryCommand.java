package dev.firedrill.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.firedrill.engine.JournalFile;
import dev.firedrill.engine.JournalPaths;
import dev.firedrill.history.DetectionRecord;
import dev.firedrill.history.HistoryException;
import dev.firedrill.history.HistoryStore;
import dev.firedrill.history.HistoryTable;
import dev.firedrill.history.JournalRows;
import dev.firedrill.history.Regression;
import dev.firedrill.history.RegressionCheck;
import dev.firedrill.history.StoreLocation;
import dev.firedrill.history.Tolerance;
import dev.firedrill.programme.trend.HistoryExport;
import dev.firedrill.programme.trend.HistoryPage;
import dev.firedrill.time.Clock;
import dev.firedrill.time.Durations;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Instant;
import java.time.LocalDate;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

@Command(
    name = "history",
    description = {
      "Time to detect, time to notify and routing of each expected alert over its runs.",
      "--check exits 1 when an alert's latest run regressed: it stopped firing, was misrouted, or its time to "
          + "detect grew beyond the tolerance over its earlier runs."
    })
final class HistoryCommand implements Callable<Integer> {

  @Option(
      names = "--alert",
      paramLabel = "NAME",
      description = "Only this alert (its name, or name{matchers}).")
  String alert;

  @Option(names = "--experiment", paramLabel = "ID", description = "Only this experiment's runs.")
  String experiment;

  @Option(
      names = "--since",
      paramLabel = "WHEN",
      description =
          "Only the runs at or after this: a day (2026-10-01, UTC), a time (RFC 3339) or a"
              + " duration back from now (90d).")
  String since;

  /** What {@code --format} prints; json is {@code --output json}'s document. */
  enum Format {
    text,
    json,
    csv,
    html
  }

  @Option(
      names = "--format",
      paramLabel = "text|json|csv|html",
      description =
          "text (the table), json (as --output json), csv (a header and a row per alert per run)"
              + " or html (a page with each alert's trend against its floor); default: text.")
  Format format;

  @Option(
      names = "--check",
      description = "Exit 1 on a regression in each alert's latest run; 4 with no history.")
  boolean check;

  @Option(
      names = "--tolerance",
      paramLabel = "50%|2s",
      description =
          "How much time to detect may grow over the median of earlier runs: a percentage, a duration "
              + "or both, the larger allowance winning (default: ${DEFAULT-VALUE}).")
  String tolerance = Tolerance.DEFAULT_TEXT;

  @Option(
      names = "--import",
      paramLabel = "JOURNAL",
      arity = "1..*",
      description =
          "Add these journals' detection rows to the history (a run already there is skipped).")
  List<Path> imports = new ArrayList<>();

  @Option(
      names = "--include-simulated",
      description =
          "Import journals of firedrill simulate too (marked simulated); by default they are"
              + " skipped: a prediction is not a run.")
  boolean includeSimulated;

  /** How many of the --import journals were read, those skipped as simulations left out. */
  private int journalsRead;

  @Mixin HistoryOptions store;

  @Mixin OutputOption output;

  @Mixin CommonOptions common;

  @Spec picocli.CommandLine.Model.CommandSpec spec;

  @Override
  public Integer call() {
    Format chosen = format();
    Optional<Instant> from = since();
    // With a document on stdout (json, csv, html) the import's lines go to stderr.
    PrintWriter out =
        chosen != Format.text ? spec.commandLine().getErr() : spec.commandLine().getOut();
    Tolerance allowed = tolerance();
    StoreLocation location = store.location(JournalPaths.DIRECTORY);
    List<DetectionRecord> imported = readJournals(out);
    try (HistoryStore history = HistoryStore.open(location)) {
      if (!imports.isEmpty()) {
        int added = history.append(imported);
        out.println(
            "imported "
                + added
                + " detection row"
                + (added == 1 ? "" : "s")
                + " from "
                + journalsRead
                + " journal"
                + (journalsRead == 1 ? "" : "s")
                + " into "
                + location.name()
                + (added < imported.size()
                    ? " (" + (imported.size() - added) + " already there)"
                    : ""));
        if (!check
            && alert == null
            && experiment == null
            && from.isEmpty()
            && chosen == Format.text) {
          return ExitCode.HELD;
        }
      }
      List<DetectionRecord> records =
          history.query(Optional.ofNullable(alert), Optional.ofNullable(experiment));
      if (from.isPresent()) {
        records = HistoryExport.since(records, from.get());
      }
      return switch (chosen) {
        case json -> json(records, allowed, location);
        case csv -> print(HistoryExport.csv(records));
        case html ->
            print(
                HistoryPage.render(
                    selection(location), records, HistoryPage.floorsFromJournals(records)));
        case text -> check ? check(records, allowed, location, out) : table(records, location, out);
      };
    } catch (HistoryException e) {
      throw new UserError(e.getMessage(), ExitCode.INVALID, e);
    }
  }

  private int print(String document) {
    PrintWriter out = spec.commandLine().getOut();
    out.print(document);
    out.flush();
    return ExitCode.HELD;
  }

  /** --format, or --output json; the two disagreeing is bad input, as is --check with csv/html. */
  private Format format() {
    Format chosen = format != null ? format : output.json() ? Format.json : Format.text;
    if (output.json() && chosen != Format.json) {
      throw new UserError(
          "firedrill history: --output json and --format " + chosen + " disagree; give one",
          ExitCode.INVALID);
    }
    if (check && (chosen == Format.csv || chosen == Format.html)) {
      throw new UserError(
          "firedrill history: --check prints text or json, not " + chosen, ExitCode.INVALID);
    }
    return chosen;
  }

  private Optional<Instant> since() {
    if (since == null) {
      return Optional.empty();
    }
    String text = since.strip();
    try {
      return Optional.of(LocalDate.parse(text).atStartOfDay(ZoneOffset.UTC).toInstant());
    } catch (DateTimeParseException notADay) {
      // a time or a duration
    }
    try {
      return Optional.of(OffsetDateTime.parse(text).toInstant());
    } catch (DateTimeParseException notATime) {
      // a duration
    }
    try {
      return Optional.of(Clock.system().now().minus(Durations.parse(text)));
    } catch (IllegalArgumentException e) {
      throw new UserError(
          "firedrill history: --since "
              + since
              + ": expected a day (2026-10-01), a time (2026-10-01T06:00:00Z) or a duration"
              + " back from now (90d)",
          ExitCode.INVALID);
    }
  }

  private int table(List<DetectionRecord> records, StoreLocation location, PrintWriter out) {
    if (records.isEmpty()) {
      out.println(nothing(location));
    } else {
      HistoryTable.lines(records).forEach(out::println);
    }
    return ExitCode.HELD;
  }

  private int check(
      List<DetectionRecord> records, Tolerance allowed, StoreLocation location, PrintWriter out) {
    RegressionCheck.Outcome outcome = RegressionCheck.check(records, allowed);
    if (outcome.empty()) {
      out.println(nothing(location) + "; nothing to check");
    } else if (outcome.regressions().isEmpty()) {
      int single = outcome.alerts() - outcome.compared();
      out.println(
          "no regression in "
              + outcome.alerts()
              + " alert"
              + (outcome.alerts() == 1 ? "" : "s")
              + " over "
              + outcome.runs()
              + " run"
              + (outcome.runs() == 1 ? "" : "s")
              + (single == 0 ? "" : " (" + single + " with a single run, nothing to compare yet)"));
    } else {
      outcome.regressions().stream()
          .map(Regression::line)
          .map(line -> "REGRESSION " + line)
          .forEach(out::println);
    }
    return ExitCode.of(outcome);
  }

  private int json(List<DetectionRecord> records, Tolerance allowed, StoreLocation location) {
    ObjectNode doc = OutputOption.document("history");
    doc.put("store", location.name());
    HistoryExport.json(records, doc.putArray("runs"));
    int exit = ExitCode.HELD;
    if (check) {
      RegressionCheck.Outcome outcome = RegressionCheck.check(records, allowed);
      ObjectNode result = doc.putObject("check");
      result.put("alerts", outcome.alerts());
      result.put("compared", outcome.compared());
      result.put("runs", outcome.runs());
      ArrayNode regressions = result.putArray("regressions");
      for (Regression regression : outcome.regressions()) {
        ObjectNode row = regressions.addObject();
        row.put("alert_key", regression.alertKey());
        row.put("experiment", regression.experiment());
        row.put("kind", regression.kind().text());
        row.put("figures", regression.figures());
      }
      exit = ExitCode.of(outcome);
    } else {
      doc.putNull("check");
    }
    OutputOption.print(spec.commandLine().getOut(), doc);
    return exit;
  }

  private String nothing(StoreLocation location) {
    return "no detection history in " + selection(location);
  }

  /** The store and the filters given. */
  private String selection(StoreLocation location) {
    return location.name()
        + (alert == null ? "" : " for alert " + alert)
        + (experiment == null ? "" : " for experiment " + experiment)
        + (since == null ? "" : " since " + since);
  }

  private Tolerance tolerance() {
    try {
      return Tolerance.parse(tolerance);
    } catch (IllegalArgumentException e) {
      throw new UserError("firedrill history: --tolerance " + e.getMessage(), ExitCode.INVALID);
    }
  }

  /** Every journal first, so a bad one leaves the history untouched. */
  private List<DetectionRecord> readJournals(PrintWriter out) {
    List<DetectionRecord> records = new ArrayList<>();
    for (Path path : imports) {
      try {
        JsonNode journal = new JournalFile(path).read().json();
        if (JournalRows.isSimulation(journal) && !includeSimulated) {
          out.println(
              "skipped "
                  + path
                  + ": a simulation by firedrill simulate, not a run (--include-simulated"
                  + " imports it, marked simulated)");
          continue;
        }
        records.addAll(JournalRows.of(journal, path.toString()));
        journalsRead++;
      } catch (IOException | HistoryException e) {
        throw new UserError(e.getMessage(), ExitCode.INVALID, e);
      }
    }
    return records;
  }
}
