package dev.firedrill.embedded.scrape;

import dev.firedrill.format.ControlChars;
import dev.firedrill.promql.eval.Compat;
import dev.firedrill.promql.model.LabelSet;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * Parses an exposition into samples, as Prometheus's text and OpenMetrics parsers read it. The text
 * format allows spaces and tabs between tokens and ignores other comments; OpenMetrics wants single
 * spaces, knows only # HELP, # TYPE, # UNIT and a final # EOF, and may end a sample with an
 * exemplar, which is skipped. Metadata is checked, not kept: the embedded Prometheus does not serve
 * it. As Prometheus 3 reads them, both formats also take quoted UTF-8 names: a metric name as a
 * quoted string among the labels ({@code {"my.metric", job="x"}}), quoted label names and quoted
 * names after # HELP and # TYPE.
 */
public final class ExpositionParser {

  private static final List<String> TEXT_TYPES =
      List.of("counter", "gauge", "histogram", "summary", "untyped");
  private static final List<String> OPENMETRICS_TYPES =
      List.of(
          "counter",
          "gauge",
          "histogram",
          "gaugehistogram",
          "stateset",
          "info",
          "summary",
          "unknown");

  /**
   * What Go's strconv.ParseFloat takes in decimal; Prometheus refuses hexadecimal floats and
   * underscores.
   */
  private static final Pattern DECIMAL =
      Pattern.compile("[+-]?(?:[0-9]++(?:\\.[0-9]*+)?|\\.[0-9]++)(?:[eE][+-]?[0-9]++)?");

  private static final int EXCERPT = 60;

  private final String target;
  private final boolean openMetrics;
  private final boolean normaliseBuckets;
  private final boolean quotedNames;

  /** The type the last {@code # TYPE} line named, as Prometheus's parsers hold it. */
  private String familyType = "";

  private String line;
  private int pos;
  private int lineNumber;

  private ExpositionParser(String target, ExpositionFormat format, Compat compat) {
    this.target = target;
    this.openMetrics = format == ExpositionFormat.OPENMETRICS;
    this.normaliseBuckets = compat == Compat.PROMETHEUS_3;
    this.quotedNames = compat == Compat.PROMETHEUS_3;
  }

  /**
   * The samples in exposition order, as Prometheus 2.42 reads them.
   *
   * @param target names the target in errors
   */
  public static List<ExposedSample> parse(String target, String body, ExpositionFormat format)
      throws ExpositionException {
    return parse(target, body, format, Compat.PROMETHEUS_2);
  }

  /**
   * As above, as the given Prometheus reads them. Prometheus 3 also takes quoted UTF-8 names and
   * ingests the {@code le} of a histogram family and the {@code quantile} of a summary rewritten as
   * floats ({@link BucketLabels}).
   */
  public static List<ExposedSample> parse(
      String target, String body, ExpositionFormat format, Compat compat)
      throws ExpositionException {
    return new ExpositionParser(target, format, compat).parse(body);
  }

  private List<ExposedSample> parse(String body) throws ExpositionException {
    List<ExposedSample> samples = new ArrayList<>();
    boolean eof = false;
    int start = 0;
    while (start < body.length()) {
      int end = body.indexOf('\n', start);
      if (end < 0) {
        end = body.length();
      }
      line = body.substring(start, end);
      pos = 0;
      lineNumber++;
      start = end + 1;
      if (eof) {
        throw error("nothing after # EOF", excerpt(line));
      }
      if (openMetrics && line.equals("# EOF")) {
        eof = true;
      } else if (line.startsWith("#") || !openMetrics && line.stripLeading().startsWith("#")) {
        comment();
      } else if (line.isBlank()) {
        if (openMetrics) {
          throw error("a sample, # HELP, # TYPE, # UNIT or # EOF", "an empty line");
        }
      } else {
        samples.add(sample());
      }
    }
    if (openMetrics && !eof) {
      lineNumber = (int) body.chars().filter(c -> c == '\n').count() + 1;
      throw error("# EOF as the last line of an OpenMetrics exposition", "the end of the text");
    }
    return samples;
  }

  private void comment() throws ExpositionException {
    if (openMetrics) {
      openMetricsComment();
      return;
    }
    skipSpace();
    pos++;
    // "#" must be followed by whitespace and HELP or TYPE and whitespace; anything else is a
    // comment.
    if (!skipSpace()) {
      return;
    }
    String keyword =
        line.startsWith("HELP", pos) ? "HELP" : line.startsWith("TYPE", pos) ? "TYPE" : null;
    if (keyword == null) {
      return;
    }
    pos += 4;
    if (!skipSpace()) {
      return;
    }
    String name = commentName(keyword);
    skipSpace();
    if (keyword.equals("TYPE") && !TEXT_TYPES.contains(line.substring(pos))) {
      throw error("a metric type (" + String.join(", ", TEXT_TYPES) + ")", rest());
    }
    if (keyword.equals("TYPE")) {
      familyType = line.substring(pos);
    }
  }

