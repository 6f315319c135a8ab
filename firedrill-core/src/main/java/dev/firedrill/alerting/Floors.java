package dev.firedrill.alerting;

import dev.firedrill.alerting.lint.PromQl;
import dev.firedrill.experiment.Numbers;
import dev.firedrill.promql.ast.BinaryOp;
import dev.firedrill.promql.ast.Expr;
import dev.firedrill.promql.model.PromqlException;
import dev.firedrill.promql.parse.PromqlParser;
import dev.firedrill.time.Durations;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;

/**
 * Works out an alert's floor from its expression, the recording rules it reads, its {@code for} and
 * the scrape interval. It walks the tree of the project's PromQL parser (Prometheus 3 syntax, so
 * duration expressions, bare-number ranges and quoted UTF-8 names count): {@code and}, {@code or}
 * and {@code unless} combine their sides; each side's comparison with a constant, and the range
 * windows behind its left side (through recording rules, named bare or by {@code
 * {__name__="..."}}), give its time. A part over a ratio of window W compared with a threshold T
 * needs the time a full outage takes to fill T of W: T × W (a quantile q, 1 - q of W); a part
 * without a window, only the first bad sample, which a scrape may take at once. The floor is a
 * lower bound: scrape and evaluation alignment add up to one interval each on top. An expression
 * the parser refuses counts as the first bad sample.
 *
 * <p>After a drill the fault's real size is known: with the error ratio measured while the faults
 * were on (R), a part over a ratio needs T / R of its window instead, and says so. A 20% error
 * fault takes five times as long as an outage to fill a window; a floor worked out for the outage
 * would make every such detection look slow.
 */
public final class Floors {

  private static final int MAX_DEPTH = 8;

  private Floors() {}

  /** The floor for a fault that fails every request: what {@code plan} can say before a drill. */
  public static Floor of(RuleBook.AlertRule rule, RuleBook book) {
    return of(rule, book, OptionalDouble.empty());
  }

  /**
   * The floor for the fault as measured: {@code errorRatio}, the error ratio while the faults were
   * on, in (0, 1]; empty (or out of range) for a full outage.
   */
  public static Floor of(RuleBook.AlertRule rule, RuleBook book, OptionalDouble errorRatio) {
    Duration scrape = book.scrapeInterval();
    double ratio =
        errorRatio.isPresent() && errorRatio.getAsDouble() > 0 && errorRatio.getAsDouble() < 1
            ? errorRatio.getAsDouble()
            : 1;
    Duration forDuration = rule.forDuration();
    String query = rule.query();
    if (GrafanaQuery.isGrafana(query)) {
      List<String> why = new ArrayList<>();
      Optional<String> promql = GrafanaQuery.asPromql(query, why);
      if (promql.isEmpty()) {
        return grafanaFloor(rule, why.get(0));
      }
      query = promql.get();
    }
    Term expression = term(query, book, scrape, ratio);
    Duration total = expression.time().plus(forDuration).plus(book.queryOffset());
    String reason =
        forDuration.compareTo(expression.time()) > 0
            ? "for: " + Durations.format(forDuration) + ", after " + expression.text()
            : expression.text()
                + (forDuration.isZero() ? "" : ", then for: " + Durations.format(forDuration));
    // rules evaluate query_offset in the past, so everything they see arrives that much later
    String offset =
        book.queryOffset().isZero()
            ? ""
            : ", plus query_offset " + Durations.format(book.queryOffset());
    return new Floor(total, reason + offset);
  }

  /**
   * A Grafana-managed rule whose queries cannot be read as one PromQL comparison: one evaluation
   * interval (the condition may turn at any evaluation) plus {@code for}.
   */
  private static Floor grafanaFloor(RuleBook.AlertRule rule, String why) {
    return new Floor(
        rule.groupInterval().plus(rule.forDuration()),
        "Grafana-managed rule: interval "
            + Durations.format(rule.groupInterval())
            + " plus for: "
            + Durations.format(rule.forDuration())
            + ", as "
            + why);
  }

  /**
   * The longest range window {@code query} reads, recording rules in {@code recording} followed;
   * empty for a query without one (an instant gauge) or one the parser refuses.
   */
  public static Optional<Duration> window(String query, Map<String, String> recording) {
    try {
      Reads reads = new Reads();
      read(PromqlParser.parse(query, PromqlParser.Syntax.PROMETHEUS_3), recording, 0, reads);
      return Optional.ofNullable(reads.longestWindow);
    } catch (PromqlException e) {
      return Optional.empty();
    }
  }

