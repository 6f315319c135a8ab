package dev.firedrill.promql.eval;

import dev.firedrill.promql.ast.AggregateOp;
import dev.firedrill.promql.ast.BinaryOp;
import dev.firedrill.promql.ast.Expr;
import dev.firedrill.promql.ast.ValueType;
import dev.firedrill.promql.model.LabelMatcher;
import dev.firedrill.promql.model.LabelSet;
import dev.firedrill.promql.model.PromqlException;
import dev.firedrill.promql.model.StaleNaN;
import dev.firedrill.promql.model.StoredSeries;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Evaluates an expression at every step {@code start, start+interval, ..., end} at once, as
 * Prometheus's evaluator does: each node yields one {@link Points} per output series, with a point
 * at each step where it has a value. An instant query is the one-step case. Selectors read the
 * {@link dev.firedrill.promql.model.SeriesSource} once per node for the whole range.
 */
final class Evaluator {

  /** What a node computes from its inputs' samples at one step. */
  interface StepFunction {
    void apply(StepVector[] in, int step, long ts, StepVector out);
  }

  final Query query;
  final long start;
  final long end;
  final long interval;
  final int steps;

  Evaluator(Query query, long start, long end, long interval) {
    this.query = query;
    this.start = start;
    this.end = end;
    this.interval = interval;
    this.steps = end < start ? 0 : (int) ((end - start) / interval) + 1;
  }

  List<Points> eval(Expr expr) {
    query.checkDeadline();
    if (steps > 1
        && expr.type() != ValueType.MATRIX
        && !(unwrap(expr) instanceof Expr.NumberLiteral)
        && StepInvariance.of(expr)) {
      return repeat(new Evaluator(query, start, start, interval).eval(expr));
    }
    if (expr instanceof Expr.Paren p) {
      return eval(p.expr());
    }
    if (expr instanceof Expr.NumberLiteral n) {
      return stepwise(List.of(), (in, step, ts, out) -> out.add(LabelSet.EMPTY, n.value(), -1));
    }
    if (expr instanceof Expr.VectorSelector vs) {
      return vectorSelector(vs, false);
    }
    if (expr instanceof Expr.MatrixSelector ms) {
      return matrixSelector(ms);
    }
    if (expr instanceof Expr.Subquery sq) {
      return subquery(sq);
    }
    if (expr instanceof Expr.Unary u) {
      return unary(u);
    }
    if (expr instanceof Expr.Binary b) {
      return binary(b);
    }
    if (expr instanceof Expr.Aggregate a) {
      return aggregate(a);
    }
    if (expr instanceof Expr.Call c) {
      return new Calls(this).call(c);
    }
    throw new IllegalStateException(
        "cannot evaluate " + expr.type().promName() + " expression " + expr);
  }

  /** One step's result, at {@code start}, at every step. */
  private List<Points> repeat(List<Points> once) {
    List<Points> result = new ArrayList<>(once.size());
    for (Points p : once) {
      Points all = new Points(p.labels, steps);
      for (int step = 0; step < steps; step++) {
        all.add(stepTime(step), p.v[0]);
      }
      result.add(all);
    }
    return result;
  }

  long stepTime(int step) {
    return start + step * interval;
  }

  /** The fixed time of an {@code @} modifier, or null without one. */
  Long atTime(Expr.At at) {
    if (at == null) {
      return null;
    }
    return switch (at.kind()) {
      case TIMESTAMP -> at.timestampMs();
      case START -> query.startMs();
      case END -> query.endMs();
    };
  }

  static Expr unwrap(Expr e) {
    while (e instanceof Expr.Paren p) {
      e = p.expr();
    }
    return e;
  }

  static PromqlException error(String message) {
    return new PromqlException(PromqlException.ErrorType.EXECUTION, message);
  }

