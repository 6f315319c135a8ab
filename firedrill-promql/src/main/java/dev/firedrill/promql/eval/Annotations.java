package dev.firedrill.promql.eval;

import dev.firedrill.format.GoFloat;
import dev.firedrill.format.GoQuote;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The warnings and infos a Prometheus 3 query reports beside its result ({@code expect warn} and
 * {@code expect info} of its tests, the API's {@code warnings} and {@code infos}), each once, in
 * Prometheus's words. Only the float-sample ones are built: an invalid quantile, a sort in a range
 * query, a malformed {@code le}, buckets forced monotonic.
 */
public final class Annotations {

  private final Set<String> warnings = new LinkedHashSet<>();
  private final Set<String> infos = new LinkedHashSet<>();

  public List<String> warnings() {
    return List.copyOf(warnings);
  }

  public List<String> infos() {
    return List.copyOf(infos);
  }

  void invalidQuantile(double q) {
    if (!(q >= 0 && q <= 1)) {
      warnings.add("PromQL warning: quantile value should be between 0 and 1, got " + goValue(q));
    }
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

  void ineffectiveSort() {
    warnings.add(
        "PromQL warning: sort is ineffective for range queries since results are always ordered"
            + " by labels");
  }

  void badBucketLabel(String le, String metricName) {
    warnings.add(
        "PromQL warning: bucket label \"le\" is missing or has a malformed value of "
            + GoQuote.of(le)
            + " for metric name "
            + GoQuote.of(metricName));
  }

  void forcedMonotonicity(String metricName) {
    infos.add(
        "PromQL info: input to histogram_quantile needed to be fixed for monotonicity (see"
            + " https://prometheus.io/docs/prometheus/latest/querying/functions/#histogram_quantile)"
            + " for metric name "
            + GoQuote.of(metricName));
  }

  void startTimeOverlap(String metricName) {
    warnings.add(
        "PromQL warning: sample has start time that overlaps with previous sample timestamp for"
            + " metric "
            + GoQuote.of(metricName));
  }
}
