package dev.firedrill.cli;

import com.fasterxml.jackson.databind.JsonNode;
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
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
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

  @Mixin CommonOptions common;

  @Spec picocli.CommandLine.Model.CommandSpec spec;

  @Override
  public Integer call() {
    PrintWriter out = spec.commandLine().getOut();
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
        if (!check && alert == null && experiment == null) {
          return ExitCode.HELD;
        }
      }
      List<DetectionRecord> records =
          history.query(Optional.ofNullable(alert), Optional.ofNullable(experiment));
      return check ? check(records, allowed, location, out) : table(records, location, out);
    } catch (HistoryException e) {
      throw new UserError(e.getMessage(), ExitCode.INVALID, e);
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

  private String nothing(StoreLocation location) {
    return "no detection history in "
        + location.name()
        + (alert == null ? "" : " for alert " + alert)
        + (experiment == null ? "" : " for experiment " + experiment);
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