  private record Term(Duration time, String text) {}

  private static Term oneScrape(Duration scrape) {
    return new Term(
        Duration.ZERO,
        "the first bad sample, which a scrape may take at once (or up to "
            + Durations.format(scrape)
            + " later)");
  }

  private static Term term(String query, RuleBook book, Duration scrape, double ratio) {
    Expr tree;
    try {
      tree = PromqlParser.parse(query, PromqlParser.Syntax.PROMETHEUS_3);
    } catch (PromqlException e) {
      return oneScrape(scrape);
    }
    return term(tree, book, scrape, ratio);
  }

  /** {@code and} needs every part, {@code or} the quickest, {@code unless} its left side. */
  private static Term term(Expr node, RuleBook book, Duration scrape, double ratio) {
    Expr expr = unwrap(node);
    if (expr instanceof Expr.Binary b && b.op().isSetOperator()) {
      Term left = term(b.lhs(), book, scrape, ratio);
      if (b.op() == BinaryOp.UNLESS) {
        return left;
      }
      Term right = term(b.rhs(), book, scrape, ratio);
      if (b.op() == BinaryOp.AND) {
        return right.time().compareTo(left.time()) > 0 ? right : left;
      }
      return right.time().compareTo(left.time()) < 0 ? right : left;
    }
    return part(expr, book, scrape, ratio);
  }

  /** What a part reads behind its comparison's left side, recording rules followed. */
  private static final class Reads {
    Duration longestWindow;
    boolean absent;
    Double quantile;

    void window(long ms) {
      if (ms > 0) {
        Duration window = Duration.ofMillis(ms);
        longestWindow =
            longestWindow == null || window.compareTo(longestWindow) > 0 ? window : longestWindow;
      }
    }
  }

  private static Term part(Expr expr, RuleBook book, Duration scrape, double ratio) {
    Expr left = expr;
    Double threshold = null;
    BinaryOp op = null;
    if (expr instanceof Expr.Binary b && b.op().isComparison()) {
      Optional<Double> l = constant(b.lhs());
      Optional<Double> r = constant(b.rhs());
      if (l.isPresent() && r.isEmpty()) {
        left = b.rhs();
        threshold = l.get();
        op = flipped(b.op());
      } else {
        left = b.lhs();
        threshold = r.orElse(null);
        op = b.op();
      }
    }
    Reads reads = new Reads();
    read(left, book.recording(), 0, reads);
    if (reads.absent) {
      Duration window = reads.longestWindow;
      return window != null
          ? new Term(window, "absent_over_time's " + Durations.format(window) + " window")
          : new Term(
              Duration.ZERO,
              "absent(): the series goes stale at the first failed scrape, at once or up to "
                  + Durations.format(scrape)
                  + " later");
    }
    Duration window = reads.longestWindow;
    if (op == null || window == null || threshold == null || !(threshold > 0 && threshold < 1)) {
      return oneScrape(scrape);
    }
    boolean above = op == BinaryOp.GTR || op == BinaryOp.GTE;
    if (reads.quantile != null && above) {
      // A quantile crosses its threshold once the slow share of the window passes 1 - q, whatever T
      // is.
      double q = reads.quantile;
      Duration needed = tenths((1 - q) * window.toMillis());
      return needed.isZero()
          ? oneScrape(scrape)
          : new Term(
              needed,
              "the "
                  + Durations.format(window)
                  + " window: a "
                  + Numbers.format(q)
                  + " quantile needs "
                  + Numbers.format(1 - q)
                  + " of it slow, "
                  + Durations.seconds(needed));
    }
    double share = above ? threshold : 1 - threshold;
    boolean measured = ratio < 1 && share < ratio;
    Duration needed = tenths((measured ? share / ratio : share) * window.toMillis());
    if (needed.isZero()) {
      return oneScrape(scrape);
    }
    // A measured ratio below the threshold means the rule reads another signal than the SLO's:
    // the outage's floor stays, and its text says it assumed 100%.
    String at =
        measured
            ? "at the "
                + Numbers.format(ratio * 100)
                + "% error ratio measured while the faults were on, "
                + Numbers.format(share)
                + " of it takes "
            : "at a 100% error ratio, " + Numbers.format(share) + " of it needs ";
    return new Term(
        needed,
        "the "
            + Durations.format(window)
            + " window: "
            + at
            + Durations.seconds(needed)
            + " of data");
  }

