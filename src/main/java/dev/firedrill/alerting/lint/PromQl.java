package dev.firedrill.alerting.lint;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * What the linter needs from a PromQL expression, found by a small tokenizer rather than a parser:
 *
 * <ul>
 *   <li><b>metric names</b>: identifiers that are not followed by {@code (} (functions and aggregations
 *       are), not keywords ({@code and}, {@code by}, {@code bool}, {@code offset}, ...), not {@code Inf} or
 *       {@code NaN}, not the label names of {@code by (...)}, {@code on (...)} and the like, and never
 *       anything inside {@code {...}} except the value of a {@code __name__="..."} matcher;
 *   <li>whether each one is read inside an {@code absent(...)} or {@code absent_over_time(...)} call;
 *   <li><b>range windows</b>: {@code [5m]}, and the range of a subquery {@code [1h:1m]};
 *   <li><b>comparisons</b> outside label matchers ({@code >, <, >=, <=, ==, !=}), and whether they carry
 *       {@code bool}.
 * </ul>
 *
 * <p>It does not handle: {@code __name__=~"a|b"} regex matchers (the names they match are unknown),
 * Prometheus 3's quoted UTF-8 metric names ({@code {"my.metric"}}), metric names that collide with a
 * function or keyword name, or operator precedence (a comparison anywhere counts, even one between
 * two scalars). It does not check that the expression is valid PromQL: promtool does that.
 */
public final class PromQl {

  /** A range window as written ({@code 5m}, or {@code 1h:1m} for a subquery) and its range. */
  public record Range(String text, Duration range) {}

  /** What one expression reads and compares. */
  public record Scan(Set<String> metrics, Set<String> absentMetrics, List<Range> ranges,
      int filterComparisons, int boolComparisons, boolean callsAbsent, boolean readsSeries) {}

  /** The expression is not something the tokenizer can follow (an unclosed bracket or string). */
  public static final class Unreadable extends Exception {
    private static final long serialVersionUID = 1L;

    Unreadable(String message) {
      super(message);
    }
  }

  private static final Set<String> KEYWORDS = Set.of("and", "or", "unless", "bool", "offset", "by", "without", "on",
      "ignoring", "group_left", "group_right", "atan2", "inf", "nan");
  private static final Set<String> GROUPING = Set.of("by", "without", "on", "ignoring", "group_left", "group_right");
  private static final Set<String> AGGREGATIONS = Set.of("sum", "min", "max", "avg", "group", "stddev", "stdvar",
      "count", "count_values", "bottomk", "topk", "quantile", "limitk", "limit_ratio");

  private final String text;
  private int at;
  private final Set<String> metrics = new LinkedHashSet<>();
  private final Set<String> absentMetrics = new LinkedHashSet<>();
  private final List<Range> ranges = new ArrayList<>();
  private int filter;
  private int bool;
  private boolean callsAbsent;
  private boolean readsSeries;
  /** One entry per open parenthesis: whether it is the argument list of absent() or absent_over_time(). */
  private final Deque<Boolean> parens = new ArrayDeque<>();

  private PromQl(String text) {
    this.text = text;
  }

  public static Scan scan(String expr) throws Unreadable {
    PromQl scanner = new PromQl(expr);
    scanner.run();
    return new Scan(Set.copyOf(scanner.metrics), Set.copyOf(scanner.absentMetrics), List.copyOf(scanner.ranges),
        scanner.filter, scanner.bool, scanner.callsAbsent, scanner.readsSeries);
  }

  private boolean insideAbsent() {
    return parens.contains(Boolean.TRUE);
  }

  private void run() throws Unreadable {
    while (at < text.length()) {
      char c = text.charAt(at);
      if (Character.isWhitespace(c)) {
        at++;
      } else if (c == '#') {
        while (at < text.length() && text.charAt(at) != '\n') {
          at++;
        }
      } else if (c == '"' || c == '\'' || c == '`') {
        string();
      } else if (c == '{') {
        matchers();
      } else if (c == '[') {
        range();
      } else if (c == '(') {
        parens.push(Boolean.FALSE);
        at++;
      } else if (c == ')') {
        if (parens.isEmpty()) {
          throw new Unreadable("a ) at offset " + at + " closes nothing");
        }
        parens.pop();
        at++;
      } else if (c == ']' || c == '}') {
        throw new Unreadable("a " + c + " at offset " + at + " closes nothing");
      } else if (isIdentifierStart(c)) {
        identifier();
      } else if (Character.isDigit(c) || (c == '.' && at + 1 < text.length() && Character.isDigit(text.charAt(at + 1)))) {
        while (at < text.length() && (Character.isLetterOrDigit(text.charAt(at)) || text.charAt(at) == '.'
            || ((text.charAt(at) == '+' || text.charAt(at) == '-') && "eE".indexOf(text.charAt(at - 1)) >= 0
                && !text.startsWith("0x", at - 2)))) {
          at++; // a number, a hex number, 1e-3, or a duration such as 5m after offset
        }
      } else if (startsWith("==") || startsWith("!=") || startsWith(">=") || startsWith("<=")) {
        at += 2;
        comparison();
      } else if (c == '>' || c == '<') {
        at++;
        comparison();
      } else {
        at++; // + - * / % ^ , @ and whatever promtool would reject
      }
    }
    if (!parens.isEmpty()) {
      throw new Unreadable("an ( is never closed");
    }
  }

  private boolean startsWith(String token) {
    return text.startsWith(token, at);
  }

  private void comparison() {
    int mark = at;
    skipSpace();
    int start = at;
    while (at < text.length() && isIdentifierPart(text.charAt(at))) {
      at++;
    }
    if (text.substring(start, at).equals("bool")) {
      bool++;
    } else {
      filter++;
      at = mark;
    }
  }

  private void identifier() throws Unreadable {
    int start = at;
    while (at < text.length() && isIdentifierPart(text.charAt(at))) {
      at++;
    }
    String word = text.substring(start, at);
    int end = at;
    skipSpace();
    boolean call = at < text.length() && text.charAt(at) == '(';
    String lower = word.toLowerCase(Locale.ROOT);
    if (GROUPING.contains(lower)) {
      if (call) {
        labelList();
      }
      return;
    }
    if (KEYWORDS.contains(lower)) {
      at = end;
      return;
    }
    if (call) {
      boolean absent = word.equals("absent") || word.equals("absent_over_time");
      callsAbsent |= absent;
      parens.push(absent);
      at++;
      return;
    }
    if (AGGREGATIONS.contains(word) && nextWordIsGrouping()) {
      at = end;
      return;
    }
    at = end;
    name(word);
  }

  private boolean nextWordIsGrouping() {
    int start = at;
    int end = start;
    while (end < text.length() && isIdentifierPart(text.charAt(end))) {
      end++;
    }
    String next = text.substring(start, end).toLowerCase(Locale.ROOT);
    return next.equals("by") || next.equals("without");
  }

  private void name(String metric) {
    readsSeries = true;
    (insideAbsent() ? absentMetrics : metrics).add(metric);
  }

  /** The label names of {@code by (...)} and friends: skipped up to the closing parenthesis. */
  private void labelList() throws Unreadable {
    int open = at;
    at++;
    while (at < text.length() && text.charAt(at) != ')') {
      char c = text.charAt(at);
      if (c == '"' || c == '\'' || c == '`') {
        string();
      } else {
        at++;
      }
    }
    if (at >= text.length()) {
      throw new Unreadable("the label list at offset " + open + " is never closed");
    }
    at++;
  }

  /** {@code {a="b", __name__="metric"}}: label matchers; only a {@code __name__=} value is a metric name. */
  private void matchers() throws Unreadable {
    int open = at;
    at++;
    readsSeries = true;
    String label = null;
    String op = null;
    while (at < text.length() && text.charAt(at) != '}') {
      char c = text.charAt(at);
      if (c == '"' || c == '\'' || c == '`') {
        int start = at;
        string();
        if ("__name__".equals(label) && "=".equals(op)) {
          name(text.substring(start + 1, at - 1));
        }
        label = null;
        op = null;
      } else if (isIdentifierStart(c)) {
        int start = at;
        while (at < text.length() && isIdentifierPart(text.charAt(at))) {
          at++;
        }
        label = text.substring(start, at);
      } else if (c == '=' || c == '!') {
        int start = at;
        while (at < text.length() && "=!~".indexOf(text.charAt(at)) >= 0) {
          at++;
        }
        op = text.substring(start, at);
      } else {
        at++;
      }
    }
    if (at >= text.length()) {
      throw new Unreadable("the { at offset " + open + " is never closed");
    }
    at++;
  }

  /** {@code [5m]} or {@code [1h:1m]} (a subquery; its resolution may be empty). */
  private void range() throws Unreadable {
    int close = text.indexOf(']', at);
    if (close < 0) {
      throw new Unreadable("the [ at offset " + at + " is never closed");
    }
    String inside = text.substring(at + 1, close).strip();
    String window = inside.contains(":") ? inside.substring(0, inside.indexOf(':')).strip() : inside;
    Duration range = PromDuration.parseOrNull(window);
    if (range == null) {
      throw new Unreadable("[" + inside + "] is not a range window such as [5m] or [1h:1m]");
    }
    ranges.add(new Range(inside.replace(" ", ""), range));
    at = close + 1;
  }

  private void string() throws Unreadable {
    char quote = text.charAt(at);
    int open = at;
    at++;
    while (at < text.length() && text.charAt(at) != quote) {
      at += (text.charAt(at) == '\\' && quote != '`') ? 2 : 1;
    }
    if (at >= text.length()) {
      throw new Unreadable("the string at offset " + open + " is never closed");
    }
    at++;
  }

  private void skipSpace() {
    while (at < text.length() && Character.isWhitespace(text.charAt(at))) {
      at++;
    }
  }

  private static boolean isIdentifierStart(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == ':';
  }

  private static boolean isIdentifierPart(char c) {
    return isIdentifierStart(c) || (c >= '0' && c <= '9');
  }
}
