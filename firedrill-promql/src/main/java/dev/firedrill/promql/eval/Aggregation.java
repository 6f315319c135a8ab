package dev.firedrill.promql.eval;

import dev.firedrill.format.GoFloat;
import dev.firedrill.format.GoQuote;
import dev.firedrill.promql.ast.AggregateOp;
import dev.firedrill.promql.fn.Quantiles;
import dev.firedrill.promql.model.LabelSet;
import dev.firedrill.promql.model.PromqlException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/** One aggregation at one step, Prometheus v2.42's arithmetic and group order. */
final class Aggregation {

  private static final Pattern LABEL_NAME = Pattern.compile("[a-zA-Z_][a-zA-Z0-9_]*");
  private static final double MAX_INT64 = 9223372036854774784.0;
  private static final double MIN_INT64 = -9223372036854775808.0;

  private final AggregateOp op;
  private final Set<String> grouping;
  private final boolean without;
  private final boolean prometheus3;
  private final Map<LabelSet, Group> groups = new HashMap<>();
  private final List<Group> ordered = new ArrayList<>();

  /**
   * {@code compat} decides the arithmetic: Prometheus 3 sums (for sum and avg) with Neumaier
   * compensation, and takes stddev and stdvar of a group that holds NaN or ±Inf as NaN.
   */
  Aggregation(AggregateOp op, List<String> grouping, boolean without, Compat compat) {
    this.op = op;
    this.grouping = new HashSet<>(grouping);
    this.without = without;
    this.prometheus3 = compat == Compat.PROMETHEUS_3;
  }

  /** The labels of a series' group, which also identify the group. */
  LabelSet groupOf(LabelSet labels) {
    if (without) {
      Set<String> drop = new HashSet<>(grouping);
      drop.add(LabelSet.METRIC_NAME);
      drop.add(DelayedName.MARK);
      return labels.drop(drop);
    }
    return grouping.isEmpty() ? LabelSet.EMPTY : labels.keep(grouping);
  }

  /**
   * @param groupOf each input series' group labels, by series index
   * @param param topk/bottomk's k or quantile's φ at this step
   * @param valueLabel count_values' label
   */
  void apply(StepVector in, LabelSet[] groupOf, double param, String valueLabel, StepVector out) {
    groups.clear();
    ordered.clear();
    long k = 0;
    if (op == AggregateOp.TOPK || op == AggregateOp.BOTTOMK) {
      if (prometheus3 && Double.isNaN(param)) {
        throw new PromqlException(PromqlException.ErrorType.EXECUTION, "Parameter value is NaN");
      }
      if (!(param <= MAX_INT64 && param >= MIN_INT64)) {
        throw new PromqlException(
            PromqlException.ErrorType.EXECUTION,
            "Scalar value " + GoFloat.sprint(param) + " overflows int64");
      }
      k = (long) param;
      if (k < 1) {
        return;
      }
    }
    if (op == AggregateOp.COUNT_VALUES && !LABEL_NAME.matcher(valueLabel).matches()) {
      throw new PromqlException(
          PromqlException.ErrorType.EXECUTION, "invalid label name " + GoQuote.of(valueLabel));
    }
    for (int i = 0; i < in.size; i++) {
      double v = in.values[i];
      LabelSet key;
      if (op == AggregateOp.COUNT_VALUES) {
        LabelSet metric = in.labels[i].toBuilder().set(valueLabel, GoFloat.shortestF(v)).build();
        key = countValuesGroup(metric, valueLabel);
      } else {
        key = groupOf[in.series[i]];
      }
      Group g = groups.get(key);
      if (g == null) {
        g = new Group(key, v, in.labels[i], op, prometheus3);
        groups.put(key, g);
        ordered.add(g);
      } else {
        g.add(op, v, in.labels[i], k);
      }
      // Grouped by __name__, a group loses the name when any of its samples' is to go.
      if (!g.dropName && key.has(LabelSet.METRIC_NAME) && DelayedName.marked(in.labels[i])) {
        g.dropName = true;
        g.labels = DelayedName.mark(key);
      }
    }
    for (Group g : ordered) {
      switch (op) {
        case AVG -> out.add(g.labels, g.average(), -1);
        case COUNT, COUNT_VALUES -> out.add(g.labels, g.count, -1);
        case STDVAR -> out.add(g.labels, g.value / g.count, -1);
        case STDDEV -> out.add(g.labels, Math.sqrt(g.value / g.count), -1);
        case TOPK, BOTTOMK -> {
          GoSort.sort(g.heapLabels, g.heapValues, g.heapSize, op == AggregateOp.TOPK);
          for (int j = 0; j < g.heapSize; j++) {
            out.add(g.heapLabels[j], g.heapValues[j], -1);
          }
        }
        case QUANTILE -> out.add(g.labels, Quantiles.quantile(param, g.heapValues, g.heapSize), -1);
        case SUM -> out.add(g.labels, g.value + g.kahanC, -1);
        default -> out.add(g.labels, g.value, -1);
      }
    }
  }

