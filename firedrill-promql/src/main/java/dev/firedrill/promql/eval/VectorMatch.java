package dev.firedrill.promql.eval;

import dev.firedrill.promql.ast.BinaryOp;
import dev.firedrill.promql.ast.Expr;
import dev.firedrill.promql.ast.Expr.VectorMatching.Cardinality;
import dev.firedrill.promql.model.LabelSet;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** A binary operation between two instant vectors: vector matching and the set operators. */
final class VectorMatch {

  private record Pair(LabelSet left, LabelSet right) {}

  private final Evaluator evaluator;
  private final Expr.Binary binary;
  private final Expr.VectorMatching matching;
  private final Map<Pair, LabelSet> resultMetrics = new HashMap<>();
  private final Map<LabelSet, Integer> rightSigs = new HashMap<>();
  private final Map<LabelSet, Set<LabelSet>> matchedSigs = new HashMap<>();

  VectorMatch(Evaluator evaluator, Expr.Binary binary) {
    this.evaluator = evaluator;
    this.binary = binary;
    this.matching =
        binary.matching() != null
            ? binary.matching()
            : new Expr.VectorMatching(
                binary.op().isSetOperator() ? Cardinality.MANY_TO_MANY : Cardinality.ONE_TO_ONE,
                List.of(),
                false,
                List.of());
  }

  List<Points> eval(List<Points> lhs, List<Points> rhs) {
    LabelSet[] lsig = signatures(lhs);
    LabelSet[] rsig = signatures(rhs);
    return evaluator.stepwise(
        List.of(lhs, rhs),
        (in, step, ts, out) -> {
          switch (binary.op()) {
            case AND -> and(in[0], in[1], lsig, rsig, out);
            case OR -> or(in[0], in[1], lsig, rsig, out);
            case UNLESS -> unless(in[0], in[1], lsig, rsig, out);
            default -> binop(in[0], in[1], lsig, rsig, out);
          }
        });
  }

  /**
   * The labels a series matches on: {@code on(...)} keeps, {@code ignoring(...)} drops (and the
   * name).
   */
  private LabelSet[] signatures(List<Points> series) {
    Set<String> names = new HashSet<>(matching.labels());
    if (!matching.on()) {
      names.add(LabelSet.METRIC_NAME);
      names.add(DelayedName.MARK);
    }
    LabelSet[] sigs = new LabelSet[series.size()];
    for (int i = 0; i < sigs.length; i++) {
      LabelSet l = series.get(i).labels;
      sigs[i] = matching.on() ? l.keep(names) : l.drop(names);
    }
    return sigs;
  }

  private static void and(
      StepVector l, StepVector r, LabelSet[] lsig, LabelSet[] rsig, StepVector out) {
    if (l.size == 0 || r.size == 0) {
      return;
    }
    Set<LabelSet> right = new HashSet<>();
    for (int j = 0; j < r.size; j++) {
      right.add(rsig[r.series[j]]);
    }
    for (int i = 0; i < l.size; i++) {
      if (right.contains(lsig[l.series[i]])) {
        out.add(l.labels[i], l.values[i], -1);
      }
    }
  }

  private static void or(
      StepVector l, StepVector r, LabelSet[] lsig, LabelSet[] rsig, StepVector out) {
    Set<LabelSet> left = new HashSet<>();
    for (int i = 0; i < l.size; i++) {
      left.add(lsig[l.series[i]]);
      out.add(l.labels[i], l.values[i], -1);
    }
    for (int j = 0; j < r.size; j++) {
      if (!left.contains(rsig[r.series[j]])) {
        out.add(r.labels[j], r.values[j], -1);
      }
    }
  }

  private static void unless(
      StepVector l, StepVector r, LabelSet[] lsig, LabelSet[] rsig, StepVector out) {
    Set<LabelSet> right = new HashSet<>();
    for (int j = 0; j < r.size; j++) {
      right.add(rsig[r.series[j]]);
    }
    for (int i = 0; i < l.size; i++) {
      if (!right.contains(lsig[l.series[i]])) {
        out.add(l.labels[i], l.values[i], -1);
      }
    }
  }

