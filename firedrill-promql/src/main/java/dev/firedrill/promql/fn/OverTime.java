package dev.firedrill.promql.fn;

/** The {@code *_over_time} aggregations and {@code resets changes}, over a non-empty window. */
final class OverTime {

  private OverTime() {}

  static double avg(double[] v, int from, int to) {
    KahanSum mean = new KahanSum();
    double count = 0;
    for (int i = from; i < to; i++) {
      count++;
      if (Double.isInfinite(mean.sum)) {
        // An infinite mean stays what it is unless a NaN or an Inf of the other sign comes; the
        // incremental update below would turn it into Inf - Inf = NaN.
        if (Double.isInfinite(v[i]) && (mean.sum > 0) == (v[i] > 0)) {
          continue;
        }
        if (!Double.isInfinite(v[i]) && !Double.isNaN(v[i])) {
          continue;
        }
      }
      mean.add(v[i] / count - mean.sum / count);
    }
    return Double.isInfinite(mean.sum) ? mean.sum : mean.value();
  }

  /**
   * Prometheus 3's avg_over_time: the compensated sum divided by the count, which is more accurate
   * than a running mean, until the sum would overflow; from then on a compensated running mean.
   */
  static double avgDirect(double[] v, int from, int to) {
    double sum = v[from];
    double c = 0;
    double count = 1;
    double mean = 0;
    boolean incremental = false;
    for (int i = from + 1; i < to; i++) {
      count = i - from + 1;
      if (!incremental) {
        double t = sum + v[i];
        if (!Double.isInfinite(t)) {
          c += compensation(sum, v[i], t);
          sum = t;
          continue;
        }
        incremental = true;
        mean = sum / (count - 1);
        c /= count - 1;
      }
      double q = (count - 1) / count;
      double m = q * mean;
      double inc = v[i] / count;
      double t = m + inc;
      c = Double.isInfinite(t) ? 0 : q * c + compensation(m, inc, t);
      mean = t;
    }
    return incremental ? mean + c : sum / count + c / count;
  }

  /** Neumaier's correction for {@code t = sum + inc}. */
  private static double compensation(double sum, double inc, double t) {
    return Math.abs(sum) >= Math.abs(inc) ? (sum - t) + inc : (inc - t) + sum;
  }

  static double sum(double[] v, int from, int to) {
    KahanSum sum = new KahanSum();
    for (int i = from; i < to; i++) {
      sum.add(v[i]);
    }
    return Double.isInfinite(sum.sum) ? sum.sum : sum.value();
  }

  /** NaN only when every value is NaN: a NaN seen first is replaced by the next value. */
  static double max(double[] v, int from, int to) {
    double max = v[from];
    for (int i = from; i < to; i++) {
      if (v[i] > max || Double.isNaN(max)) {
        max = v[i];
      }
    }
    return max;
  }

  /** The index of the sample {@link #max} picks: the first of the greatest values. */
  static int argMax(double[] v, int from, int to) {
    int at = from;
    for (int i = from; i < to; i++) {
      if (v[i] > v[at] || Double.isNaN(v[at])) {
        at = i;
      }
    }
    return at;
  }

  /** The index of the sample {@link #min} picks: the first of the least values. */
  static int argMin(double[] v, int from, int to) {
    int at = from;
    for (int i = from; i < to; i++) {
      if (v[i] < v[at] || Double.isNaN(v[at])) {
        at = i;
      }
    }
    return at;
  }

  /**
   * Prometheus 3's mad_over_time: the median of the distances from the median; NaN when a sample
   * is, the median being undefined then.
   */
  static double mad(double[] v, int from, int to) {
    for (int i = from; i < to; i++) {
      if (Double.isNaN(v[i])) {
        return Double.NaN;
      }
    }
    double median = Quantiles.quantile(0.5, v, from, to);
    double[] distances = new double[to - from];
    for (int i = from; i < to; i++) {
      distances[i - from] = Math.abs(v[i] - median);
    }
    return Quantiles.quantile(0.5, distances, 0, distances.length);
  }

  static double min(double[] v, int from, int to) {
    double min = v[from];
    for (int i = from; i < to; i++) {
      if (v[i] < min || Double.isNaN(min)) {
        min = v[i];
      }
    }
    return min;
  }

  static double stdvar(double[] v, int from, int to) {
    double count = 0;
    KahanSum mean = new KahanSum();
    KahanSum aux = new KahanSum();
    for (int i = from; i < to; i++) {
      count++;
      double delta = v[i] - mean.value();
      mean.add(delta / count);
      aux.add(delta * (v[i] - mean.value()));
    }
    return aux.value() / count;
  }

  static double quantile(double phi, double[] v, int from, int to) {
    return Quantiles.quantile(phi, v, from, to);
  }

  /** Decreases, and with start timestamps ({@code st} not null) their resets too. */
  static double resets(long[] t, double[] v, long[] st, int from, int to) {
    int resets = 0;
    for (int i = from + 1; i < to; i++) {
      if (v[i] < v[i - 1] || (st != null && Rates.startReset(st[i - 1], t[i - 1], st[i], t[i]))) {
        resets++;
      }
    }
    return resets;
  }

  /** A NaN followed by a NaN is no change, though NaN != NaN. */
  static double changes(double[] v, int from, int to) {
    int changes = 0;
    for (int i = from + 1; i < to; i++) {
      if (v[i] != v[i - 1] && !(Double.isNaN(v[i]) && Double.isNaN(v[i - 1]))) {
        changes++;
      }
    }
    return changes;
  }
}
