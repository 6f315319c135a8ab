package dev.firedrill.alerting.lint;

import dev.firedrill.promql.ast.DurationExpr;
import dev.firedrill.promql.ast.Expr;
import dev.firedrill.promql.model.LabelMatcher;
import dev.firedrill.promql.model.LabelSet;
import dev.firedrill.promql.model.PromqlException;
import dev.firedrill.promql.parse.PromqlParser;
import dev.firedrill.time.Durations;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * What the linter needs from a PromQL expression, read from the tree of the project's parser in its
 * Prometheus 3 syntax (which also reads v2.x's):
 *
 * <ul>
 *   <li><b>metric names</b>: of every selector, written bare ({@code x}), quoted ({@code
 *       {"my.metric"}}) or as a {@code __name__="x"} matcher; {@code __name__=~"a|b"} matches names
 *       the linter cannot know;
 *   <li>whether each one is read inside an {@code absent(...)} or {@code absent_over_time(...)}
 *       call;
 *   <li><b>range windows</b>: {@code [5m]}, {@code [5m * 2]}, and the range of a subquery {@code
 *       [1h:1m]} (a window that needs the query's {@code step()} or {@code range()} is left out: a
 *       rule has neither);
 *   <li><b>comparisons</b> ({@code >, <, >=, <=, ==, !=}), and whether they carry {@code bool};
 *   <li>calls of {@code holt_winters}, {@code le}/{@code quantile} matchers on a whole number, and
 *       subqueries with their resolution.
 * </ul>
 */
public final class PromQl {

  /** A range window as written ({@code 5m}, or {@code 1h:1m} for a subquery) and its range. */
  public record Range(String text, Duration range) {}

  /**
   * A subquery: its brackets as written, its range and its resolution (null: the evaluation
   * interval).
   */
  public record Subquery(String text, Duration range, Duration resolution) {}

  /** What one expression reads and compares. */
  public record Scan(
      Set<String> metrics,
      Set<String> absentMetrics,
      List<Range> ranges,
      int filterComparisons,
      int boolComparisons,
      boolean callsAbsent,
      boolean readsSeries,
      boolean callsHoltWinters,
      List<String> wholeNumberBucketMatchers,
      List<Subquery> subqueries) {}

  /**
   * The expression is not PromQL: the parser's message, e.g. {@code 1:9: parse error: unclosed left
   * parenthesis}.
   */
  public static final class Unreadable extends Exception {
    private static final long serialVersionUID = 1L;

    Unreadable(String message) {
      super(message);
    }
  }

  private static final Pattern WHOLE_NUMBER = Pattern.compile("[+-]?[0-9]+");

  private final Set<String> metrics = new LinkedHashSet<>();
  private final Set<String> absentMetrics = new LinkedHashSet<>();
  private final List<Range> ranges = new ArrayList<>();
  private final List<String> bucketMatchers = new ArrayList<>();
  private final List<Subquery> subqueries = new ArrayList<>();
  private int filter;
  private int bool;
  private boolean callsAbsent;
  private boolean readsSeries;
  private boolean holtWinters;

  private PromQl() {}

  public static Scan scan(String expr) throws Unreadable {
    Expr tree;
    try {
      tree = PromqlParser.parse(expr, PromqlParser.Syntax.PROMETHEUS_3);
    } catch (PromqlException e) {
      throw new Unreadable(e.getMessage());
    }
    PromQl scanner = new PromQl();
    scanner.walk(tree, false);
    return new Scan(
        Set.copyOf(scanner.metrics),
        Set.copyOf(scanner.absentMetrics),
        List.copyOf(scanner.ranges),
        scanner.filter,
        scanner.bool,
        scanner.callsAbsent,
        scanner.readsSeries,
        scanner.holtWinters,
        List.copyOf(scanner.bucketMatchers),
        List.copyOf(scanner.subqueries));
  }

  /**
   * The metric name a selector reads: its written or quoted name, else its {@code __name__="..."}
   * matcher.
   */
  public static String metricName(Expr.VectorSelector selector) {
    if (selector.name() != null) {
      return selector.name();
    }
    return selector.matchers().stream()
        .filter(m -> m.name().equals(LabelSet.METRIC_NAME) && m.type() == LabelMatcher.Type.EQUAL)
        .map(LabelMatcher::value)
        .findFirst()
        .orElse(null);
  }

  private void walk(Expr node, boolean insideAbsent) {
    if (node instanceof Expr.VectorSelector v) {
      selector(v, insideAbsent);
    } else if (node instanceof Expr.MatrixSelector m) {
      selector(m.selector(), insideAbsent);
      if (m.rangeExpr() == null || !m.rangeExpr().dependsOnQuery()) {
        ranges.add(
            new Range(
                m.rangeExpr() == null
                    ? Durations.format(Duration.ofMillis(m.rangeMs()))
                    : m.rangeExpr().text(),
                Duration.ofMillis(m.rangeMs())));
      }
    } else if (node instanceof Expr.Subquery s) {
      walk(s.expr(), insideAbsent);
      String text = text(s.rangeExpr()) + ":" + (s.stepExpr() == null ? "" : text(s.stepExpr()));
      if (s.rangeExpr() == null || !s.rangeExpr().dependsOnQuery()) {
        ranges.add(new Range(text, Duration.ofMillis(s.rangeMs())));
        boolean knownStep = s.stepExpr() == null || !s.stepExpr().dependsOnQuery();
        if (knownStep) {
          subqueries.add(
              new Subquery(
                  text,
                  Duration.ofMillis(s.rangeMs()),
                  s.stepMs() == 0 ? null : Duration.ofMillis(s.stepMs())));
        }
      }
    } else if (node instanceof Expr.Call c) {
      String name = c.function().name();
      boolean absent = name.equals("absent") || name.equals("absent_over_time");
      callsAbsent |= absent;
      holtWinters |= name.equals("holt_winters");
      c.args().forEach(a -> walk(a, insideAbsent || absent));
    } else if (node instanceof Expr.Binary b) {
      if (b.op().isComparison()) {
        if (b.returnBool()) {
          bool++;
        } else {
          filter++;
        }
      }
      walk(b.lhs(), insideAbsent);
      walk(b.rhs(), insideAbsent);
    } else if (node instanceof Expr.Aggregate a) {
      if (a.param() != null) {
        walk(a.param(), insideAbsent);
      }
      walk(a.expr(), insideAbsent);
    } else if (node instanceof Expr.Paren p) {
      walk(p.expr(), insideAbsent);
    } else if (node instanceof Expr.Unary u) {
      walk(u.expr(), insideAbsent);
    }
  }

  private static String text(DurationExpr d) {
    return d == null ? "" : d.text();
  }

  private void selector(Expr.VectorSelector v, boolean insideAbsent) {
    readsSeries = true;
    String name = metricName(v);
    if (name != null) {
      (insideAbsent ? absentMetrics : metrics).add(name);
    }
    for (LabelMatcher m : v.matchers()) {
      boolean equality =
          m.type() == LabelMatcher.Type.EQUAL || m.type() == LabelMatcher.Type.NOT_EQUAL;
      if (equality
          && (m.name().equals("le") || m.name().equals("quantile"))
          && WHOLE_NUMBER.matcher(m.value()).matches()) {
        bucketMatchers.add(
            m.name()
                + (m.type() == LabelMatcher.Type.EQUAL ? "=" : "!=")
                + "\""
                + m.value()
                + "\"");
      }
    }
  }
}