  private LabelSet countValuesGroup(LabelSet metric, String valueLabel) {
    if (without) {
      return groupOf(metric);
    }
    Set<String> keep = new HashSet<>(grouping);
    keep.add(valueLabel);
    return metric.keep(keep);
  }

  /** One group's running state; topk/bottomk keep a Go container/heap in the arrays. */
  private static final class Group {
    LabelSet labels;
    boolean dropName;
    final boolean prometheus3;
    double value;
    double mean;
    // Prometheus 3's compensation of value (sum, avg) or of mean (avg once its sum overflowed).
    double kahanC;
    boolean incrementalMean;
    int count = 1;
    LabelSet[] heapLabels;
    double[] heapValues;
    int heapSize;

    Group(LabelSet labels, double v, LabelSet sampleLabels, AggregateOp op, boolean prometheus3) {
      this.labels = labels;
      this.prometheus3 = prometheus3;
      this.value = v;
      this.mean = v;
      switch (op) {
        case STDVAR, STDDEV ->
            value = prometheus3 && (Double.isNaN(v) || Double.isInfinite(v)) ? Double.NaN : 0;
        case GROUP -> value = 1;
        case TOPK, BOTTOMK, QUANTILE -> {
          heapLabels = new LabelSet[4];
          heapValues = new double[4];
          push(sampleLabels, v);
        }
        default -> {}
      }
    }

    void add(AggregateOp op, double v, LabelSet sampleLabels, long k) {
      switch (op) {
        case SUM -> {
          if (prometheus3) {
            kahanAddToValue(v);
          } else {
            value += v;
          }
        }
        case AVG -> {
          if (prometheus3) {
            addToAverage3(v);
          } else {
            addToMean(v);
          }
        }
        case GROUP -> {}
        case MAX -> {
          if (value < v || Double.isNaN(value)) {
            value = v;
          }
        }
        case MIN -> {
          if (value > v || Double.isNaN(value)) {
            value = v;
          }
        }
        case COUNT, COUNT_VALUES -> count++;
        case STDVAR, STDDEV -> {
          count++;
          double delta = v - mean;
          mean += delta / count;
          value += delta * (v - mean);
        }
        case TOPK, BOTTOMK -> offer(op == AggregateOp.BOTTOMK, v, sampleLabels, k);
        case QUANTILE -> push(sampleLabels, v);
        default -> throw new IllegalStateException("expected aggregation operator but got " + op);
      }
    }

    double average() {
      if (!prometheus3) {
        return mean;
      }
      return incrementalMean ? mean + kahanC : value / count + kahanC / count;
    }

    private void kahanAddToValue(double v) {
      double t = value + v;
      kahanC = compensation(value, v, t, kahanC);
      value = t;
    }

