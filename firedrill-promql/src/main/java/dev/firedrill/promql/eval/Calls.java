package dev.firedrill.promql.eval;

import dev.firedrill.format.GoFloat;
import dev.firedrill.promql.ast.Expr;
import dev.firedrill.promql.fn.InstantFunctions;
import dev.firedrill.promql.fn.LabelFunctions;
import dev.firedrill.promql.fn.LabelReplace;
import dev.firedrill.promql.fn.NaturalOrder;
import dev.firedrill.promql.fn.Quantiles;
import dev.firedrill.promql.fn.RangeFunctions;
import dev.firedrill.promql.model.LabelSet;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.Set;

/**
 * Function calls: those of a range vector slide a window over each series, the rest work step by
 * step; the library in {@code promql.fn} computes the values, this class the labels, the arguments
 * and the functions that are about presence, order or time rather than values.
 */
final class Calls {

  private static final Set<String> DATE_FUNCTIONS =
      Set.of(
          "days_in_month",
          "day_of_month",
          "day_of_week",
          "day_of_year",
          "hour",
          "minute",
          "month",
          "year");

  /** What reads start timestamps with {@code use-start-timestamps}. */
  private static final Set<String> START_TIME_FUNCTIONS =
      Set.of("rate", "increase", "irate", "resets");

  private final Evaluator ev;

  Calls(Evaluator ev) {
    this.ev = ev;
  }

  List<Points> call(Expr.Call call) {
    String name = call.function().name();
    List<Expr> args = call.args();
    for (int i = 0; i < args.size(); i++) {
      Expr a = Evaluator.unwrap(args.get(i));
      if (a instanceof Expr.MatrixSelector || a instanceof Expr.Subquery) {
        return rangeFunction(call, i);
      }
    }
    return switch (name) {
      case "time" ->
          ev.stepwise(List.of(), (in, step, ts, out) -> out.add(LabelSet.EMPTY, ts / 1000.0, -1));
      case "step", "range", "start", "end" -> queryParameter(name);
      case "min_of", "max_of" -> {
        boolean max = name.equals("max_of");
        yield ev.stepwise(
            List.of(ev.eval(args.get(0)), ev.eval(args.get(1))),
            (in, step, ts, out) -> {
              double a = in[0].values[0];
              double b = in[1].values[0];
              double v =
                  Double.isNaN(a) || Double.isNaN(b)
                      ? Double.NaN
                      : max ? Math.max(a, b) : Math.min(a, b);
              out.add(LabelSet.EMPTY, v, -1);
            });
      }
      case "pi" ->
          ev.stepwise(List.of(), (in, step, ts, out) -> out.add(LabelSet.EMPTY, Math.PI, -1));
      case "vector" ->
          ev.stepwise(
              List.of(ev.eval(args.get(0))),
              (in, step, ts, out) -> out.add(LabelSet.EMPTY, in[0].values[0], -1));
      case "scalar" ->
          ev.stepwise(
              List.of(ev.eval(args.get(0))),
              (in, step, ts, out) ->
                  out.add(LabelSet.EMPTY, in[0].size == 1 ? in[0].values[0] : Double.NaN, -1));
      case "absent" -> absent(args.get(0));
      case "sort", "sort_desc" -> sort(call, name.equals("sort_desc"));
      case "sort_by_label", "sort_by_label_desc" ->
          sortByLabel(call, name.equals("sort_by_label_desc"));
      case "timestamp" -> timestamp(args.get(0));
      case "start_timestamp" -> startTimestamp(args.get(0));
      case "label_replace" -> labelReplace(args);
      case "label_join" -> labelJoin(args);
      case "histogram_quantile" -> histogramQuantile(args);
      case "info" -> Info.eval(ev, args);
      // Native histograms' functions: a float sample is no histogram, so they yield nothing.
      case "histogram_count", "histogram_sum", "histogram_fraction" -> {
        args.forEach(a -> ev.eval(a));
        yield List.of();
      }
      default -> {
        if (DATE_FUNCTIONS.contains(name) && args.isEmpty()) {
          yield ev.stepwise(
              List.of(),
              (in, step, ts, out) ->
                  out.add(
                      LabelSet.EMPTY, InstantFunctions.apply(name, ts / 1000, new double[0]), -1));
        }
        if (InstantFunctions.isElementwise(name)) {
          yield elementwise(name, args);
        }
        throw Evaluator.error("function " + name + " is not supported");
      }
    };
  }

