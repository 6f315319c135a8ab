package dev.firedrill.promql.eval;

import dev.firedrill.promql.model.LabelSet;
import java.util.Arrays;

/** One series while it is evaluated: its labels and the points appended so far, in time order. */
final class Points {

  final LabelSet labels;
  long[] t;
  double[] v;
  int n;

  Points(LabelSet labels, int capacity) {
    this.labels = labels;
    this.t = new long[Math.max(capacity, 1)];
    this.v = new double[Math.max(capacity, 1)];
  }

  Points(LabelSet labels, long[] t, double[] v, int n) {
    this.labels = labels;
    this.t = t;
    this.v = v;
    this.n = n;
  }

  void add(long timestamp, double value) {
    if (n == t.length) {
      t = Arrays.copyOf(t, n * 2);
      v = Arrays.copyOf(v, n * 2);
    }
    t[n] = timestamp;
    v[n] = value;
    n++;
  }

  Value.Series toSeries() {
    return new Value.Series(labels, Arrays.copyOf(t, n), Arrays.copyOf(v, n));
  }
}
