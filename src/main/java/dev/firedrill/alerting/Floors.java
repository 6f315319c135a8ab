package dev.firedrill.alerting;

import dev.firedrill.experiment.Durations;
import dev.firedrill.experiment.Numbers;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Works out an alert's floor from its expression, the recording rules it reads, its {@code for}
 * and the scrape interval. Not a PromQL parser: it splits the expression at top-level {@code and},
 * {@code or} and {@code unless}, finds each part's comparison with a constant, and the range
 * windows behind its left side (through recording rules). A part over a ratio of window W compared
 * with a threshold T needs the time a full outage takes to fill T of W: T × W (a quantile q, 1 - q of
 * W); a part without a window, only the first bad sample, which a scrape may take at once. The
 * floor is a lower bound: scrape and evaluation alignment add up to one interval each on top.
 */
public final class Floors {

  private static final Pattern WINDOW = Pattern.compile("\\[\\s*(\\d+(?:ms|s|m|h|d|w|y)(?:\\d+(?:ms|s|m|h|d|w|y))*)\\s*(?::[^\\]]*)?\\]");
  private static final Pattern IDENTIFIER = Pattern.compile("[a-zA-Z_:][a-zA-Z0-9_:]*");
  private static final Pattern ABSENT = Pattern.compile("\\babsent(?:_over_time)?\\s*\\(");
  private static final Pattern QUANTILE = Pattern.compile("\\bhistogram_quantile\\s*\\(\\s*(0?\\.\\d+|1(?:\\.0*)?)\\s*,");
  private static final int MAX_DEPTH = 8;

  private Floors() {}

  public static Floor of(RuleBook.AlertRule rule, RuleBook book) {
    Duration scrape = book.scrapeInterval();
    Term expression = term(rule.query(), book, scrape);
    Duration forDuration = rule.forDuration();
    Duration total = expression.time().plus(forDuration).plus(book.queryOffset());
    String reason = forDuration.compareTo(expression.time()) > 0
        ? "for: " + Durations.format(forDuration) + ", after " + expression.text()
        : expression.text() + (forDuration.isZero() ? "" : ", then for: " + Durations.format(forDuration));
    // rules evaluate query_offset in the past, so everything they see arrives that much later
    String offset = book.queryOffset().isZero() ? "" : ", plus query_offset " + Durations.format(book.queryOffset());
    return new Floor(total, reason + offset);
  }

  private record Term(Duration time, String text) {}

  /** {@code and} needs every part, {@code or} the quickest, {@code unless} its left side. */
  private static Term term(String query, RuleBook book, Duration scrape) {
    List<String> parts = new ArrayList<>();
    List<String> joins = new ArrayList<>();
    split(strip(query), parts, joins);
    Term result = part(parts.get(0), book, scrape);
    for (int i = 1; i < parts.size(); i++) {
      Term next = part(parts.get(i), book, scrape);
      String join = joins.get(i - 1);
      if (join.equals("and")) {
        result = next.time().compareTo(result.time()) > 0 ? next : result;
      } else if (join.equals("or")) {
        result = next.time().compareTo(result.time()) < 0 ? next : result;
      }
    }
    return result;
  }

  private static Term part(String part, RuleBook book, Duration scrape) {
    Term oneScrape = new Term(Duration.ZERO, "the first bad sample, which a scrape may take at once (or up to "
        + Durations.format(scrape) + " later)");
    String[] sides = comparison(part);
    String left = sides == null ? part : sides[0];
    String expanded = expand(left, book.recording(), 0);
    if (ABSENT.matcher(expanded).find()) {
      Optional<Duration> window = longestWindow(expanded);
      return window.map(w -> new Term(w, "absent_over_time's " + Durations.format(w) + " window"))
          .orElse(new Term(Duration.ZERO, "absent(): the series goes stale at the first failed scrape, at once or up to "
              + Durations.format(scrape) + " later"));
    }
    Optional<Duration> window = longestWindow(expanded);
    if (sides == null || window.isEmpty()) {
      return oneScrape;
    }
    Optional<Double> threshold = constant(sides[1]);
    if (threshold.isEmpty() || !(threshold.get() > 0 && threshold.get() < 1)) {
      return oneScrape;
    }
    Matcher quantile = QUANTILE.matcher(expanded);
    if (quantile.find() && sides[2].startsWith(">")) {
      // A quantile crosses its threshold once the slow share of the window passes 1 - q, whatever T is.
      double q = Double.parseDouble(quantile.group(1));
      Duration needed = tenths((1 - q) * window.get().toMillis());
      return needed.isZero() ? oneScrape : new Term(needed, "the " + Durations.format(window.get())
          + " window: a " + Numbers.format(q) + " quantile needs " + Numbers.format(1 - q) + " of it slow, "
          + Durations.seconds(needed));
    }
    double share = sides[2].startsWith(">") ? threshold.get() : 1 - threshold.get();
    Duration needed = tenths(share * window.get().toMillis());
    if (needed.isZero()) {
      return oneScrape;
    }
    return new Term(needed, "the " + Durations.format(window.get()) + " window: at a 100% error ratio, "
        + Numbers.format(share) + " of it needs " + Durations.seconds(needed) + " of data");
  }

  /** Tenths of a second, rounded down: a floor is a lower bound, read beside a measurement. */
  private static Duration tenths(double millis) {
    return Duration.ofMillis((long) Math.floor(millis / 100 + 1e-9) * 100);
  }

