package dev.firedrill.promql.eval;

import dev.firedrill.promql.ast.Expr;
import dev.firedrill.promql.model.LabelMatcher;
import dev.firedrill.promql.model.LabelSet;
import dev.firedrill.promql.model.StaleNaN;
import dev.firedrill.promql.model.StoredSeries;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * Prometheus 3's experimental {@code info(v [, {label selectors}])} (behind {@code
 * --enable-feature=promql-experimental-functions} there; mode 3 has its experimental functions on):
 * each series of {@code v} gains the data labels of the info series ({@code target_info} unless the
 * selector names others by {@code __name__}) that share its identifying labels, {@code instance}
 * and {@code job}, at each step. As v3.14's {@code promql/info.go}:
 *
 * <ul>
 *   <li>a series of {@code v} that is itself one of the selected info metrics is passed through
 *       unchanged;
 *   <li>the selector's other matchers choose which info series count and which of their labels are
 *       copied; labels the series already has are not;
 *   <li>a series no info series matches at a step is kept unchanged there, unless a selector
 *       matcher does not match the empty string (then the sample is dropped);
 *   <li>of two info series of one metric with the same identifying labels, the one with the newer
 *       sample wins (a tie is an error), and two info metrics offering different values of one
 *       label are an error.
 * </ul>
 *
 * Info series are read with the lookback, at each step's own time, over the samples between the
 * lookback before the first step and the last step, both moved by the {@code @} and offset of the
 * first selector in {@code v}, as 3.14 reads them.
 */
final class Info {

  static final String TARGET_INFO = "target_info";

  /** The labels an info series and a series must share; hard-coded, as in Prometheus. */
  private static final List<String> IDENTIFYING = List.of("instance", "job");

  /** One info metric's series for given identifying labels; absent labels are empty. */
  private record Signature(String metric, String instance, String job) {
    static Signature of(String metric, LabelSet labels) {
      return new Signature(metric, labels.get("instance"), labels.get("job"));
    }
  }

  private final Evaluator ev;

  private Info(Evaluator ev) {
    this.ev = ev;
  }

  static List<Points> eval(Evaluator ev, List<Expr> args) {
    return new Info(ev).eval(args);
  }

  private List<Points> eval(List<Expr> args) {
    List<Points> base = ev.eval(args.get(0));
    // Data label matchers by label name; the __name__ ones pick the info metrics instead.
    Map<String, List<LabelMatcher>> dataMatchers = new LinkedHashMap<>();
    List<LabelMatcher> nameMatchers = new ArrayList<>();
    if (args.size() > 1) {
      Expr.VectorSelector selector = (Expr.VectorSelector) Evaluator.unwrap(args.get(1));
      for (LabelMatcher m : selector.matchers()) {
        if (m.name().equals(LabelSet.METRIC_NAME)) {
          nameMatchers.add(m);
        } else {
          dataMatchers.computeIfAbsent(m.name(), k -> new ArrayList<>()).add(m);
        }
      }
    }
    List<LabelMatcher> infoNames = effectiveNameMatchers(nameMatchers);

    boolean[] ignored = new boolean[base.size()];
    Map<String, Set<String>> identifying = new LinkedHashMap<>();
    for (int i = 0; i < ignored.length; i++) {
      LabelSet labels = base.get(i).labels;
      ignored[i] = matchesAll(infoNames, labels.metricName());
      if (!ignored[i]) {
        for (String name : IDENTIFYING) {
          String value = labels.get(name);
          if (!value.isEmpty()) {
            identifying.computeIfAbsent(name, k -> new TreeSet<>()).add(value);
          }
        }
      }
    }
    List<Points> infoSeries =
        identifying.isEmpty()
            ? List.of()
            : infoSeries(args.get(0), identifying, dataMatchers, infoNames);
    return combine(base, infoSeries, ignored, dataMatchers);
  }

