package dev.firedrill.promql.conformance;

import dev.firedrill.promql.eval.Compat;
import dev.firedrill.testing.PromqlTestData;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Runs Prometheus's test scripts from {@code ../shared/promqltest/} (read in place, never copied).
 */
final class Conformance {

  /**
   * One case's outcome: null failure when it passed. {@code nativeHistograms} when the case needs
   * them (it reads a series loaded as native histograms only, or its query selects a native
   * histogram sample, expects histogram samples, or is of native_histograms.test), which the engine
   * refuses by design.
   */
  record Outcome(Script.Eval eval, String failure, boolean nativeHistograms) {

    String key() {
      return eval.file() + ":" + eval.line();
    }
  }

  /** Functions of native histograms only; a float sample gives them nothing to compute. */
  private static final Pattern HISTOGRAM_FUNCTIONS =
      Pattern.compile("histogram_(count|sum|avg|stddev|stdvar|fraction|quantiles)\\s*\\(|\\{\\{");

  private Conformance() {}

  /** The directory, or the test is failed (on CI) or skipped (elsewhere) with the reason. */
  static Path directory(String version) {
    return PromqlTestData.directory(version);
  }

  static List<Path> files(Path dir) throws IOException {
    try (Stream<Path> files = Files.list(dir)) {
      return files.filter(f -> f.toString().endsWith(".test")).sorted().toList();
    }
  }

  /**
   * Every eval of the file, run in order against the series loaded before it, in {@code compat}.
   */
  static List<Outcome> run(Path file, Compat compat) throws IOException {
    String name = file.getFileName().toString();
    List<Script.Command> commands = Script.parse(name, Files.readString(file));
    MemorySeriesSource source = new MemorySeriesSource();
    CaseRunner runner = new CaseRunner(source, compat);
    List<Outcome> outcomes = new ArrayList<>();
    Set<String> histogramNames = new HashSet<>();
    for (Script.Command command : commands) {
      if (command instanceof Script.Clear) {
        source.clear();
        histogramNames.clear();
      } else if (command instanceof Script.Load load) {
        for (SeriesLine s : load.series()) {
          load(source, s, load.startTimes().get(s.labels()), load.intervalMs());
        }
        for (String h : load.histogramSeries()) {
          histogramNames.add(h.replaceAll("\\{.*", "").trim());
        }
      } else if (command instanceof Script.Eval eval) {
        source.watch(true);
        String failure = runner.run(eval);
        source.watch(false);
        outcomes.add(
            new Outcome(
                eval, failure, source.readHistogram() || needsHistograms(eval, histogramNames)));
      }
    }
    return outcomes;
  }

  private static boolean needsHistograms(Script.Eval eval, Set<String> histogramNames) {
    if (eval.file().equals("native_histograms.test")
        || HISTOGRAM_FUNCTIONS.matcher(eval.query()).find()
        || (eval.problem() != null && eval.problem().contains("{{"))) {
      return true;
    }
    for (String name : histogramNames) {
      if (!name.isEmpty()
          && Pattern.compile("(?<![\\w:])" + Pattern.quote(name) + "(?![\\w:])")
              .matcher(eval.query())
              .find()) {
        return true;
      }
    }
    return false;
  }

  /** A series' samples, each with its start timestamp when the load gives them. */
  private static void load(
      MemorySeriesSource source, SeriesLine s, List<Double> startOffsets, long interval) {
    List<Double> values = s.values();
    for (int i = 0; i < values.size(); i++) {
      long t = i * interval;
      if (s.histograms().get(i)) {
        source.addHistogramTime(s.labels(), t);
      } else if (values.get(i) != null && startOffsets == null) {
        source.add(s.labels(), t, values.get(i));
      } else if (values.get(i) != null) {
        Double offset = i < startOffsets.size() ? startOffsets.get(i) : null;
        source.add(s.labels(), t, values.get(i), offset == null ? 0 : t + offset.longValue());
      }
    }
  }
}