  /** Prometheus 3's step(), range(), start() and end(): the query's own, in seconds. */
  private List<Points> queryParameter(String name) {
    Query q = ev.query;
    double seconds =
        switch (name) {
          case "step" -> q.stepMs() / 1000.0;
          case "range" -> (q.endMs() - q.startMs()) / 1000.0;
          case "start" -> q.startMs() / 1000.0;
          default -> q.endMs() / 1000.0;
        };
    return ev.stepwise(List.of(), (in, step, ts, out) -> out.add(LabelSet.EMPTY, seconds, -1));
  }

  private static String string(Expr e) {
    return ((Expr.StringLiteral) Evaluator.unwrap(e)).value();
  }

  /**
   * Each sample on its own through the library, the name dropped; scalar arguments follow the
   * vector.
   */
  private List<Points> elementwise(String name, List<Expr> args) {
    List<List<Points>> inputs = new ArrayList<>();
    for (Expr a : args) {
      inputs.add(ev.eval(a));
    }
    LabelSet[] dropped = dropNames(inputs.get(0));
    double[] scalars = new double[args.size() - 1];
    boolean clamp = name.equals("clamp");
    return ev.stepwise(
        inputs,
        (in, step, ts, out) -> {
          for (int j = 0; j < scalars.length; j++) {
            scalars[j] = in[j + 1].values[0];
          }
          // clamp with max below min has no answer, and Prometheus gives no samples rather than
          // NaN.
          if (clamp && scalars[1] < scalars[0]) {
            return;
          }
          StepVector v = in[0];
          for (int i = 0; i < v.size; i++) {
            out.add(
                dropped[v.series[i]],
                InstantFunctions.apply(name, v.values[i], scalars),
                v.series[i]);
          }
        });
  }

  private LabelSet[] dropNames(List<Points> series) {
    LabelSet[] dropped = new LabelSet[series.size()];
    for (int i = 0; i < dropped.length; i++) {
      dropped[i] = DelayedName.drop(series.get(i).labels, ev.query);
    }
    return dropped;
  }

  private List<Points> absent(Expr arg) {
    LabelSet labels = Evaluator.absentLabels(arg);
    return ev.stepwise(
        List.of(ev.eval(arg)),
        (in, step, ts, out) -> {
          if (in[0].size == 0) {
            out.add(labels, 1, -1);
          }
        });
  }

  private List<Points> sort(Expr.Call call, boolean descending) {
    rangeSort(call);
    return ev.stepwise(
        List.of(ev.eval(call.args().get(0))),
        (in, step, ts, out) -> {
          for (int i = 0; i < in[0].size; i++) {
            out.add(in[0].labels[i], in[0].values[i], -1);
          }
          GoSort.sort(out.labels, out.values, out.size, descending);
        });
  }

  /** Prometheus 3 warns that a sort anywhere in a range query changes nothing. */
  private void rangeSort(Expr.Call call) {
    if (ev.query.stepMs() != 0 && ev.query.compat() == Compat.PROMETHEUS_3) {
      ev.query.annotations().ineffectiveSort(call);
    }
  }

  /**
   * Prometheus 3's sort_by_label: by the named labels' values in natural order, then by the whole
   * label set; descending reverses both.
   */
  private List<Points> sortByLabel(Expr.Call call, boolean descending) {
    rangeSort(call);
    List<Expr> args = call.args();
    List<String> names = new ArrayList<>();
    for (int i = 1; i < args.size(); i++) {
      names.add(string(args.get(i)));
    }
    Comparator<LabelSet> order =
        (a, b) -> {
          for (String name : names) {
            String x = a.get(name);
            String y = b.get(name);
            if (!x.equals(y)) {
              return NaturalOrder.before(x, y) ? -1 : 1;
            }
          }
          return a.compareTo(b);
        };
    Comparator<LabelSet> sorted = descending ? order.reversed() : order;
    return ev.stepwise(
        List.of(ev.eval(args.get(0))),
        (in, step, ts, out) -> {
          Integer[] index = new Integer[in[0].size];
          for (int i = 0; i < index.length; i++) {
            index[i] = i;
          }
          java.util.Arrays.sort(index, (i, j) -> sorted.compare(in[0].labels[i], in[0].labels[j]));
          for (int i : index) {
            out.add(in[0].labels[i], in[0].values[i], -1);
          }
        });
  }

