package dev.firedrill.testing;

import dev.firedrill.prometheus.PrometheusClient;
import dev.firedrill.prometheus.PrometheusException;
import dev.firedrill.prometheus.QueryResult;
import dev.firedrill.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.DoubleFunction;
import java.util.function.Supplier;

/**
 * A Prometheus that answers each query as its script says for the seconds since the drill began, so
 * the drill's real measurer reads it. A query nobody scripted fails, naming the scripted ones, so a
 * test that queries what it did not mean to is told so.
 */
public final class ScriptedPrometheus implements PrometheusClient {

  /** What one instant query answers: a result, or the failure the HTTP client would throw. */
  @FunctionalInterface
  public interface Answer {
    QueryResult at(Instant now) throws PrometheusException;
  }

  /** One series without labels with this value. */
  public static Answer value(double value) {
    return now -> new QueryResult.Vector(List.of(new QueryResult.Sample(Map.of(), now, value)));
  }

  /** An empty vector: the series does not exist (yet). */
  public static Answer noData() {
    return now -> new QueryResult.Vector(List.of());
  }

  /** The query fails with this one-line message, as an unreachable or refusing Prometheus does. */
  public static Answer failure(String message) {
    return now -> {
      throw new PrometheusException(message);
    };
  }

  private final Clock clock;
  private final Supplier<Instant> start;
  private final Map<String, DoubleFunction<Answer>> scripts = new TreeMap<>();

  /**
   * @param start when the drill began; the scripts' seconds count from it
   */
  public ScriptedPrometheus(Clock clock, Supplier<Instant> start) {
    this.clock = clock;
    this.start = start;
  }

  /** From now on {@code promql} answers {@code script} applied to the seconds since the start. */
  public synchronized ScriptedPrometheus answer(String promql, DoubleFunction<Answer> script) {
    scripts.put(promql, script);
    return this;
  }

  /** From now on {@code promql} answers {@code value} at every time. */
  public ScriptedPrometheus answer(String promql, double value) {
    return answer(promql, t -> value(value));
  }

  @Override
  public QueryResult query(String promql) throws PrometheusException {
    DoubleFunction<Answer> script;
    synchronized (this) {
      script = scripts.get(promql);
      if (script == null) {
        throw new PrometheusException(
            "no answer scripted for " + promql + " (scripted: " + scripts.keySet() + ")");
      }
    }
    Instant now = clock.now();
    return script.apply(Duration.between(start.get(), now).toMillis() / 1000.0).at(now);
  }
}