    /** Prometheus's kahanSumInc: no compensation once the sum is infinite. */
    private static double compensation(double sum, double inc, double t, double c) {
      if (Double.isInfinite(t)) {
        return 0;
      }
      return Math.abs(sum) >= Math.abs(inc) ? c + ((sum - t) + inc) : c + ((inc - t) + sum);
    }

    /**
     * Prometheus 3's avg: a compensated sum divided at the end, switching to a compensated running
     * mean once the sum overflows.
     */
    private void addToAverage3(double v) {
      count++;
      if (!incrementalMean) {
        double t = value + v;
        if (!Double.isInfinite(t)) {
          kahanC = compensation(value, v, t, kahanC);
          value = t;
          return;
        }
        incrementalMean = true;
        mean = value / (count - 1);
        kahanC /= count - 1;
      }
      if (Double.isInfinite(mean)) {
        if (Double.isInfinite(v) && (mean > 0) == (v > 0)) {
          return;
        }
        if (!Double.isInfinite(v) && !Double.isNaN(v)) {
          return;
        }
      }
      double current = mean + kahanC;
      double inc = v / count - current / count;
      double t = mean + inc;
      kahanC = compensation(mean, inc, t, kahanC);
      mean = t;
    }

    /** v2.42's running mean, which keeps an infinite mean rather than turn it into NaN. */
    private void addToMean(double v) {
      count++;
      if (Double.isInfinite(mean)) {
        if (Double.isInfinite(v) && (mean > 0) == (v > 0)) {
          return;
        }
        if (!Double.isInfinite(v) && !Double.isNaN(v)) {
          return;
        }
      }
      mean += v / count - mean / count;
    }

    private void offer(boolean bottom, double v, LabelSet sampleLabels, long k) {
      double top = heapValues[0];
      boolean replaces = bottom ? top > v : top < v;
      if (heapSize < k || replaces || Double.isNaN(top)) {
        if (heapSize == k) {
          if (k == 1) {
            heapLabels[0] = sampleLabels;
            heapValues[0] = v;
            return;
          }
          pop(bottom);
        }
        push(sampleLabels, v);
        up(bottom, heapSize - 1);
      }
    }

    private void push(LabelSet sampleLabels, double v) {
      if (heapSize == heapValues.length) {
        heapLabels = java.util.Arrays.copyOf(heapLabels, heapSize * 2);
        heapValues = java.util.Arrays.copyOf(heapValues, heapSize * 2);
      }
      heapLabels[heapSize] = sampleLabels;
      heapValues[heapSize] = v;
      heapSize++;
    }

    private boolean less(boolean bottom, int i, int j) {
      if (Double.isNaN(heapValues[i])) {
        return true;
      }
      return bottom ? heapValues[i] > heapValues[j] : heapValues[i] < heapValues[j];
    }

    private void pop(boolean bottom) {
      int n = heapSize - 1;
      swap(0, n);
      down(bottom, 0, n);
      heapSize--;
    }

    private void up(boolean bottom, int j) {
      while (true) {
        int i = (j - 1) / 2;
        if (i == j || !less(bottom, j, i)) {
          break;
        }
        swap(i, j);
        j = i;
      }
    }

    private void down(boolean bottom, int i0, int n) {
      int i = i0;
      while (true) {
        int j1 = 2 * i + 1;
        if (j1 >= n || j1 < 0) {
          break;
        }
        int j = j1;
        int j2 = j1 + 1;
        if (j2 < n && less(bottom, j2, j1)) {
          j = j2;
        }
        if (!less(bottom, j, i)) {
          break;
        }
        swap(i, j);
        i = j;
      }
    }

    private void swap(int i, int j) {
      LabelSet l = heapLabels[i];
      heapLabels[i] = heapLabels[j];
      heapLabels[j] = l;
      double v = heapValues[i];
      heapValues[i] = heapValues[j];
      heapValues[j] = v;
    }
  }
}