  /**
   * A selector's own sample times; for any other argument the evaluation time, as Prometheus does.
   */
  private List<Points> timestamp(Expr arg) {
    Expr a = Evaluator.unwrap(arg);
    if (a instanceof Expr.VectorSelector vs) {
      List<Points> times = ev.vectorSelector(vs, true);
      LabelSet[] dropped = dropNames(times);
      return ev.stepwise(
          List.of(times),
          (in, step, ts, out) -> {
            for (int i = 0; i < in[0].size; i++) {
              out.add(dropped[in[0].series[i]], in[0].values[i], in[0].series[i]);
            }
          });
    }
    List<Points> input = ev.eval(arg);
    LabelSet[] dropped = dropNames(input);
    return ev.stepwise(
        List.of(input),
        (in, step, ts, out) -> {
          for (int i = 0; i < in[0].size; i++) {
            out.add(dropped[in[0].series[i]], ts / 1000.0, in[0].series[i]);
          }
        });
  }

  /**
   * A selector's samples' start timestamps in seconds (0 where unknown), with {@code
   * use-start-timestamps}; nothing without it or for any other argument, whose samples have none.
   */
  private List<Points> startTimestamp(Expr arg) {
    Expr a = Evaluator.unwrap(arg);
    if (!(a instanceof Expr.VectorSelector vs) || !ev.query.has(Feature.USE_START_TIMESTAMPS)) {
      ev.eval(arg);
      return List.of();
    }
    List<Points> starts = ev.vectorSelector(vs, false, true);
    LabelSet[] dropped = dropNames(starts);
    return relabel(starts, dropped);
  }

  private List<Points> labelReplace(List<Expr> args) {
    String dst = string(args.get(1));
    String replacement = string(args.get(2));
    String src = string(args.get(3));
    String regex = string(args.get(4));
    List<Points> input = ev.eval(args.get(0));
    // Prometheus checks the regex and the destination before the first sample, even with none.
    boolean three = ev.query.compat() == Compat.PROMETHEUS_3;
    LabelReplace replace = LabelReplace.compile(dst, replacement, src, regex, three);
    LabelSet[] relabelled = new LabelSet[input.size()];
    for (int i = 0; i < relabelled.length; i++) {
      LabelSet l = input.get(i).labels;
      relabelled[i] = replace.apply(l);
      // Setting __name__ keeps it, though a function before meant to drop it.
      if (dst.equals(LabelSet.METRIC_NAME) && replace.matches(l)) {
        relabelled[i] = DelayedName.strip(relabelled[i]);
      }
    }
    return relabel(input, relabelled);
  }

  private List<Points> labelJoin(List<Expr> args) {
    String dst = string(args.get(1));
    String separator = string(args.get(2));
    String[] sources = new String[args.size() - 3];
    for (int i = 3; i < args.size(); i++) {
      sources[i - 3] = string(args.get(i));
    }
    List<Points> input = ev.eval(args.get(0));
    boolean three = ev.query.compat() == Compat.PROMETHEUS_3;
    LabelFunctions.join(three, LabelSet.EMPTY, dst, separator, sources);
    LabelSet[] relabelled = new LabelSet[input.size()];
    for (int i = 0; i < relabelled.length; i++) {
      relabelled[i] = LabelFunctions.join(three, input.get(i).labels, dst, separator, sources);
      if (dst.equals(LabelSet.METRIC_NAME)) {
        relabelled[i] = DelayedName.strip(relabelled[i]);
      }
    }
    return relabel(input, relabelled);
  }

  private List<Points> relabel(List<Points> input, LabelSet[] labels) {
    return ev.stepwise(
        List.of(input),
        (in, step, ts, out) -> {
          for (int i = 0; i < in[0].size; i++) {
            out.add(labels[in[0].series[i]], in[0].values[i], in[0].series[i]);
          }
        });
  }