  private void openMetricsComment() throws ExpositionException {
    String keyword =
        line.startsWith("# HELP ")
            ? "HELP"
            : line.startsWith("# TYPE ") ? "TYPE" : line.startsWith("# UNIT ") ? "UNIT" : null;
    if (keyword == null) {
      throw error(
          "# HELP, # TYPE, # UNIT or # EOF (OpenMetrics has no other comments)", excerpt(line));
    }
    pos = 7;
    String name = commentName(keyword);
    if (pos == line.length() && keyword.equals("HELP")) {
      return;
    }
    if (!next(' ')) {
      throw error("a space after the metric name", rest());
    }
    String text = line.substring(pos);
    if (keyword.equals("TYPE") && !OPENMETRICS_TYPES.contains(text)) {
      throw error("a metric type (" + String.join(", ", OPENMETRICS_TYPES) + ")", rest());
    }
    if (keyword.equals("TYPE")) {
      familyType = text;
    }
    if (keyword.equals("UNIT") && !text.isEmpty() && !name.endsWith("_" + text)) {
      throw error("a unit that the metric name ends with (\"_" + text + "\")", excerpt(name));
    }
  }

  private ExposedSample sample() throws ExpositionException {
    if (!openMetrics) {
      skipSpace();
    }
    String name = metricName();
    boolean nameInBraces =
        name.isEmpty() && quotedNames && pos < line.length() && line.charAt(pos) == '{';
    if (name.isEmpty() && !nameInBraces) {
      throw error("a metric name", rest());
    }
    LabelSet.Builder labels = LabelSet.builder();
    if (!name.isEmpty()) {
      labels.set(LabelSet.METRIC_NAME, name);
    }
    boolean spaced = !openMetrics && skipSpace();
    if (next('{')) {
      String quotedName = labels(labels, name.isEmpty());
      if (name.isEmpty() && quotedName == null) {
        throw error("a quoted metric name among the labels", excerpt(line));
      }
      // Prometheus's text lexer ends the labels at } and takes the value right after it, space or
      // not.
      spaced = !openMetrics;
    }
    if (openMetrics ? !next(' ') : !(skipSpace() || spaced)) {
      throw error(openMetrics ? "a space and the value" : "whitespace and the value", rest());
    }
    String written = token();
    if (written.isEmpty()) {
      throw error("a value", rest());
    }
    Double value = parseFloat(written);
    if (value == null) {
      throw error("a value (a float, NaN, +Inf or -Inf)", excerpt(written));
    }
    long timestamp = openMetrics ? openMetricsTimestamp() : textTimestamp();
    return new ExposedSample(labels.build(), value, timestamp);
  }

  private long textTimestamp() throws ExpositionException {
    skipSpace();
    if (pos == line.length()) {
      return ExposedSample.NO_TIMESTAMP;
    }
    String written = token();
    long timestamp;
    try {
      timestamp =
          written.chars().allMatch(c -> c >= '0' && c <= '9') ? Long.parseLong(written) : -1;
    } catch (NumberFormatException e) {
      timestamp = -1;
    }
    if (timestamp < 0) {
      throw error("a timestamp in integer milliseconds or the end of the line", excerpt(written));
    }
    skipSpace();
    if (pos < line.length()) {
      throw error("the end of the line after the timestamp", rest());
    }
    return timestamp;
  }

  private long openMetricsTimestamp() throws ExpositionException {
    if (pos == line.length()) {
      return ExposedSample.NO_TIMESTAMP;
    }
    if (!next(' ')) {
      throw error("a space, a timestamp, an exemplar or the end of the line", rest());
    }
    if (line.startsWith("# {", pos)) {
      return ExposedSample.NO_TIMESTAMP;
    }
    String written = token();
    Double seconds = parseFloat(written);
    if (seconds == null || seconds.isNaN() || seconds.isInfinite()) {
      throw error(
          "a timestamp in seconds, an exemplar (# {...} value) or the end of the line",
          excerpt(written));
    }
    if (pos < line.length() && !line.startsWith(" # {", pos)) {
      throw error("an exemplar (# {...} value) or the end of the line after the timestamp", rest());
    }
    return (long) (seconds * 1000);
  }

  /**
   * The labels up to the closing brace; the metric name, when one stands among them as a quoted
   * string with no value, else null.
   *
   * @param nameWanted whether the sample has no name before the brace, so one may stand here
   */
  private String labels(LabelSet.Builder labels, boolean nameWanted) throws ExpositionException {
    List<String> seen = new ArrayList<>();
    String metricName = null;
    while (true) {
      if (!openMetrics) {
        skipSpace();
      }
      if (next('}')) {
        return metricName;
      }
      boolean quoted = quotedNames && pos < line.length() && line.charAt(pos) == '"';
      String name = quoted ? quoted() : labelName();
      if (name.isEmpty() && !quoted) {
        throw error("a label name or }", rest());
      }
      if (!openMetrics) {
        skipSpace();
      }
      if (quoted && pos < line.length() && (line.charAt(pos) == ',' || line.charAt(pos) == '}')) {
        // A quoted string with no value is the metric name, once, as Prometheus 3 reads it.
        if (!nameWanted || metricName != null) {
          throw error("the metric name once", excerpt(name) + " as a second metric name");
        }
        metricName = name;
        labels.set(LabelSet.METRIC_NAME, name);
        next(',');
        continue;
      }
      if (!next('=')) {
        throw error("= after the label name \"" + name + "\"", rest());
      }
      if (!openMetrics) {
        skipSpace();
      }
      if (!next('"')) {
        throw error("a quoted value for the label \"" + name + "\"", rest());
      }
      String value = quotedValue(name);
      if (seen.contains(name)) {
        throw error("each label name once", "\"" + name + "\" twice");
      }
      seen.add(name);
      labels.set(
          name,
          normaliseBuckets && BucketLabels.normalised(familyType, name)
              ? BucketLabels.normalise(value)
              : value);
      if (!openMetrics) {
        skipSpace();
      }
      if (!next(',') && !(pos < line.length() && line.charAt(pos) == '}')) {
        throw error(", or } after the value of the label \"" + name + "\"", rest());
      }
    }
  }

