package dev.firedrill.promql.eval;

import dev.firedrill.promql.ast.AggregateOp;
import dev.firedrill.promql.ast.BinaryOp;
import dev.firedrill.promql.ast.Expr;
import dev.firedrill.promql.ast.Function;
import dev.firedrill.promql.ast.ValueType;
import dev.firedrill.promql.model.LabelMatcher;
import dev.firedrill.promql.model.LabelSet;
import dev.firedrill.promql.model.SeriesSource;
import dev.firedrill.promql.model.StoredSeries;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** Builds expression trees and stores series for evaluator tests, without the parser. */
final class Exprs {

  private Exprs() {}

  /** {@code name{label="value", ...}}. */
  static Expr.VectorSelector sel(String name, String... labelValues) {
    List<LabelMatcher> matchers = new ArrayList<>();
    matchers.add(LabelMatcher.of(LabelMatcher.Type.EQUAL, LabelSet.METRIC_NAME, name));
    for (int i = 0; i < labelValues.length; i += 2) {
      matchers.add(LabelMatcher.of(LabelMatcher.Type.EQUAL, labelValues[i], labelValues[i + 1]));
    }
    return new Expr.VectorSelector(name, matchers, 0, null);
  }

  static Expr.VectorSelector offset(Expr.VectorSelector s, long offsetMs) {
    return new Expr.VectorSelector(s.name(), s.matchers(), offsetMs, s.at());
  }

  static Expr.VectorSelector at(Expr.VectorSelector s, long atMs) {
    return new Expr.VectorSelector(
        s.name(), s.matchers(), s.offsetMs(), new Expr.At(Expr.At.Kind.TIMESTAMP, atMs));
  }

  static Expr.MatrixSelector range(Expr.VectorSelector s, long rangeMs) {
    return new Expr.MatrixSelector(s, rangeMs);
  }

  static Expr num(double v) {
    return new Expr.NumberLiteral(v);
  }

  static Expr str(String s) {
    return new Expr.StringLiteral(s);
  }

  static Expr bin(BinaryOp op, Expr l, Expr r) {
    boolean vectors = l.type() == ValueType.VECTOR && r.type() == ValueType.VECTOR;
    return new Expr.Binary(
        op,
        l,
        r,
        false,
        vectors
            ? matching(op, Expr.VectorMatching.Cardinality.ONE_TO_ONE, List.of(), false, List.of())
            : null);
  }

  static Expr boolBin(BinaryOp op, Expr l, Expr r) {
    boolean vectors = l.type() == ValueType.VECTOR && r.type() == ValueType.VECTOR;
    return new Expr.Binary(
        op,
        l,
        r,
        true,
        vectors
            ? matching(op, Expr.VectorMatching.Cardinality.ONE_TO_ONE, List.of(), false, List.of())
            : null);
  }

  static Expr matched(
      BinaryOp op,
      Expr l,
      Expr r,
      Expr.VectorMatching.Cardinality card,
      List<String> labels,
      boolean on,
      List<String> include) {
    return new Expr.Binary(op, l, r, false, matching(op, card, labels, on, include));
  }

  private static Expr.VectorMatching matching(
      BinaryOp op,
      Expr.VectorMatching.Cardinality card,
      List<String> labels,
      boolean on,
      List<String> include) {
    return new Expr.VectorMatching(
        op.isSetOperator() ? Expr.VectorMatching.Cardinality.MANY_TO_MANY : card,
        labels,
        on,
        include);
  }

  static Expr agg(AggregateOp op, Expr e, String... by) {
    return new Expr.Aggregate(op, e, null, List.of(by), false);
  }

  static Expr aggWithout(AggregateOp op, Expr e, String... without) {
    return new Expr.Aggregate(op, e, null, List.of(without), true);
  }

  static Expr aggParam(AggregateOp op, Expr param, Expr e, String... by) {
    return new Expr.Aggregate(op, e, param, List.of(by), false);
  }

  static Expr call(String name, ValueType returns, Expr... args) {
    List<ValueType> types = new ArrayList<>();
    for (Expr a : args) {
      types.add(a.type());
    }
    return new Expr.Call(new Function(name, types, 0, returns), List.of(args));
  }

  /** An engine of Prometheus 2's closed windows, which most of these tests were written for. */
  static Engine engine(SeriesSource source) {
    return engine(source, Compat.PROMETHEUS_2);
  }

  static Engine engine(SeriesSource source, Compat compat) {
    return new Engine(source, Engine.Options.defaults().withCompat(compat));
  }

  /** Series stored in memory; {@link #selects} counts the reads. */
  static final class Store implements SeriesSource {
    private final Map<LabelSet, TreeMap<Long, Double>> series = new TreeMap<>();
    int selects;

    Store add(LabelSet labels, long t, double v) {
      series.computeIfAbsent(labels, l -> new TreeMap<>()).put(t, v);
      return this;
    }

    /** Values at 0, step, 2 step, ...; null leaves a gap. */
    Store series(LabelSet labels, long step, Double... values) {
      for (int i = 0; i < values.length; i++) {
        if (values[i] != null) {
          add(labels, i * step, values[i]);
        }
      }
      return this;
    }

    @Override
    public List<StoredSeries> select(List<LabelMatcher> matchers, long minTimeMs, long maxTimeMs) {
      selects++;
      List<StoredSeries> out = new ArrayList<>();
      series.forEach(
          (labels, samples) -> {
            if (matchers.stream().allMatch(m -> m.matches(labels.get(m.name())))) {
              var window = samples.subMap(minTimeMs, true, maxTimeMs, true);
              if (!window.isEmpty()) {
                long[] t = window.keySet().stream().mapToLong(Long::longValue).toArray();
                double[] v = window.values().stream().mapToDouble(Double::doubleValue).toArray();
                out.add(new StoredSeries(labels, t, v, t.length));
              }
            }
          });
      return out;
    }

    @Override
    public List<String> labelNames(List<LabelMatcher> matchers, long minTimeMs, long maxTimeMs) {
      return List.of();
    }
  }
}