  /**
   * Classic histograms: buckets grouped by all labels but {@code le}; the result drops the name
   * too.
   */
  private List<Points> histogramQuantile(List<Expr> args) {
    List<Points> phi = ev.eval(args.get(0));
    List<Points> buckets = ev.eval(args.get(1));
    LabelSet[] groupOf = new LabelSet[buckets.size()];
    LabelSet[] outLabels = new LabelSet[buckets.size()];
    Double[] upperBound = new Double[buckets.size()];
    Set<String> le = Set.of("le");
    String[] names = new String[buckets.size()];
    for (int i = 0; i < groupOf.length; i++) {
      LabelSet l = buckets.get(i).labels;
      groupOf[i] = l.drop(le);
      outLabels[i] = ev.query.compat().withoutName(groupOf[i]);
      upperBound[i] = GoFloat.parse(l.get("le"));
      names[i] = l.get(LabelSet.METRIC_NAME);
    }
    Annotations annotations = ev.query.annotations();
    Map<LabelSet, Histogram> groups = new LinkedHashMap<>();
    return ev.stepwise(
        List.of(phi, buckets),
        (in, step, ts, out) -> {
          groups.clear();
          StepVector v = in[1];
          for (int i = 0; i < v.size; i++) {
            int s = v.series[i];
            if (upperBound[s] == null) {
              annotations.badBucketLabel(buckets.get(s).labels.get("le"), names[s], args.get(1));
              continue;
            }
            groups
                .computeIfAbsent(groupOf[s], k -> new Histogram(outLabels[s], names[s]))
                .add(upperBound[s], v.values[i]);
          }
          double q = in[0].values[0];
          annotations.invalidQuantile(q, args.get(0));
          for (Histogram h : groups.values()) {
            out.add(
                h.labels,
                Quantiles.histogramQuantile(
                    q,
                    h.bounds,
                    h.counts,
                    h.n,
                    () -> annotations.forcedMonotonicity(h.name, args.get(1))),
                -1);
          }
        });
  }

  private static final class Histogram {
    final LabelSet labels;
    final String name;
    double[] bounds = new double[8];
    double[] counts = new double[8];
    int n;

    Histogram(LabelSet labels, String name) {
      this.labels = labels;
      this.name = name;
    }

    void add(double bound, double count) {
      if (n == bounds.length) {
        bounds = java.util.Arrays.copyOf(bounds, n * 2);
        counts = java.util.Arrays.copyOf(counts, n * 2);
      }
      bounds[n] = bound;
      counts[n] = count;
      n++;
    }
  }