  /** A quoted name at {@code pos}, unescaped as a label value is. */
  private String quoted() throws ExpositionException {
    pos++;
    return quotedValue(null);
  }

  /** The name after # HELP or # TYPE: a metric name, or in Prometheus 3 a quoted one. */
  private String commentName(String keyword) throws ExpositionException {
    String name =
        quotedNames && pos < line.length() && line.charAt(pos) == '"' ? quoted() : metricName();
    if (name.isEmpty()) {
      throw error("a metric name after # " + keyword, rest());
    }
    return name;
  }

  /**
   * The value after its opening quote, unescaped as Prometheus does: \\, \" and \n; other escapes
   * stay.
   *
   * @param name the label the value is of, for errors; null for a quoted name
   */
  private String quotedValue(String name) throws ExpositionException {
    StringBuilder value = new StringBuilder();
    while (pos < line.length()) {
      char c = line.charAt(pos++);
      if (c == '"') {
        return value.toString();
      }
      if (c == '\\' && pos < line.length()) {
        char escaped = line.charAt(pos++);
        switch (escaped) {
          case '\\', '"' -> value.append(escaped);
          case 'n' -> value.append('\n');
          default -> value.append('\\').append(escaped);
        }
      } else {
        value.append(c);
      }
    }
    throw error(
        name == null
            ? "a closing quote for the quoted name"
            : "a closing quote for the value of the label \"" + name + "\"",
        "the end of the line");
  }

  private String metricName() {
    int start = pos;
    while (pos < line.length()) {
      char c = line.charAt(pos);
      boolean ok =
          c >= 'a' && c <= 'z'
              || c >= 'A' && c <= 'Z'
              || c == '_'
              || c == ':'
              || pos > start && c >= '0' && c <= '9';
      if (!ok) {
        break;
      }
      pos++;
    }
    return line.substring(start, pos);
  }

  private String labelName() {
    int start = pos;
    while (pos < line.length()) {
      char c = line.charAt(pos);
      boolean ok =
          c >= 'a' && c <= 'z'
              || c >= 'A' && c <= 'Z'
              || c == '_'
              || pos > start && c >= '0' && c <= '9';
      if (!ok) {
        break;
      }
      pos++;
    }
    return line.substring(start, pos);
  }

  /** Up to the next space (or tab in the text format) or the end of the line. */
  private String token() {
    int start = pos;
    while (pos < line.length()
        && line.charAt(pos) != ' '
        && (openMetrics || line.charAt(pos) != '\t')) {
      pos++;
    }
    return line.substring(start, pos);
  }

  /** Skips spaces and tabs; whether there were any. */
  private boolean skipSpace() {
    int start = pos;
    while (pos < line.length() && (line.charAt(pos) == ' ' || line.charAt(pos) == '\t')) {
      pos++;
    }
    return pos > start;
  }

  private boolean next(char c) {
    if (pos < line.length() && line.charAt(pos) == c) {
      pos++;
      return true;
    }
    return false;
  }

  private String rest() {
    return pos >= line.length() ? "the end of the line" : excerpt(line.substring(pos));
  }

  private static String excerpt(String text) {
    String shown = text.length() > EXCERPT ? text.substring(0, EXCERPT) + "..." : text;
    return "\"" + shown.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
  }

  private ExpositionException error(String expected, String found) {
    // A target's error is shown by the targets API and in logs: no escape sequence of it survives.
    return new ExpositionException(
        ControlChars.quote(
            target + ": line " + lineNumber + ": expected " + expected + ", found " + found));
  }

  /**
   * Go's strconv.ParseFloat for what Prometheus accepts: decimals, NaN and Inf in any case; out of
   * range is no number.
   */
  static Double parseFloat(String text) {
    switch (text.toLowerCase(Locale.ROOT)) {
      case "nan":
        return Double.NaN;
      case "inf", "+inf", "infinity", "+infinity":
        return Double.POSITIVE_INFINITY;
      case "-inf", "-infinity":
        return Double.NEGATIVE_INFINITY;
      default:
        if (!DECIMAL.matcher(text).matches()) {
          return null;
        }
        double value = Double.parseDouble(text);
        return Double.isInfinite(value) ? null : value;
    }
  }
}