  /**
   * Runs {@code fn} at every step over the inputs' samples at that step and collects its output
   * into series. Output labels must be unique within a step, as Prometheus demands.
   */
  List<Points> stepwise(List<List<Points>> inputs, StepFunction fn) {
    int k = inputs.size();
    StepVector[] vectors = new StepVector[k];
    int[][] cursors = new int[k][];
    int biggest = 1;
    for (int i = 0; i < k; i++) {
      vectors[i] = new StepVector(inputs.get(i).size());
      cursors[i] = new int[inputs.get(i).size()];
      biggest = Math.max(biggest, inputs.get(i).size());
    }
    StepVector out = new StepVector(biggest);
    Map<LabelSet, Points> result = new LinkedHashMap<>();
    // Outputs tagged with their input series mostly keep that series' output from step to step.
    Points[] bySeries = new Points[biggest];
    for (int step = 0; step < steps; step++) {
      long ts = stepTime(step);
      if ((step & 63) == 63) {
        query.checkDeadline();
      }
      for (int i = 0; i < k; i++) {
        StepVector vector = vectors[i];
        vector.clear();
        List<Points> series = inputs.get(i);
        int[] cursor = cursors[i];
        for (int s = 0; s < cursor.length; s++) {
          Points p = series.get(s);
          int c = cursor[s];
          if (c < p.n && p.t[c] == ts) {
            vector.add(p.labels, p.v[c], s);
            cursor[s] = c + 1;
          }
        }
      }
      out.clear();
      fn.apply(vectors, step, ts, out);
      for (int j = 0; j < out.size; j++) {
        LabelSet labels = out.labels[j];
        int s = out.series[j];
        Points p =
            s >= 0 && bySeries[s] != null && bySeries[s].labels == labels ? bySeries[s] : null;
        if (p == null) {
          p = result.get(labels);
          if (p == null) {
            p = new Points(labels, steps);
            result.put(labels, p);
          }
          if (s >= 0) {
            bySeries[s] = p;
          }
        }
        if (p.n > 0 && p.t[p.n - 1] == ts) {
          throw error("vector cannot contain metrics with the same labelset");
        }
        p.add(ts, out.values[j]);
      }
    }
    return new ArrayList<>(result.values());
  }

  /**
   * The newest sample at or before each step's reference time, no older than the lookback, not a
   * staleness marker; with {@code sampleTimes} the sample's timestamp in seconds instead of its
   * value (what {@code timestamp()} of a selector reports).
   */
  List<Points> vectorSelector(Expr.VectorSelector vs, boolean sampleTimes) {
    return vectorSelector(vs, sampleTimes, false);
  }

  /** As above; with {@code startTimes} the sample's start timestamp in seconds (0: unknown). */
  List<Points> vectorSelector(Expr.VectorSelector vs, boolean sampleTimes, boolean startTimes) {
    Long at = atTime(vs.at());
    long firstRef = (at != null ? at : start) - vs.offsetMs();
    long lastRef = (at != null ? at : end) - vs.offsetMs();
    long lookback = query.lookbackMs();
    // Prometheus 3.7's smoothed selector interpolates towards the next sample, if within lookback.
    boolean smoothed = vs.rangeMode() == Expr.RangeMode.SMOOTHED && !sampleTimes && !startTimes;
    List<StoredSeries> selected =
        query
            .source()
            .select(vs.matchers(), firstRef - lookback, lastRef + (smoothed ? lookback : 0));
    List<Points> result = new ArrayList<>(selected.size());
    for (StoredSeries s : selected) {
      long[] t = s.timestamps();
      double[] v = s.values();
      Points p = new Points(s.labels(), steps);
      int next = 0;
      for (int step = 0; step < steps; step++) {
        long ts = stepTime(step);
        long ref = (at != null ? at : ts) - vs.offsetMs();
        while (next < s.count() && t[next] <= ref) {
          next++;
        }
        int i = next - 1;
        if (i < 0 || !query.compat().afterWindowStart(t[i], ref - lookback) || StaleNaN.is(v[i])) {
          continue;
        }
        if (smoothed
            && t[i] < ref
            && next < s.count()
            && t[next] <= ref + lookback
            && !StaleNaN.is(v[next])) {
          p.add(ts, v[i] + (v[next] - v[i]) * (ref - t[i]) / (double) (t[next] - t[i]));
          continue;
        }
        if (startTimes) {
          long[] st = s.startTimestamps();
          p.add(ts, st == null ? 0 : st[i] / 1000.0);
        } else {
          p.add(ts, sampleTimes ? t[i] / 1000.0 : v[i]);
        }
      }
      if (p.n > 0) {
        result.add(p);
      }
    }
    return result;
  }