  /**
   * The {@code __name__} matchers that select info series: those given when one of them is
   * positive; only negative ones get a leading {@code =~".+_info"}; none means {@code target_info}.
   */
  private List<LabelMatcher> effectiveNameMatchers(List<LabelMatcher> given) {
    boolean three = ev.query.compat() == Compat.PROMETHEUS_3;
    for (LabelMatcher m : given) {
      if (m.type() == LabelMatcher.Type.EQUAL || m.type() == LabelMatcher.Type.REGEX) {
        return given;
      }
    }
    if (given.isEmpty()) {
      return List.of(LabelMatcher.of(LabelMatcher.Type.EQUAL, LabelSet.METRIC_NAME, TARGET_INFO));
    }
    List<LabelMatcher> matchers = new ArrayList<>();
    matchers.add(LabelMatcher.of(LabelMatcher.Type.REGEX, LabelSet.METRIC_NAME, ".+_info", three));
    matchers.addAll(given);
    return matchers;
  }

  private static boolean matchesAll(List<LabelMatcher> matchers, String value) {
    for (LabelMatcher m : matchers) {
      if (!m.matches(value)) {
        return false;
      }
    }
    return true;
  }

  /**
   * The info series sharing an identifying label value with some series, that the data matchers
   * select, at each step: the value is the time of the sample found, which tells two info series of
   * one signature apart (an info series' value is 1 by convention).
   */
  private List<Points> infoSeries(
      Expr first,
      Map<String, Set<String>> identifying,
      Map<String, List<LabelMatcher>> dataMatchers,
      List<LabelMatcher> infoNames) {
    boolean three = ev.query.compat() == Compat.PROMETHEUS_3;
    List<LabelMatcher> matchers = new ArrayList<>();
    identifying.forEach(
        (name, values) ->
            matchers.add(
                LabelMatcher.of(
                    LabelMatcher.Type.REGEX,
                    name,
                    String.join("|", values.stream().map(Info::quoteMeta).toList()),
                    three)));
    dataMatchers.values().forEach(matchers::addAll);
    matchers.addAll(infoNames);

    long lookback = ev.query.lookbackMs();
    Expr.VectorSelector anchor = firstSelector(first);
    Long at = anchor == null ? null : ev.atTime(anchor.at());
    long offset = anchor == null ? 0 : anchor.offsetMs();
    long from = (at != null ? at : ev.start) - (lookback - 1) - offset;
    long to = (at != null ? at : ev.end) - offset;

    List<Points> result = new ArrayList<>();
    for (StoredSeries s : ev.query.source().select(matchers, from, to)) {
      ev.query.checkDeadline();
      long[] t = s.timestamps();
      double[] v = s.values();
      Points p = new Points(s.labels(), ev.steps);
      int next = 0;
      for (int step = 0; step < ev.steps; step++) {
        long ts = ev.stepTime(step);
        while (next < s.count() && t[next] <= ts) {
          next++;
        }
        int i = next - 1;
        if (i >= 0
            && ev.query.compat().afterWindowStart(t[i], ts - lookback)
            && !StaleNaN.is(v[i])) {
          p.add(ts, t[i]);
        }
      }
      if (p.n > 0) {
        result.add(p);
      }
    }
    return result;
  }

  /**
   * The first vector selector of {@code e}, depth first, as Prometheus's parser.Inspect finds it.
   */
  private static Expr.VectorSelector firstSelector(Expr e) {
    if (e instanceof Expr.VectorSelector vs) {
      return vs;
    }
    List<Expr> children = List.of();
    if (e instanceof Expr.MatrixSelector ms) {
      children = List.of(ms.selector());
    } else if (e instanceof Expr.Subquery sq) {
      children = List.of(sq.expr());
    } else if (e instanceof Expr.Paren p) {
      children = List.of(p.expr());
    } else if (e instanceof Expr.Unary u) {
      children = List.of(u.expr());
    } else if (e instanceof Expr.Binary b) {
      children = List.of(b.lhs(), b.rhs());
    } else if (e instanceof Expr.Aggregate a) {
      children = a.param() == null ? List.of(a.expr()) : List.of(a.expr(), a.param());
    } else if (e instanceof Expr.Call c) {
      children = c.args();
    }
    for (Expr child : children) {
      Expr.VectorSelector found = firstSelector(child);
      if (found != null) {
        return found;
      }
    }
    return null;
  }

  /** Go's regexp.QuoteMeta: the value as a regular expression matching only itself. */
  static String quoteMeta(String value) {
    StringBuilder out = new StringBuilder(value.length() + 8);
    for (int i = 0; i < value.length(); i++) {
      char c = value.charAt(i);
      if ("\\.+*?()|[]{}^$".indexOf(c) >= 0) {
        out.append('\\');
      }
      out.append(c);
    }
    return out.toString();
  }

