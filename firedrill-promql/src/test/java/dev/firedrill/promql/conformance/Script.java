package dev.firedrill.promql.conformance;

import dev.firedrill.promql.model.LabelSet;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A test script of Prometheus's PromQL test language: {@code load}, {@code clear} and {@code eval}
 * commands, in both v2.42's form ({@code eval_fail}, {@code eval_ordered}) and v3's ({@code eval
 * range ...}, {@code expect ...} lines).
 */
final class Script {

  sealed interface Command {}

  /**
   * {@code histogramSeries} are the names of the series of native histogram samples only ({@code
   * {{...}}}), which this reader leaves out, and for {@code load_with_nhcb} the base names of the
   * classic histograms it also stores as native ones. {@code startTimes} are the {@code @st} lines:
   * per series, each sample's start timestamp as an offset from its timestamp (null: none).
   */
  record Load(
      long intervalMs,
      List<SeriesLine> series,
      List<String> histogramSeries,
      Map<LabelSet, List<Double>> startTimes)
      implements Command {}

  record Clear() implements Command {}

  /**
   * An expectation for one series: its labels, its values (one for an instant query) and position.
   */
  record Expected(LabelSet labels, List<Double> values, int position) {}

  /**
   * One eval command. {@code problem} is set when the case could not be read, which makes it fail.
   * {@code scalar} is the expected scalar, else {@code series} the expected vector or matrix.
   */
  record Eval(
      String file,
      int line,
      String query,
      boolean range,
      long startMs,
      long endMs,
      long stepMs,
      boolean fail,
      String failMessage,
      Pattern failRegex,
      boolean ordered,
      AnnotationExpectations annotations,
      Double scalar,
      String string,
      boolean rangeVector,
      List<Expected> series,
      String problem)
      implements Command {

    String name() {
      return file + ":" + line + " " + query;
    }
  }

  /**
   * What an eval expects of the query's warnings and infos: {@code warn} true for {@code expect
   * warn}, false for {@code expect no_warn}, null when unchecked; a {@code msg:} or {@code regex:}
   * that one of them must match. Likewise for infos.
   */
  record AnnotationExpectations(
      Boolean warn,
      String warnMsg,
      Pattern warnRegex,
      Boolean info,
      String infoMsg,
      Pattern infoRegex) {
    static final AnnotationExpectations NONE =
        new AnnotationExpectations(null, null, null, null, null, null);

    boolean any() {
      return warn != null || info != null;
    }
  }

  private static final Pattern LOAD = Pattern.compile("^load(?:_(with_nhcb))?\\s+(.+?)$");
  private static final Pattern INSTANT =
      Pattern.compile(
          "^eval(?:_(fail|warn|ordered|info))?\\s+instant\\s+(?:at\\s+(.+?))?\\s+(.+)$");
  private static final Pattern RANGE =
      Pattern.compile(
          "^eval(?:_(fail|warn|info))?\\s+range\\s+from\\s+(.+)\\s+to\\s+(.+)\\s+step\\s+(.+?)\\s+(.+)$");
  private static final Pattern EXPECT =
      Pattern.compile(
          "^expect\\s+(ordered|fail|warn|no_warn|info|no_info)(?:\\s+(regex|msg):(.+))?$");
  private static final Pattern RANGE_VECTOR =
      Pattern.compile("^expect range vector\\s+from\\s+(.+)\\s+to\\s+(.+)\\s+step\\s+(.+)$");

  private Script() {}

  static List<Command> parse(String file, String text) {
    String[] lines = text.split("\n", -1);
    for (int i = 0; i < lines.length; i++) {
      String l = lines[i].trim();
      lines[i] = l.startsWith("#") ? "" : l;
    }
    List<Command> commands = new ArrayList<>();
    for (int i = 0; i < lines.length; i++) {
      String l = lines[i];
      if (l.isEmpty()) {
        continue;
      }
      String word = l.split("[\t ]+", 2)[0].toLowerCase();
      if (word.equals("clear")) {
        commands.add(new Clear());
      } else if (word.startsWith("load")) {
        i = load(lines, i, commands);
      } else if (word.startsWith("eval")) {
        i = eval(file, lines, i, commands);
      } else {
        throw new IllegalArgumentException(file + ":" + (i + 1) + ": invalid command " + l);
      }
    }
    return commands;
  }

  private static int load(String[] lines, int i, List<Command> commands) {
    Matcher m = LOAD.matcher(lines[i]);
    if (!m.matches()) {
      throw new IllegalArgumentException("line " + (i + 1) + ": invalid load command " + lines[i]);
    }
    long interval = Duration.parseMillis(m.group(2));
    List<SeriesLine> series = new ArrayList<>();
    List<String> histograms = new ArrayList<>();
    Map<LabelSet, List<Double>> startTimes = new HashMap<>();
    while (i + 1 < lines.length && !lines[i + 1].isEmpty()) {
      i++;
      if (SeriesLine.isStartTimeLine(lines[i])) {
        SeriesLine st = SeriesLine.parseStartTimes(lines[i]);
        startTimes.put(st.labels(), st.values());
        continue;
      }
      SeriesLine s = SeriesLine.parseLoad(lines[i]);
      series.add(s);
      if (!s.histograms().isEmpty() && s.values().stream().allMatch(v -> v == null)) {
        histograms.add(s.labels().metricName() == null ? "" : s.labels().metricName());
      }
    }
    if (m.group(1) != null) {
      // load_with_nhcb also stores each classic histogram as a native one under its base name.
      for (SeriesLine s : series) {
        String name = s.labels().metricName();
        if (name != null && name.endsWith("_bucket")) {
          histograms.add(name.substring(0, name.length() - "_bucket".length()));
        }
      }
    }
    commands.add(new Load(interval, series, histograms, startTimes));
    return i;
  }