  /** A range selector's series, staleness markers removed, covering every step's window. */
  List<Points> selectRange(Expr.MatrixSelector ms) {
    return selectRange(ms, 0, 0);
  }

  /**
   * As {@link #selectRange(Expr.MatrixSelector)}, reading {@code before} more milliseconds before
   * the first window and {@code after} more past the last (the anchored and smoothed modifiers'
   * neighbouring samples).
   */
  List<Points> selectRange(Expr.MatrixSelector ms, long before, long after) {
    Expr.VectorSelector vs = ms.selector();
    Long at = atTime(vs.at());
    long firstRef = (at != null ? at : start) - vs.offsetMs();
    long lastRef = (at != null ? at : end) - vs.offsetMs();
    List<StoredSeries> selected =
        query.source().select(vs.matchers(), firstRef - ms.rangeMs() - before, lastRef + after);
    List<Points> result = new ArrayList<>(selected.size());
    boolean startTimes = query.has(Feature.USE_START_TIMESTAMPS);
    for (StoredSeries s : selected) {
      long[] t = s.timestamps();
      double[] v = s.values();
      long[] st = startTimes ? s.startTimestamps() : null;
      int n = 0;
      for (int i = 0; i < s.count(); i++) {
        if (!StaleNaN.is(v[i])) {
          t[n] = t[i];
          v[n] = v[i];
          if (st != null) {
            st[n] = st[i];
          }
          n++;
        }
      }
      Points p = new Points(s.labels(), t, v, n);
      p.st = st;
      result.add(p);
    }
    return result;
  }

  /**
   * A range selector as a query's result: the samples in {@code [t - range, t]} at the one step.
   */
  private List<Points> matrixSelector(Expr.MatrixSelector ms) {
    if (start != end) {
      throw new IllegalStateException("cannot do range evaluation of matrix selector");
    }
    Long at = atTime(ms.selector().at());
    long ref = (at != null ? at : start) - ms.selector().offsetMs();
    List<Points> result = new ArrayList<>();
    for (Points s : selectRange(ms)) {
      Points window = new Points(s.labels, 16);
      for (int i = 0; i < s.n; i++) {
        if (query.compat().afterWindowStart(s.t[i], ref - ms.rangeMs()) && s.t[i] <= ref) {
          window.add(s.t[i], s.v[i]);
        }
      }
      if (window.n > 0) {
        result.add(window);
      }
    }
    return result;
  }

  /**
   * A subquery's inner expression at its own steps: multiples of the step from the first one at or
   * after {@code start - offset - range} up to {@code end - offset}.
   */
  List<Points> subquery(Expr.Subquery sq) {
    long step = sq.stepMs() > 0 ? sq.stepMs() : query.subqueryStepMs();
    Long at = atTime(sq.at());
    long bound = (at != null ? at : start) - sq.offsetMs() - sq.rangeMs();
    long innerStart = step * (bound / step);
    if (!query.compat().afterWindowStart(innerStart, bound)) {
      innerStart += step;
    }
    long innerEnd = (at != null ? at : end) - sq.offsetMs();
    return new Evaluator(query, innerStart, innerEnd, step).eval(sq.expr());
  }

  private List<Points> unary(Expr.Unary u) {
    List<Points> operand = eval(u.expr());
    if (!u.negate()) {
      return operand;
    }
    List<Points> result = new ArrayList<>(operand.size());
    Set<LabelSet> seen = new HashSet<>();
    boolean duplicate = false;
    for (Points p : operand) {
      Points negated =
          new Points(DelayedName.drop(p.labels, query), p.t.clone(), new double[p.n], p.n);
      for (int i = 0; i < p.n; i++) {
        negated.v[i] = -p.v[i];
      }
      duplicate |= !seen.add(negated.labels);
      result.add(negated);
    }
    if (duplicate && !query.has(Feature.DELAYED_NAME_REMOVAL)) {
      throw error("vector cannot contain metrics with the same labelset");
    }
    return result;
  }