  private static BinaryOp flipped(BinaryOp op) {
    return switch (op) {
      case GTR -> BinaryOp.LSS;
      case GTE -> BinaryOp.LTE;
      case LSS -> BinaryOp.GTR;
      case LTE -> BinaryOp.GTE;
      default -> op;
    };
  }

  /** Tenths of a second, rounded down: a floor is a lower bound, read beside a measurement. */
  private static Duration tenths(double millis) {
    return Duration.ofMillis((long) Math.floor(millis / 100 + 1e-9) * 100);
  }

  /**
   * Windows, absent() and the first constant histogram_quantile, seeing through recording rules.
   */
  private static void read(Expr node, Map<String, String> recording, int depth, Reads reads) {
    if (node instanceof Expr.VectorSelector v) {
      String name = PromQl.metricName(v);
      String query = name == null ? null : recording.get(name);
      if (query != null && depth < MAX_DEPTH) {
        try {
          read(
              PromqlParser.parse(query, PromqlParser.Syntax.PROMETHEUS_3),
              recording,
              depth + 1,
              reads);
        } catch (PromqlException e) {
          // a recording rule the parser refuses adds no window: the floor stays a lower bound
        }
      }
    } else if (node instanceof Expr.MatrixSelector m) {
      reads.window(m.rangeMs());
      read(m.selector(), recording, depth, reads);
    } else if (node instanceof Expr.Subquery s) {
      reads.window(s.rangeMs());
      read(s.expr(), recording, depth, reads);
    } else if (node instanceof Expr.Call c) {
      String function = c.function().name();
      reads.absent |= function.equals("absent") || function.equals("absent_over_time");
      if (function.equals("histogram_quantile") && reads.quantile == null) {
        constant(c.args().get(0)).filter(q -> q > 0 && q <= 1).ifPresent(q -> reads.quantile = q);
      }
      c.args().forEach(a -> read(a, recording, depth, reads));
    } else if (node instanceof Expr.Binary b) {
      read(b.lhs(), recording, depth, reads);
      read(b.rhs(), recording, depth, reads);
    } else if (node instanceof Expr.Aggregate a) {
      if (a.param() != null) {
        read(a.param(), recording, depth, reads);
      }
      read(a.expr(), recording, depth, reads);
    } else if (node instanceof Expr.Paren p) {
      read(p.expr(), recording, depth, reads);
    } else if (node instanceof Expr.Unary u) {
      read(u.expr(), recording, depth, reads);
    }
  }

  private static Expr unwrap(Expr expr) {
    Expr e = expr;
    while (e instanceof Expr.Paren p) {
      e = p.expr();
    }
    return e;
  }

  /** A constant expression of numbers, + - * / and parentheses, such as {@code (14.4 * 0.001)}. */
  static Optional<Double> constant(String text) {
    try {
      return constant(PromqlParser.parse(text, PromqlParser.Syntax.PROMETHEUS_3));
    } catch (PromqlException e) {
      return Optional.empty();
    }
  }

  private static Optional<Double> constant(Expr node) {
    Expr e = unwrap(node);
    if (e instanceof Expr.NumberLiteral n) {
      return Optional.of(n.value());
    } else if (e instanceof Expr.Unary u) {
      return constant(u.expr()).map(v -> u.negate() ? -v : v);
    } else if (e instanceof Expr.Binary b && !b.op().isComparison() && !b.op().isSetOperator()) {
      Optional<Double> l = constant(b.lhs());
      Optional<Double> r = constant(b.rhs());
      if (l.isEmpty() || r.isEmpty()) {
        return Optional.empty();
      }
      double x = l.get();
      double y = r.get();
      return Optional.of(
          switch (b.op()) {
            case ADD -> x + y;
            case SUB -> x - y;
            case MUL -> x * y;
            case DIV -> x / y;
            case MOD -> x % y;
            case POW -> Math.pow(x, y);
            default -> Math.atan2(x, y);
          });
    }
    return Optional.empty();
  }
}