  /**
   * A function of a range vector: for each series, the window {@code [ref - range, ref]} of every
   * step (ref = step time, or the {@code @} time, less the offset) slides along the samples read
   * once; scalar arguments are evaluated at every step.
   */
  private List<Points> rangeFunction(Expr.Call call, int matrixIndex) {
    String name = call.function().name();
    List<Expr> args = call.args();
    List<List<Points>> scalarArgs = new ArrayList<>();
    for (int i = 0; i < args.size(); i++) {
      if (i != matrixIndex) {
        scalarArgs.add(ev.eval(args.get(i)));
      }
    }
    Expr arg = Evaluator.unwrap(args.get(matrixIndex));
    List<Points> series;
    long range;
    long offset;
    Long at;
    Expr.RangeMode mode = Expr.RangeMode.PLAIN;
    if (arg instanceof Expr.MatrixSelector ms) {
      mode = ms.selector().rangeMode();
      if (mode != Expr.RangeMode.PLAIN) {
        ExtendedRange.check(mode, name);
        long lookback = ev.query.lookbackMs();
        series = ev.selectRange(ms, lookback, mode == Expr.RangeMode.SMOOTHED ? lookback : 0);
        return ExtendedRange.apply(ev, mode, name, series, ms);
      }
      series = ev.selectRange(ms);
      range = ms.rangeMs();
      offset = ms.selector().offsetMs();
      at = ev.atTime(ms.selector().at());
    } else {
      Expr.Subquery sq = (Expr.Subquery) arg;
      series = ev.subquery(sq);
      range = sq.rangeMs();
      offset = sq.offsetMs();
      at = ev.atTime(sq.at());
    }
    refuseOtherMajorsName(name);
    boolean absent = name.equals("absent_over_time");
    if (!absent && !RangeFunctions.isRangeFunction(name)) {
      throw Evaluator.error("function " + name + " is not supported");
    }
    boolean prometheus3 = ev.query.compat() == Compat.PROMETHEUS_3;
    boolean[] present = new boolean[ev.steps];
    double[] scalars = new double[scalarArgs.size()];
    List<Points> result = new ArrayList<>();
    Set<LabelSet> seen = new HashSet<>();
    for (Points s : series) {
      ev.query.checkDeadline();
      LabelSet labels =
          name.equals("last_over_time") || name.equals("first_over_time")
              ? s.labels
              : DelayedName.drop(s.labels, ev.query);
      Points out = new Points(labels, absent ? 1 : ev.steps);
      long[] startTimes = START_TIME_FUNCTIONS.contains(name) ? s.st : null;
      String metricName = s.labels.metricName();
      Runnable overlap =
          () -> ev.query.annotations().startTimeOverlap(metricName, args.get(matrixIndex));
      int from = 0;
      int to = 0;
      for (int step = 0; step < ev.steps; step++) {
        long ts = ev.stepTime(step);
        long ref = (at != null ? at : ts) - offset;
        while (to < s.n && s.t[to] <= ref) {
          to++;
        }
        while (from < to && !ev.query.compat().afterWindowStart(s.t[from], ref - range)) {
          from++;
        }
        if (from == to) {
          continue;
        }
        if (absent) {
          present[step] = true;
          continue;
        }
        for (int j = 0; j < scalars.length; j++) {
          scalars[j] = scalarArgs.get(j).get(0).v[step];
        }
        if (name.equals("quantile_over_time")) {
          ev.query.annotations().invalidQuantile(scalars[0], args.get(0));
        }
        OptionalDouble value =
            RangeFunctions.apply(
                name,
                s.t,
                s.v,
                startTimes,
                from,
                to,
                ref - range,
                ref,
                ts,
                scalars,
                prometheus3,
                overlap);
        if (value.isPresent()) {
          out.add(ts, value.getAsDouble());
        }
      }
      if (out.n > 0) {
        if (!seen.add(labels) && !ev.query.has(Feature.DELAYED_NAME_REMOVAL)) {
          throw Evaluator.error("vector cannot contain metrics with the same labelset");
        }
        if (prometheus3 && (name.equals("rate") || name.equals("increase"))) {
          // Prometheus 3.5 places it at the range selector, or at the call for a subquery.
          ev.query
              .annotations()
              .possibleNonCounter(
                  s.labels.get(LabelSet.METRIC_NAME),
                  arg instanceof Expr.MatrixSelector ? args.get(matrixIndex) : call);
        }
        result.add(out);
      }
    }
    return absent ? absentOverTime(present, arg) : result;
  }

  /**
   * Prometheus 3 renamed holt_winters to double_exponential_smoothing: each mode evaluates only its
   * own name (the 3.x grammar still reads the old one, so a linter can name it).
   */
  private void refuseOtherMajorsName(String name) {
    boolean three = ev.query.compat() == Compat.PROMETHEUS_3;
    if (three && name.equals("holt_winters")) {
      throw Evaluator.error(
          "function holt_winters is Prometheus 2's: Prometheus 3 names it double_exponential_smoothing");
    }
    if (!three && name.equals("double_exponential_smoothing")) {
      throw Evaluator.error(
          "function double_exponential_smoothing is Prometheus 3's: Prometheus 2 names it holt_winters");
    }
  }

  private List<Points> absentOverTime(boolean[] present, Expr arg) {
    Points out = new Points(Evaluator.absentLabels(arg), ev.steps);
    for (int step = 0; step < ev.steps; step++) {
      if (!present[step]) {
        out.add(ev.stepTime(step), 1);
      }
    }
    return out.n > 0 ? List.of(out) : List.of();
  }
}