  /** One-to-one and many-to-one (one-to-many swaps the sides), Prometheus's VectorBinop. */
  private void binop(
      StepVector left,
      StepVector right,
      LabelSet[] leftSigs,
      LabelSet[] rightSigsOf,
      StepVector out) {
    boolean swap = matching.cardinality() == Cardinality.ONE_TO_MANY;
    // fill_left(v) stands in for a missing left sample, fill_right(v) for a missing right one;
    // as in Prometheus, group_right's swap of the sides applies to them too (its tests say so).
    Double fillMissingLhs = matching.fillLeft();
    Double fillMissingRhs = matching.fillRight();
    if ((left.size == 0 || right.size == 0) && fillMissingLhs == null && fillMissingRhs == null) {
      return;
    }
    StepVector lhs = swap ? right : left;
    StepVector rhs = swap ? left : right;
    LabelSet[] lsig = swap ? rightSigsOf : leftSigs;
    LabelSet[] rsig = swap ? leftSigs : rightSigsOf;
    rightSigs.clear();
    for (int j = 0; j < rhs.size; j++) {
      LabelSet sig = rsig[rhs.series[j]];
      Integer dupl = rightSigs.put(sig, j);
      if (dupl != null) {
        throw Evaluator.error(
            "found duplicate series for the match group "
                + GoFormat.labels(sig)
                + " on the "
                + (swap ? "left" : "right")
                + " hand-side of the operation: ["
                + GoFormat.labels(rhs.labels[j])
                + ", "
                + GoFormat.labels(rhs.labels[dupl])
                + "];many-to-many matching not allowed: matching labels must be unique on one side");
      }
    }
    matchedSigs.clear();
    BinaryOp op = binary.op();
    if (matching.cardinality() == Cardinality.ONE_TO_ONE
        && evaluator.query.compat() == Compat.PROMETHEUS_3) {
      requireOneMatchEach(lhs, lsig);
    }
    for (int i = 0; i < lhs.size; i++) {
      LabelSet sig = lsig[lhs.series[i]];
      Integer j = rightSigs.get(sig);
      if (j == null) {
        if (fillMissingRhs != null) {
          filled(lhs.labels[i], LabelSet.EMPTY, sig, lhs.values[i], fillMissingRhs, swap, out);
        }
        continue;
      }
      double vl = swap ? rhs.values[j] : lhs.values[i];
      double vr = swap ? lhs.values[i] : rhs.values[j];
      boolean keep = Binops.keeps(op, vl, vr);
      double value = Binops.element(op, vl, vr);
      if (binary.returnBool()) {
        value = keep ? 1 : 0;
      } else if (!keep) {
        continue;
      }
      LabelSet metric = resultMetric(lhs.labels[i], rhs.labels[j]);
      if (binary.returnBool()) {
        metric = DelayedName.drop(metric, evaluator.query);
      }
      Set<LabelSet> inserted = matchedSigs.get(sig);
      if (matching.cardinality() == Cardinality.ONE_TO_ONE) {
        if (inserted != null) {
          throw Evaluator.error(
              "multiple matches for labels: many-to-one matching must be explicit (group_left/group_right)");
        }
        matchedSigs.put(sig, Set.of());
      } else {
        if (inserted == null) {
          inserted = new HashSet<>();
          matchedSigs.put(sig, inserted);
        }
        if (!inserted.add(metric)) {
          throw Evaluator.error(
              "multiple matches for labels: grouping labels must ensure unique matches");
        }
      }
      out.add(metric, value, -1);
    }
    if (fillMissingLhs != null) {
      for (int j = 0; j < rhs.size; j++) {
        LabelSet sig = rsig[rhs.series[j]];
        if (!matchedSigs.containsKey(sig) && !leftHas(lhs, lsig, sig)) {
          filled(sig, rhs.labels[j], sig, fillMissingLhs, rhs.values[j], swap, out);
        }
      }
    }
  }

  /**
   * Prometheus 3 refuses two left samples matching one right sample in one-to-one matching even
   * when a comparison would filter all but one of them away.
   */
  private void requireOneMatchEach(StepVector lhs, LabelSet[] lsig) {
    Set<LabelSet> matched = new HashSet<>();
    for (int i = 0; i < lhs.size; i++) {
      LabelSet sig = lsig[lhs.series[i]];
      if (rightSigs.containsKey(sig) && !matched.add(sig)) {
        throw Evaluator.error(
            "multiple matches for labels: many-to-one matching must be explicit (group_left/group_right)");
      }
    }
  }

  private static boolean leftHas(StepVector lhs, LabelSet[] lsig, LabelSet sig) {
    for (int i = 0; i < lhs.size; i++) {
      if (lsig[lhs.series[i]].equals(sig)) {
        return true;
      }
    }
    return false;
  }

  /**
   * One sample whose other side is missing and filled: {@code present} is the sample's own value,
   * {@code fill} the stand-in; a missing left side lends its place the match's signature as labels.
   */
  private void filled(
      LabelSet lhsLabels,
      LabelSet rhsLabels,
      LabelSet sig,
      double first,
      double second,
      boolean swapped,
      StepVector out) {
    double vl = swapped ? second : first;
    double vr = swapped ? first : second;
    BinaryOp op = binary.op();
    boolean keep = Binops.keeps(op, vl, vr);
    double value = Binops.element(op, vl, vr);
    if (binary.returnBool()) {
      value = keep ? 1 : 0;
    } else if (!keep) {
      return;
    }
    LabelSet metric = resultMetric(lhsLabels, rhsLabels);
    if (binary.returnBool()) {
      metric = DelayedName.drop(metric, evaluator.query);
    }
    out.add(metric, value, -1);
  }

  private LabelSet resultMetric(LabelSet lhs, LabelSet rhs) {
    Pair key = new Pair(lhs, rhs);
    LabelSet cached = resultMetrics.get(key);
    if (cached != null) {
      return cached;
    }
    LabelSet result =
        Binops.dropsMetricName(binary.op(), evaluator.query.compat())
            ? DelayedName.drop(lhs, evaluator.query)
            : lhs;
    if (matching.cardinality() == Cardinality.ONE_TO_ONE) {
      result =
          matching.on()
              ? result.keep(new HashSet<>(matching.labels()))
              : result.drop(new HashSet<>(matching.labels()));
    }
    if (!matching.include().isEmpty()) {
      LabelSet.Builder b = result.toBuilder();
      for (String name : matching.include()) {
        String v = rhs.get(name);
        if (v.isEmpty()) {
          b.remove(name);
        } else {
          b.set(name, v);
        }
      }
      result = b.build();
    }
    resultMetrics.put(key, result);
    return result;
  }
}
