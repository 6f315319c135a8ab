package dev.firedrill.promql.eval;

import dev.firedrill.promql.model.LabelSet;
import dev.firedrill.promql.model.PromqlException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * {@link Feature#DELAYED_NAME_REMOVAL}: where Prometheus sets a sample's {@code DropName}, the
 * series keeps {@code __name__} and gains a marker label no real series can have (its name is not a
 * valid label name), so the flag travels with the labels through every node. Matching signatures
 * and aggregation groups leave the marker out; the query's result drops it and the name it marks.
 */
final class DelayedName {

  /** Sorts before every real label name and can never be one. */
  static final String MARK = "\u0000drop_name";

  private static final Set<String> MARK_ONLY = Set.of(MARK);

  /**
   * What the end of a query drops with the mark: the name and, as mode 3 drops them with it (the
   * flag is mode 3's only), {@code __type__} and {@code __unit__}.
   */
  private static final Set<String> MARK_AND_METADATA =
      Set.of(MARK, LabelSet.METRIC_NAME, "__type__", "__unit__");

  private DelayedName() {}

  /** The labels with their name dropped now, or (delayed) marked to be dropped at the end. */
  static LabelSet drop(LabelSet labels, Query query) {
    if (!query.has(Feature.DELAYED_NAME_REMOVAL)) {
      return query.compat().withoutName(labels);
    }
    return labels.has(LabelSet.METRIC_NAME) && !labels.has(MARK) ? mark(labels) : labels;
  }

  static LabelSet mark(LabelSet labels) {
    return labels.toBuilder().set(MARK, "1").build();
  }

  static boolean marked(LabelSet labels) {
    return labels.has(MARK);
  }

  static LabelSet strip(LabelSet labels) {
    return labels.has(MARK) ? labels.drop(MARK_ONLY) : labels;
  }

  /**
   * The query's result with marked names dropped: series that now share labels merge when their
   * steps do not overlap (a range query), else the query fails as Prometheus's does.
   */
  static List<Points> cleanUp(List<Points> result, boolean instant) {
    boolean any = false;
    for (Points p : result) {
      any |= marked(p.labels);
    }
    if (!any) {
      return result;
    }
    Map<LabelSet, List<Points>> byLabels = new LinkedHashMap<>();
    for (Points p : result) {
      LabelSet labels = marked(p.labels) ? p.labels.drop(MARK_AND_METADATA) : p.labels;
      byLabels.computeIfAbsent(labels, l -> new ArrayList<>()).add(p);
    }
    List<Points> cleaned = new ArrayList<>(byLabels.size());
    for (Map.Entry<LabelSet, List<Points>> e : byLabels.entrySet()) {
      List<Points> same = e.getValue();
      if (same.size() > 1 && instant) {
        throw duplicate();
      }
      cleaned.add(merge(e.getKey(), same));
    }
    return cleaned;
  }

  private static Points merge(LabelSet labels, List<Points> same) {
    if (same.size() == 1) {
      Points p = same.get(0);
      return new Points(labels, p.t, p.v, p.n);
    }
    java.util.TreeMap<Long, Double> points = new java.util.TreeMap<>();
    Set<Long> seen = new HashSet<>();
    for (Points p : same) {
      for (int i = 0; i < p.n; i++) {
        if (!seen.add(p.t[i])) {
          throw duplicate();
        }
        points.put(p.t[i], p.v[i]);
      }
    }
    Points merged = new Points(labels, points.size());
    points.forEach(merged::add);
    return merged;
  }

  private static PromqlException duplicate() {
    return Evaluator.error("vector cannot contain metrics with the same labelset");
  }
}
