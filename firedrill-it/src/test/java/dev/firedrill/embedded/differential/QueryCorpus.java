package dev.firedrill.embedded.differential;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * PromQL expressions over {@link GeneratedExporter}'s series, generated as cross products so that
 * every function, aggregation and operator of issue 7 meets counters with resets, gauges with NaN,
 * histogram buckets, and series that vanish or appear late.
 */
final class QueryCorpus {

  private static final List<String> COUNTERS =
      List.of(
          "http_server_requests_total",
          "http_server_requests_total{code=\"500\"}",
          "diff_requests_total",
          "orders_total{result=~\"comp.*\"}");
  private static final List<String> GAUGES =
      List.of(
          "diff_temperature",
          "diff_balance",
          "diff_temperature{sensor!=\"2\"}",
          "diff_vanishing",
          "diff_late");
  private static final List<String> RANGES = List.of("5s", "11s", "30s", "1m");
  private static final List<String> COUNTER_FUNCTIONS =
      List.of("rate", "irate", "increase", "resets");
  private static final List<String> GAUGE_FUNCTIONS =
      List.of(
          "delta",
          "idelta",
          "deriv",
          "changes",
          "avg_over_time",
          "min_over_time",
          "max_over_time",
          "sum_over_time",
          "count_over_time",
          "last_over_time",
          "present_over_time",
          "stddev_over_time",
          "stdvar_over_time",
          "absent_over_time");
  private static final List<String> INSTANT_FUNCTIONS =
      List.of(
          "abs",
          "ceil",
          "floor",
          "exp",
          "sqrt",
          "ln",
          "log2",
          "log10",
          "sgn",
          "deg",
          "rad",
          "sin",
          "cos",
          "tan",
          "asin",
          "acos",
          "atan",
          "sinh",
          "cosh",
          "tanh",
          "asinh",
          "acosh",
          "atanh",
          "timestamp",
          "sort",
          "sort_desc",
          "absent",
          "day_of_month",
          "day_of_week",
          "day_of_year",
          "days_in_month",
          "hour",
          "minute",
          "month",
          "year");
  private static final List<String> AGGREGATIONS =
      List.of("sum", "avg", "count", "min", "max", "group", "stddev", "stdvar");
  private static final List<String> GROUPINGS =
      List.of("", " by (service)", " without (code)", " by (shard, sensor)");
  private static final List<String> OPERATORS = List.of("+", "-", "*", "/", "%", "^", "atan2");
  private static final List<String> COMPARISONS = List.of("==", "!=", ">", "<", ">=", "<=");

  private QueryCorpus() {}

  static List<String> generate() {
    Set<String> queries = new LinkedHashSet<>();
    for (String function : COUNTER_FUNCTIONS) {
      for (String selector : COUNTERS) {
        for (String range : RANGES) {
          queries.add(function + "(" + selector + "[" + range + "])");
        }
      }
    }
    for (String function : GAUGE_FUNCTIONS) {
      for (String selector : GAUGES) {
        for (String range : RANGES) {
          queries.add(function + "(" + selector + "[" + range + "])");
        }
      }
    }
    for (String selector : GAUGES) {
      for (String range : List.of("11s", "1m")) {
        queries.add("quantile_over_time(0.9, " + selector + "[" + range + "])");
        queries.add("quantile_over_time(0.5, " + selector + "[" + range + "])");
        queries.add("predict_linear(" + selector + "[" + range + "], 60)");
        queries.add("holt_winters(" + selector + "[" + range + "], 0.5, 0.3)");
      }
    }
    for (String function : INSTANT_FUNCTIONS) {
      queries.add(function + "(diff_temperature)");
      queries.add(function + "(diff_balance)");
    }
    for (String selector : GAUGES) {
      queries.add("round(" + selector + ", 0.25)");
      queries.add("clamp(" + selector + ", 0, 15)");
      queries.add("clamp_min(" + selector + ", 13)");
      queries.add("clamp_max(" + selector + ", 13)");
      queries.add(selector + " offset 9s");
      queries.add("timestamp(" + selector + " offset 5s)");
    }
    for (String aggregation : AGGREGATIONS) {
      for (String grouping : GROUPINGS) {
        queries.add(aggregation + grouping + " (rate(http_server_requests_total[11s]))");
        queries.add(aggregation + grouping + " (diff_temperature)");
        queries.add(aggregation + grouping + " (diff_balance)");
      }
    }
    for (String grouping : GROUPINGS) {
      queries.add("topk" + grouping + " (2, diff_temperature)");
      queries.add("bottomk" + grouping + " (1, rate(http_server_requests_total[30s]))");
      queries.add("quantile" + grouping + " (0.75, diff_temperature)");
      queries.add("count_values" + grouping + " (\"value\", ceil(diff_temperature))");
    }
    for (String op : OPERATORS) {
      queries.add("diff_temperature " + op + " 3");
      queries.add("2 " + op + " diff_balance");
      queries.add("diff_temperature " + op + " on(sensor) diff_temperature{sensor=~\"[13]\"}");
      queries.add(
          "rate(http_server_requests_total[30s]) "
              + op
              + " on(service) group_left sum by (service) (rate(http_server_requests_total[30s]))");
      queries.add(
          "sum by (service) (rate(http_server_requests_total[30s])) "
              + op
              + " on(service) group_right(code) rate(http_server_requests_total[30s])");
    }
    for (String cmp : COMPARISONS) {
      queries.add("diff_temperature " + cmp + " 20");
      queries.add("diff_temperature " + cmp + " bool 20");
      queries.add(
          "diff_balance " + cmp + " ignoring(account) group_left diff_temperature{sensor=\"1\"}");
      queries.add("rate(diff_requests_total[30s]) " + cmp + " bool 1");
    }
    for (String set : List.of("and", "or", "unless")) {
      queries.add("diff_temperature " + set + " diff_temperature > 20");
      queries.add("diff_vanishing " + set + " diff_late");
      queries.add("rate(http_server_requests_total[30s]) " + set + " on(service) orders_total");
    }
    for (String q : List.of("0.5", "0.9", "0.99", "1", "0")) {
      queries.add(
          "histogram_quantile("
              + q
              + ", sum by (service, le) (rate(http_server_request_duration_seconds_bucket[30s])))");
      queries.add(
          "histogram_quantile(" + q + ", rate(http_server_request_duration_seconds_bucket[11s]))");
    }
    queries.addAll(
        List.of(
            "max_over_time(rate(http_server_requests_total[10s])[30s:5s])",
            "min_over_time(deriv(diff_temperature[10s])[1m:3s])",
            "avg_over_time(sum by (service) (rate(http_server_requests_total[5s]))[40s:])",
            "rate(http_server_requests_total[30s] offset 10s)",
            "diff_temperature @ end()",
            "sum(rate(http_server_requests_total[30s] @ start()))",
            "label_replace(diff_temperature, \"room\", \"r$1\", \"sensor\", \"([0-9])\")",
            "label_replace(diff_balance, \"account\", \"\", \"account\", \".*\")",
            "label_join(diff_temperature, \"key\", \"-\", \"__name__\", \"sensor\")",
            "scalar(sum(diff_temperature))",
            "scalar(diff_temperature)",
            "vector(time())",
            "time() - timestamp(diff_late)",
            "absent(nonexistent_metric{job=\"x\"})",
            "absent_over_time(nonexistent_metric{job=\"x\"}[1m])",
            "sum(diff_requests_total) / count(diff_requests_total)",
            "-diff_temperature",
            "diff_temperature > 20 < 25",
            "count(count by (sensor) (diff_temperature))",
            "sum without (le) (http_server_request_duration_seconds_bucket)",
            "1 / 0",
            "-1 / 0",
            "0 / 0",
            "2 ^ 3 ^ 2",
            "pi()",
            "sum(http_server_requests_total) by (service)",
            "http_server_requests_total{code=~\"5..\"} / ignoring(code) http_server_requests_total{code=\"200\"}",
            "rate(diff_requests_total[5m])",
            "increase(http_server_requests_total[1m]) > bool 100",
            "changes(diff_balance[1m]) + resets(diff_requests_total[1m]) * 0",
            "diff_latency_seconds_bucket",
            "diff_latency_seconds_bucket{le=\"1\"}",
            "diff_latency_seconds_bucket{le=\"1.0\"}",
            "diff_latency_seconds_bucket{le=\"10.0\"}",
            "histogram_quantile(0.5, rate(diff_latency_seconds_bucket[30s]))",
            "diff_size",
            "diff_size{quantile=\"1.0\"}",
            "sum by (quantile) (diff_size)"));
    return new ArrayList<>(queries);
  }