  private static int eval(String file, String[] lines, int i, List<Command> commands) {
    int line = i + 1;
    Matcher instant = INSTANT.matcher(lines[i]);
    Matcher range = RANGE.matcher(lines[i]);
    boolean isRange = !instant.matches();
    if (isRange && !range.matches()) {
      throw new IllegalArgumentException(file + ":" + line + ": invalid eval command " + lines[i]);
    }
    Matcher m = isRange ? range : instant;
    String mod = m.group(1);
    String query = isRange ? m.group(5) : m.group(3);
    boolean fail = "fail".equals(mod);
    boolean ordered = "ordered".equals(mod);
    Boolean warn = "warn".equals(mod) ? Boolean.TRUE : null;
    Boolean info = "info".equals(mod) ? Boolean.TRUE : null;
    String warnMsg = null;
    Pattern warnRegex = null;
    String infoMsg = null;
    Pattern infoRegex = null;
    String failMessage = null;
    Pattern failRegex = null;
    Double scalar = null;
    String string = null;
    boolean rangeVector = false;
    String problem = null;
    long start;
    long end;
    long step;
    List<Expected> series = new ArrayList<>();
    try {
      if (isRange) {
        start = Duration.parseMillis(m.group(2));
        end = Duration.parseMillis(m.group(3));
        step = Duration.parseMillis(m.group(4));
      } else {
        start = Duration.parseMillis(m.group(2) == null ? "" : m.group(2));
        end = start;
        step = 0;
      }
    } catch (IllegalArgumentException e) {
      start = end = step = 0;
      problem = e.getMessage();
    }
    int position = 1;
    while (i + 1 < lines.length && !lines[i + 1].isEmpty()) {
      i++;
      String def = lines[i];
      if (problem != null) {
        continue;
      }
      try {
        if (fail && def.startsWith("expected_fail_message")) {
          failMessage = def.substring("expected_fail_message".length()).trim();
          continue;
        }
        if (fail && def.startsWith("expected_fail_regexp")) {
          failRegex = Pattern.compile(def.substring("expected_fail_regexp".length()).trim());
          continue;
        }
        Matcher rv = RANGE_VECTOR.matcher(def);
        if (rv.matches()) {
          rangeVector = true;
          start = Duration.parseMillis(rv.group(1));
          end = Duration.parseMillis(rv.group(2));
          step = Duration.parseMillis(rv.group(3));
          continue;
        }
        if (def.startsWith("expect string")) {
          string = SeriesLine.unquote(def.substring("expect string".length()).trim());
          continue;
        }
        if (def.split(" ")[0].equals("expect")) {
          Matcher e = EXPECT.matcher(def);
          if (!e.matches()) {
            throw new IllegalArgumentException("invalid expect line " + def);
          }
          switch (e.group(1)) {
            case "ordered" -> ordered = true;
            case "fail" -> {
              fail = true;
              if ("msg".equals(e.group(2))) {
                failMessage = e.group(3).trim();
              } else if ("regex".equals(e.group(2))) {
                failRegex = Pattern.compile(e.group(3).trim());
              }
            }
            case "warn" -> {
              warn = true;
              if ("msg".equals(e.group(2))) {
                warnMsg = e.group(3).trim();
              } else if ("regex".equals(e.group(2))) {
                warnRegex = Pattern.compile(e.group(3).trim());
              }
            }
            case "info" -> {
              info = true;
              if ("msg".equals(e.group(2))) {
                infoMsg = e.group(3).trim();
              } else if ("regex".equals(e.group(2))) {
                infoRegex = Pattern.compile(e.group(3).trim());
              }
            }
            case "no_warn" -> warn = false;
            case "no_info" -> info = false;
            default -> {}
          }
          continue;
        }
        Double number = number(def);
        if (number != null) {
          scalar = number;
          continue;
        }
        SeriesLine s = SeriesLine.parse(def);
        series.add(new Expected(s.labels(), s.values(), position++));
      } catch (RuntimeException e) {
        problem = "cannot read expectation \"" + def + "\": " + e.getMessage();
      }
    }
    commands.add(
        new Eval(
            file,
            line,
            query,
            isRange,
            start,
            end,
            step,
            fail,
            failMessage,
            failRegex,
            ordered,
            new AnnotationExpectations(warn, warnMsg, warnRegex, info, infoMsg, infoRegex),
            scalar,
            string,
            rangeVector,
            series,
            problem));
    return i;
  }

  /** Go's parseNumber: an integer in any base Go accepts, else a float; null when neither. */
  private static Double number(String s) {
    try {
      if (s.matches("[+-]?0[xX][0-9a-fA-F]+")) {
        return (double) Long.decode(s);
      }
      if (s.matches(
          "[+-]?(\\d+\\.?\\d*([eE][+-]?\\d+)?|\\.\\d+([eE][+-]?\\d+)?|(?i:inf|infinity|nan))")) {
        String t =
            s.replaceAll("(?i)^([+-]?)inf(inity)?$", "$1Infinity")
                .replaceAll("(?i)^[+-]?nan$", "NaN");
        return Double.parseDouble(t);
      }
    } catch (NumberFormatException e) {
      return null;
    }
    return null;
  }
}
