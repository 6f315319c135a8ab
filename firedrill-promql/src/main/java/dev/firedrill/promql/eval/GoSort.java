package dev.firedrill.promql.eval;

import dev.firedrill.promql.model.LabelSet;
import java.util.Arrays;
import java.util.Comparator;

/**
 * Orders samples as Prometheus's sort, sort_desc, topk and bottomk do: Go's sort.Sort, an insertion
 * sort up to 12 elements (so ties keep Go's order), NaN last either way.
 */
final class GoSort {

  private GoSort() {}

  static void sort(LabelSet[] labels, double[] values, int n, boolean descending) {
    if (n <= 12) {
      for (int i = 1; i < n; i++) {
        for (int j = i; j > 0 && before(values[j], values[j - 1], descending); j--) {
          swap(labels, values, j, j - 1);
        }
      }
      return;
    }
    Integer[] order = new Integer[n];
    for (int i = 0; i < n; i++) {
      order[i] = i;
    }
    Comparator<Integer> byValue =
        (a, b) -> {
          double x = values[a];
          double y = values[b];
          if (Double.isNaN(x) || Double.isNaN(y)) {
            return Boolean.compare(Double.isNaN(x), Double.isNaN(y));
          }
          int c = x < y ? -1 : x > y ? 1 : 0;
          return descending ? -c : c;
        };
    Arrays.sort(order, byValue);
    LabelSet[] l = Arrays.copyOf(labels, n);
    double[] v = Arrays.copyOf(values, n);
    for (int i = 0; i < n; i++) {
      labels[i] = l[order[i]];
      values[i] = v[order[i]];
    }
  }

  /** Go's reversed heap order: x goes before y when y is NaN or x is beyond y. */
  private static boolean before(double x, double y, boolean descending) {
    return Double.isNaN(y) || (descending ? y < x : y > x);
  }

  private static void swap(LabelSet[] labels, double[] values, int i, int j) {
    LabelSet l = labels[i];
    labels[i] = labels[j];
    labels[j] = l;
    double v = values[i];
    values[i] = values[j];
    values[j] = v;
  }
}
