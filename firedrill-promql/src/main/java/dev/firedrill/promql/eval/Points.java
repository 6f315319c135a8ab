package dev.firedrill.promql.eval;

import dev.firedrill.promql.model.LabelSet;
import java.util.Arrays;

/** One series while it is evaluated: its labels and the points appended so far, in time order. */
final class Points {

  final LabelSet labels;
  long[] t;
  double[] v;
  int n;

  /**
   * The samples' start timestamps (0: unknown) when the source gave them and the query uses them;
   * null otherwise, and for every computed series (a subquery's drops them, as Prometheus's does).
   */
  long[] st;

  /**
   * Room for {@code expected} points, up to a bound: a long subquery's sparse series grow as
   * needed.
   */
  Points(LabelSet labels, int expected) {
    this.labels = labels;
    int capacity = Math.max(1, Math.min(expected, 512));
    this.t = new long[capacity];
    this.v = new double[capacity];
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