  private List<Points> combine(
      List<Points> base,
      List<Points> info,
      boolean[] ignored,
      Map<String, List<LabelMatcher>> dataMatchers) {
    boolean dropUnmatched = false;
    for (List<LabelMatcher> ms : dataMatchers.values()) {
      for (LabelMatcher m : ms) {
        dropUnmatched |= !m.matchesEmpty();
      }
    }
    TreeSet<String> metrics = new TreeSet<>();
    Signature[] infoSigs = new Signature[info.size()];
    for (int i = 0; i < infoSigs.length; i++) {
      LabelSet labels = info.get(i).labels;
      metrics.add(labels.metricName());
      infoSigs[i] = Signature.of(labels.metricName(), labels);
    }
    Signature[][] baseSigs = new Signature[base.size()][];
    for (int i = 0; i < baseSigs.length; i++) {
      baseSigs[i] = new Signature[metrics.size()];
      int k = 0;
      for (String metric : metrics) {
        baseSigs[i][k++] = Signature.of(metric, base.get(i).labels);
      }
    }
    // The last enrichment of each series, kept while the same info series enrich it.
    int[][] lastChosen = new int[base.size()][];
    LabelSet[] lastLabels = new LabelSet[base.size()];
    boolean copyAll = dataMatchers.isEmpty();
    Map<Signature, Integer> newest = new HashMap<>();
    boolean finalDropUnmatched = dropUnmatched;
    return ev.stepwise(
        List.of(base, info),
        (in, step, ts, out) -> {
          StepVector b = in[0];
          if (b.size == 0) {
            return;
          }
          StepVector is = in[1];
          newest.clear();
          for (int j = 0; j < is.size; j++) {
            Signature sig = infoSigs[is.series[j]];
            Integer existing = newest.get(sig);
            if (existing == null || is.values[existing] < is.values[j]) {
              newest.put(sig, j);
            } else if (is.values[existing] == is.values[j]) {
              throw Evaluator.error(
                  "found duplicate series for info metric: existing "
                      + GoFormat.labels(is.labels[existing])
                      + " @ "
                      + (long) is.values[existing]
                      + ", new "
                      + GoFormat.labels(is.labels[j])
                      + " @ "
                      + (long) is.values[j]);
            }
          }
          for (int i = 0; i < b.size; i++) {
            int s = b.series[i];
            if (ignored[s]) {
              out.add(b.labels[i], b.values[i], s);
              continue;
            }
            int[] chosen = new int[metrics.size()];
            int found = 0;
            for (int k = 0; k < chosen.length; k++) {
              Integer j = newest.get(baseSigs[s][k]);
              chosen[k] = j == null ? -1 : is.series[j];
              found += j == null ? 0 : 1;
            }
            if (found == 0 && finalDropUnmatched) {
              continue;
            }
            if (lastLabels[s] == null || !Arrays.equals(chosen, lastChosen[s])) {
              lastLabels[s] = enriched(b.labels[i], chosen, info, dataMatchers, copyAll);
              lastChosen[s] = chosen;
            }
            out.add(lastLabels[s], b.values[i], s);
          }
        });
  }

  /** The series' labels with the chosen info series' data labels it lacks. */
  private static LabelSet enriched(
      LabelSet labels,
      int[] chosen,
      List<Points> info,
      Map<String, List<LabelMatcher>> dataMatchers,
      boolean copyAll) {
    Map<String, String> added = new HashMap<>();
    for (int j : chosen) {
      if (j < 0) {
        continue;
      }
      LabelSet infoLabels = info.get(j).labels;
      for (int l = 0; l < infoLabels.size(); l++) {
        String name = infoLabels.name(l);
        String value = infoLabels.value(l);
        if (name.equals(LabelSet.METRIC_NAME) || (!copyAll && !dataMatchers.containsKey(name))) {
          continue;
        }
        String before = added.get(name);
        if (before != null && !before.equals(value)) {
          throw Evaluator.error("conflicting label: " + name);
        }
        if (!labels.has(name)) {
          added.put(name, value);
        }
      }
    }
    if (added.isEmpty()) {
      return labels;
    }
    LabelSet.Builder b = labels.toBuilder();
    added.forEach(b::set);
    return b.build();
  }
}