  /**
   * What only Prometheus 3 reads, as far as the real 3.5.3 does (with {@code
   * --enable-feature=promql-duration-expr}): quoted UTF-8 metric and label names (in queries and as
   * scraped), duration expressions in ranges, offsets and subquery steps (3.5 has no {@code step()}
   * or {@code min}/{@code max} in them yet), bare-number ranges, and a regex {@code .} across a
   * newline.
   */
  static List<String> prometheus3() {
    return List.of(
        "{\"diff_temperature\"}",
        "{\"diff_temperature\", sensor=\"1\"}",
        // Series the exporter sends with quoted names to a scraper that asks for them.
        "{\"diff.utf8.requests_total\"}",
        "rate({\"diff.utf8.requests_total\", \"service.name\"=\"api\"}[30s])",
        "sum by (\"service.name\") (increase({\"diff.utf8.requests_total\"}[1m]))",
        "plain_utf8_labels",
        "plain_utf8_labels{\"host.name\"=~\"h.*\"}",
        "{__name__=\"diff_balance\", \"account\"=\"x\"}",
        "sum by (\"sensor.id\") (label_replace(diff_temperature, \"sensor.id\", \"$1\", \"sensor\", \"(.*)\"))",
        "label_replace(diff_temperature, \"__name__\", \"diff.temperature\", \"\", \"\")",
        "label_join(diff_requests_total, \"shard.and.name\", \"-\", \"shard\", \"__name__\")",
        "count by (\"konto-ü\") (label_replace(diff_balance, \"konto-ü\", \"$1\", \"account\", \"(.*)\"))",
        "max without (\"sensor.id\") (label_replace(diff_temperature, \"sensor.id\", \"$1\", \"sensor\", \"(.*)\"))",
        "rate(diff_requests_total[5s * 2])",
        "rate(diff_requests_total[30s - 5s])",
        "increase(http_server_requests_total[(10s + 5s) * 2])",
        "deriv(diff_temperature[1m / 2])",
        "avg_over_time(diff_temperature[2 * 5s] offset 3s)",
        "diff_temperature offset (5s * 2)",
        "max_over_time(diff_temperature[20s:1s * 2])",
        "rate(diff_requests_total[10])",
        "sum_over_time(diff_balance[12.5])",
        "diff_text{msg=~\"line.one.line.two\"}",
        "diff_text{msg=~\"line.*two\"}",
        "diff_text{msg!~\"line.one.*\"}",
        "count(diff_text{msg=~\".+\"})",
        "label_replace(diff_text, \"first\", \"$1\", \"msg\", \"line (.*)\")");
  }
}
