package dev.firedrill.promql.eval;

import dev.firedrill.format.GoFloat;
import dev.firedrill.format.GoQuote;
import dev.firedrill.promql.ast.Expr;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/**
 * The warnings and infos a Prometheus 3 query reports beside its result ({@code expect warn} and
 * {@code expect info} of its tests, the API's {@code warnings} and {@code infos}), each once, in
 * Prometheus's words. Only the float-sample ones are built: an invalid quantile, a sort in a range
 * query, a malformed {@code le}, buckets forced monotonic, a rate of what may not be a counter.
 * Each remembers the node it is about, as Prometheus's do: one message is kept once, with the node
 * it was last added for.
 */
public final class Annotations {

  private final Map<String, Expr> warnings = new LinkedHashMap<>();
  private final Map<String, Expr> infos = new LinkedHashMap<>();

  /** The messages alone, as Prometheus's tests match them. */
  public List<String> warnings() {
    return List.copyOf(warnings.keySet());
  }

  public List<String> infos() {
    return List.copyOf(infos.keySet());
  }

  /**
   * The messages as Prometheus's API writes them: each followed by {@code (line:column)} of its
   * node where {@code position} knows it.
   */
  public List<String> warnings(Function<Expr, Optional<String>> position) {
    return placed(warnings, position);
  }

  public List<String> infos(Function<Expr, Optional<String>> position) {
    return placed(infos, position);
  }

  private static List<String> placed(
      Map<String, Expr> messages, Function<Expr, Optional<String>> position) {
    List<String> out = new ArrayList<>(messages.size());
    messages.forEach(
        (message, node) ->
            out.add(position.apply(node).map(at -> message + " (" + at + ")").orElse(message)));
    return out;
  }

  private static void add(Map<String, Expr> messages, String message, Expr node) {
    // Go keys them by message; a later one replaces the earlier's node.
    messages.remove(message);
    messages.put(message, node);
  }

  void invalidQuantile(double q, Expr node) {
    if (!(q >= 0 && q <= 1)) {
      add(
          warnings,
          "PromQL warning: quantile value should be between 0 and 1, got " + goValue(q),
          node);
    }
  }

  /**
   * Prometheus 3 notes a rate or increase over a series whose name does not say it is a counter.
   */
  void possibleNonCounter(String metricName, Expr node) {
    if (metricName == null
        || metricName.isEmpty()
        || metricName.endsWith("_total")
        || metricName.endsWith("_sum")
        || metricName.endsWith("_count")
        || metricName.endsWith("_bucket")) {
      return;
    }
    add(
        infos,
        "PromQL info: metric might not be a counter, name does not end in"
            + " _total/_sum/_count/_bucket: "
            + GoQuote.of(metricName),
        node);
  }

  /** Go's {@code %v} of a float64, as the messages print a quantile. */
  private static String goValue(double v) {
    if (Double.isNaN(v)) {
      return "NaN";
    }
    if (Double.isInfinite(v)) {
      return v > 0 ? "+Inf" : "-Inf";
    }
    return GoFloat.sprint(v);
  }

  void ineffectiveSort(Expr node) {
    add(
        warnings,
        "PromQL warning: sort is ineffective for range queries since results are always ordered"
            + " by labels",
        node);
  }

  void badBucketLabel(String le, String metricName, Expr node) {
    add(
        warnings,
        "PromQL warning: bucket label \"le\" is missing or has a malformed value of "
            + GoQuote.of(le)
            + " for metric name "
            + GoQuote.of(metricName),
        node);
  }

  void forcedMonotonicity(String metricName, Expr node) {
    add(
        infos,
        "PromQL info: input to histogram_quantile needed to be fixed for monotonicity (see"
            + " https://prometheus.io/docs/prometheus/latest/querying/functions/#histogram_quantile)"
            + " for metric name "
            + GoQuote.of(metricName),
        node);
  }

  void startTimeOverlap(String metricName, Expr node) {
    add(
        warnings,
        "PromQL warning: sample has start time that overlaps with previous sample timestamp for"
            + " metric "
            + GoQuote.of(metricName),
        node);
  }
}
