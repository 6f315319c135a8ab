package dev.firedrill.embedded.api;

import dev.firedrill.promql.eval.Annotations;
import dev.firedrill.promql.eval.Compat;
import dev.firedrill.promql.eval.Value;
import dev.firedrill.promql.model.PromqlException;
import dev.firedrill.promql.parse.PromqlParser;
import dev.firedrill.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.function.Supplier;

/**
 * {@code /api/v1/query} and {@code /api/v1/query_range}, checked in Prometheus's order so the first
 * error is the same. In Prometheus 3 mode the answer also carries the query's {@code warnings} and
 * {@code infos} after {@code data}, as 3.x writes them.
 */
final class QueryApi {

  /** Prometheus's cap on a range query's points per series. */
  static final long MAX_POINTS = 11_000;

  /** How many warnings, and how many infos, Prometheus 3's API writes before it counts the rest. */
  static final int MAX_ANNOTATIONS = 10;

  /** No {@code timeout} parameter: the engine's own timeout applies. */
  private static final Duration NO_TIMEOUT = Duration.ofSeconds(Long.MAX_VALUE);

  private final QueryEngine engine;
  private final Clock clock;

  QueryApi(QueryEngine engine, Clock clock) {
    this.engine = engine;
    this.clock = clock;
  }

  void query(Form form, Json json) {
    long time = Params.time(form, "time", clock.now().toEpochMilli());
    Duration timeout = timeout(form);
    PromqlParser.Located parsed;
    try {
      parsed = engine.parseLocated(form.first("query"));
    } catch (PromqlException e) {
      throw ApiError.invalidParameter("query", e.getMessage());
    }
    Annotations annotations = new Annotations();
    ValueJson.write(
        json, evaluate(() -> engine.instant(parsed.expr(), time, timeout, annotations)));
    annotations(json, parsed, annotations);
  }

  void queryRange(Form form, Json json) {
    long start = Params.requiredTime(form, "start");
    long end = Params.requiredTime(form, "end");
    if (end < start) {
      throw ApiError.invalidParameter("end", "end timestamp must not be before start time");
    }
    Duration step = Params.duration(form, "step");
    if (step.isNegative() || step.isZero()) {
      throw ApiError.invalidParameter(
          "step",
          "zero or negative query resolution step widths are not accepted. Try a positive integer");
    }
    if (points(start, end, step) > MAX_POINTS) {
      throw ApiError.badData(
          "exceeded maximum resolution of 11,000 points per timeseries."
              + " Try decreasing the query resolution (?step=XX)");
    }
    Duration timeout = timeout(form);
    PromqlParser.Located parsed;
    try {
      parsed = engine.parseLocated(form.first("query"));
    } catch (PromqlException e) {
      throw ApiError.of(e);
    }
    // Prometheus's engine works in whole milliseconds; a step under one would never advance.
    long stepMs = Math.max(1, step.toMillis());
    Annotations annotations = new Annotations();
    ValueJson.write(
        json,
        evaluate(() -> engine.range(parsed.expr(), start, end, stepMs, timeout, annotations)));
    annotations(json, parsed, annotations);
  }

  /**
   * The envelope's {@code warnings} and {@code infos}, each left out when empty, at most {@link
   * #MAX_ANNOTATIONS} each and a count of the rest, each message naming its node's line and column.
   * Prometheus 2.42 has neither field.
   */
  private void annotations(Json json, PromqlParser.Located parsed, Annotations annotations) {
    if (engine.compat() != Compat.PROMETHEUS_3) {
      return;
    }
    field(json, "warnings", "warning", annotations.warnings(parsed::position));
    field(json, "infos", "info", annotations.infos(parsed::position));
  }

  private static void field(Json json, String name, String kind, List<String> messages) {
    if (messages.isEmpty()) {
      return;
    }
    json.name(name).beginArray();
    messages.stream().limit(MAX_ANNOTATIONS).forEach(json::string);
    if (messages.size() > MAX_ANNOTATIONS) {
      json.string(messages.size() - MAX_ANNOTATIONS + " more " + kind + " annotations omitted");
    }
    json.endArray();
  }

  /** Go's {@code end.Sub(start) / step}: nanoseconds, the difference saturating as Go's does. */
  private static long points(long startMs, long endMs, Duration step) {
    long rangeNs;
    try {
      rangeNs = Math.multiplyExact(Math.subtractExact(endMs, startMs), 1_000_000L);
    } catch (ArithmeticException e) {
      rangeNs = Long.MAX_VALUE;
    }
    long stepNs;
    try {
      stepNs = step.toNanos();
    } catch (ArithmeticException e) {
      stepNs = Long.MAX_VALUE;
    }
    return rangeNs / stepNs;
  }

  private static Duration timeout(Form form) {
    return form.first("timeout").isEmpty() ? NO_TIMEOUT : Params.duration(form, "timeout");
  }

  private static Value evaluate(Supplier<Value> evaluation) {
    try {
      return evaluation.get();
    } catch (PromqlException e) {
      throw ApiError.of(e);
    }
  }
}