  /** Replaces recording-rule names with their expressions, so their windows count. */
  private static String expand(String expression, Map<String, String> recording, int depth) {
    if (depth >= MAX_DEPTH) {
      return expression;
    }
    Matcher names = IDENTIFIER.matcher(expression);
    StringBuilder out = new StringBuilder();
    while (names.find()) {
      String query = recording.get(names.group());
      names.appendReplacement(out, Matcher.quoteReplacement(
          query == null ? names.group() : "(" + expand(query, recording, depth + 1) + ")"));
    }
    names.appendTail(out);
    return out.toString();
  }

  private static Optional<Duration> longestWindow(String expression) {
    Matcher windows = WINDOW.matcher(expression);
    Duration longest = null;
    while (windows.find()) {
      Duration window = Durations.parse(windows.group(1));
      longest = longest == null || window.compareTo(longest) > 0 ? window : longest;
    }
    return Optional.ofNullable(longest);
  }

  /** The top-level comparison: left, right, operator; or null. A constant on the left is turned around. */
  private static String[] comparison(String part) {
    int depth = 0;
    for (int i = 0; i < part.length(); i++) {
      char c = part.charAt(i);
      if (c == '(' || c == '{' || c == '[') {
        depth++;
      } else if (c == ')' || c == '}' || c == ']') {
        depth--;
      } else if (depth == 0 && (c == '>' || c == '<' || ((c == '=' || c == '!') && i + 1 < part.length()
          && part.charAt(i + 1) == '='))) {
        int length = i + 1 < part.length() && part.charAt(i + 1) == '=' ? 2 : 1;
        String op = part.substring(i, i + length);
        String left = part.substring(0, i).trim();
        String right = part.substring(i + length).trim().replaceFirst("^bool\\b", "").trim();
        if (constant(left).isPresent() && constant(right).isEmpty()) {
          String flipped = op.startsWith(">") ? op.replace('>', '<') : op.startsWith("<") ? op.replace('<', '>') : op;
          return new String[] {right, left, flipped};
        }
        return new String[] {left, right, op};
      }
    }
    return null;
  }

  private static void split(String query, List<String> parts, List<String> joins) {
    int depth = 0;
    int start = 0;
    Matcher words = Pattern.compile("\\b(and|or|unless)\\b").matcher(query);
    int[] depthAt = new int[query.length() + 1];
    for (int i = 0; i < query.length(); i++) {
      depthAt[i] = depth;
      char c = query.charAt(i);
      if (c == '(' || c == '{' || c == '[') {
        depth++;
      } else if (c == ')' || c == '}' || c == ']') {
        depth--;
      }
    }
    while (words.find()) {
      if (depthAt[words.start()] == 0) {
        parts.add(query.substring(start, words.start()).trim());
        joins.add(words.group(1));
        start = words.end();
      }
    }
    parts.add(query.substring(start).trim());
  }

  /** Strips comments and outer parentheses. */
  private static String strip(String query) {
    String text = query.replaceAll("#[^\\n]*", " ").replaceAll("\\s+", " ").trim();
    while (text.startsWith("(") && closing(text, 0) == text.length() - 1) {
      text = text.substring(1, text.length() - 1).trim();
    }
    return text;
  }

  private static int closing(String text, int open) {
    int depth = 0;
    for (int i = open; i < text.length(); i++) {
      if (text.charAt(i) == '(') {
        depth++;
      } else if (text.charAt(i) == ')' && --depth == 0) {
        return i;
      }
    }
    return -1;
  }

  /** A constant expression of numbers, + - * / and parentheses, such as {@code (14.4 * 0.001)}. */
  static Optional<Double> constant(String text) {
    String trimmed = text.trim();
    if (!trimmed.matches("[0-9eE.+\\-*/()\\s]+")) {
      return Optional.empty();
    }
    try {
      Arithmetic parser = new Arithmetic(trimmed.replaceAll("\\s", ""));
      double value = parser.sum();
      return parser.position == parser.text.length() ? Optional.of(value) : Optional.empty();
    } catch (RuntimeException e) {
      return Optional.empty();
    }
  }

  /** Recursive descent over the constant arithmetic alert thresholds use. */
  private static final class Arithmetic {
    private final String text;
    private int position;

    Arithmetic(String text) {
      this.text = text;
    }

    double sum() {
      double value = product();
      while (position < text.length() && (peek() == '+' || peek() == '-')) {
        value = text.charAt(position++) == '+' ? value + product() : value - product();
      }
      return value;
    }

    double product() {
      double value = factor();
      while (position < text.length() && (peek() == '*' || peek() == '/')) {
        value = text.charAt(position++) == '*' ? value * factor() : value / factor();
      }
      return value;
    }

    double factor() {
      if (peek() == '(') {
        position++;
        double value = sum();
        if (peek() != ')') {
          throw new IllegalArgumentException("expected )");
        }
        position++;
        return value;
      }
      if (peek() == '-') {
        position++;
        return -factor();
      }
      Matcher number = Pattern.compile("\\d+(\\.\\d*)?([eE][-+]?\\d+)?|\\.\\d+([eE][-+]?\\d+)?").matcher(text);
      if (!number.find(position) || number.start() != position) {
        throw new IllegalArgumentException("expected a number");
      }
      position = number.end();
      return Double.parseDouble(number.group());
    }

    char peek() {
      return position < text.length() ? text.charAt(position) : '\0';
    }
  }
}