  private List<Points> binary(Expr.Binary b) {
    ValueType lt = b.lhs().type();
    ValueType rt = b.rhs().type();
    List<Points> lhs = eval(b.lhs());
    List<Points> rhs = eval(b.rhs());
    BinaryOp op = b.op();
    if (lt == ValueType.SCALAR && rt == ValueType.SCALAR) {
      return stepwise(
          List.of(lhs, rhs),
          (in, step, ts, out) ->
              out.add(LabelSet.EMPTY, Binops.scalar(op, in[0].values[0], in[1].values[0]), -1));
    }
    if (lt == ValueType.VECTOR && rt == ValueType.VECTOR) {
      return new VectorMatch(this, b).eval(lhs, rhs);
    }
    boolean scalarLeft = lt == ValueType.SCALAR;
    List<Points> vectorSide = scalarLeft ? rhs : lhs;
    boolean dropName = Binops.dropsMetricName(op, query.compat()) || b.returnBool();
    LabelSet[] labelsOf = new LabelSet[vectorSide.size()];
    for (int i = 0; i < labelsOf.length; i++) {
      LabelSet l = vectorSide.get(i).labels;
      labelsOf[i] = dropName ? DelayedName.drop(l, query) : l;
    }
    return stepwise(
        List.of(lhs, rhs),
        (in, step, ts, out) -> {
          StepVector vector = in[scalarLeft ? 1 : 0];
          if (in[scalarLeft ? 0 : 1].size == 0) {
            return;
          }
          double scalar = in[scalarLeft ? 0 : 1].values[0];
          for (int i = 0; i < vector.size; i++) {
            double l = scalarLeft ? scalar : vector.values[i];
            double r = scalarLeft ? vector.values[i] : scalar;
            boolean keep = Binops.keeps(op, l, r);
            double value = op.isComparison() ? vector.values[i] : Binops.arithmetic(op, l, r);
            if (b.returnBool()) {
              value = keep ? 1 : 0;
              keep = true;
            }
            if (keep) {
              out.add(labelsOf[vector.series[i]], value, vector.series[i]);
            }
          }
        });
  }

  private List<Points> aggregate(Expr.Aggregate a) {
    if (a.op() == AggregateOp.LIMITK || a.op() == AggregateOp.LIMIT_RATIO) {
      if (query.compat() != Compat.PROMETHEUS_3) {
        throw error(
            a.op().promName()
                + "() is Prometheus 3 PromQL, which this engine in Prometheus 2 mode does not evaluate");
      }
      return Limits.of(this, a);
    }
    Aggregation aggregation = new Aggregation(a.op(), a.grouping(), a.without(), query.compat());
    List<Points> input = eval(a.expr());
    LabelSet[] groupOf = new LabelSet[input.size()];
    for (int i = 0; i < groupOf.length; i++) {
      groupOf[i] = aggregation.groupOf(input.get(i).labels);
    }
    if (a.op() == AggregateOp.COUNT_VALUES) {
      String label = ((Expr.StringLiteral) unwrap(a.param())).value();
      return stepwise(
          List.of(input), (in, step, ts, out) -> aggregation.apply(in[0], groupOf, 0, label, out));
    }
    if (a.param() == null) {
      return stepwise(
          List.of(input), (in, step, ts, out) -> aggregation.apply(in[0], groupOf, 0, null, out));
    }
    List<Points> param = eval(a.param());
    boolean quantile = a.op() == AggregateOp.QUANTILE;
    return stepwise(
        List.of(input, param),
        (in, step, ts, out) -> {
          if (quantile) {
            query.annotations().invalidQuantile(in[1].values[0], a.param());
          }
          aggregation.apply(in[0], groupOf, in[1].values[0], null, out);
        });
  }

  /** The labels {@code absent()} reports: those of equality matchers, but a label matched twice. */
  static LabelSet absentLabels(Expr arg) {
    Expr e = unwrap(arg);
    List<LabelMatcher> matchers;
    if (e instanceof Expr.VectorSelector vs) {
      matchers = vs.matchers();
    } else if (e instanceof Expr.MatrixSelector ms) {
      matchers = ms.selector().matchers();
    } else {
      return LabelSet.EMPTY;
    }
    LabelSet.Builder b = LabelSet.builder();
    Set<String> has = new HashSet<>();
    for (LabelMatcher m : matchers) {
      if (m.name().equals(LabelSet.METRIC_NAME)) {
        continue;
      }
      if (m.type() == LabelMatcher.Type.EQUAL && has.add(m.name())) {
        b.set(m.name(), m.value());
      } else {
        b.remove(m.name());
      }
    }
    return b.build();
  }
}
