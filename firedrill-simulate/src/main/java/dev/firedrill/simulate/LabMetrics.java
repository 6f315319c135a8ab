package dev.firedrill.simulate;

import dev.firedrill.lab.metrics.LatencyBuckets;
import dev.firedrill.promql.model.LabelSet;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The lab's metric families as the simulated services would expose them at any instant: counters
 * integrate the model's rates over time, the effects that were on at each moment included, so a
 * scrape at any instant reads what a real one would have read on average.
 */
public final class LabMetrics {

  /** One exposed sample, without the target's job and instance. */
  public record Sample(LabelSet labels, double value) {}

  private static final double[] BUCKETS = LatencyBuckets.seconds();

  private final LabModel model;
  private final List<Effect> effects = new ArrayList<>();
  private final Map<String, ServiceCounters> services = new LinkedHashMap<>();
  private final Map<String, Double> orders = new LinkedHashMap<>();
  private Instant at;
  private Traffic.Rates rates;

  public LabMetrics(LabModel model, Instant start) {
    this.model = model;
    this.at = start;
    services.put(LabModel.CHECKOUT, new ServiceCounters("/checkout", Traffic.CHECKOUT_CODES));
    services.put(LabModel.PAYMENTS, new ServiceCounters("/pay", Traffic.PAYMENTS_CODES));
    Traffic.ORDER_RESULTS.forEach(result -> orders.put(result, 0.0));
    rates = Traffic.of(model, effects);
  }

  /** Turns {@code effect} on from {@code when}. */
  public synchronized void start(Effect effect, Instant when) {
    advanceTo(when);
    effects.add(effect);
    rates = Traffic.of(model, effects);
  }

  /**
   * Turns {@code effect} off from {@code when}; a service that was down starts again with fresh
   * counters.
   */
  public synchronized void stop(Effect effect, Instant when) {
    advanceTo(when);
    if (!effects.remove(effect)) {
      return;
    }
    if (effect instanceof Effect.Down down && !Traffic.down(effects, down.service())) {
      ServiceCounters restarted = services.get(down.service());
      if (restarted != null) {
        services.put(down.service(), new ServiceCounters(restarted.route, restarted.knownCodes));
        if (down.service().equals(LabModel.CHECKOUT)) {
          orders.replaceAll((result, count) -> 0.0);
        }
      }
    }
    rates = Traffic.of(model, effects);
  }

  public synchronized List<Effect> effects() {
    return List.copyOf(effects);
  }

  /**
   * What a scrape of {@code job} reads at {@code when}: empty when it fails (the exporter is down
   * or its process is gone); a job the model does not know answers with no samples.
   */
  public synchronized Optional<List<Sample>> scrape(String job, Instant when) {
    advanceTo(when);
    boolean exporterDown =
        effects.stream().anyMatch(e -> e instanceof Effect.ExporterDown d && d.job().equals(job));
    if (exporterDown || Traffic.down(effects, job)) {
      return Optional.empty();
    }
    List<Sample> samples = new ArrayList<>();
    ServiceCounters counters = services.get(job);
    if (counters != null) {
      counters.expose(job, samples);
    }
    if (job.equals(LabModel.CHECKOUT)) {
      samples.add(
          new Sample(LabelSet.of("__name__", "orders_completed_total"), orders.get("completed")));
      orders.forEach(
          (result, count) ->
              samples.add(
                  new Sample(LabelSet.of("__name__", "orders_total", "result", result), count)));
    }
    return Optional.of(samples);
  }

  private void advanceTo(Instant when) {
    if (!when.isAfter(at)) {
      return;
    }
    double seconds = Duration.between(at, when).toNanos() / 1e9;
    services.get(LabModel.CHECKOUT).add(rates.checkout(), seconds);
    services.get(LabModel.PAYMENTS).add(rates.payments(), seconds);
    rates.orders().forEach((result, rate) -> orders.merge(result, rate * seconds, Double::sum));
    at = when;
  }

  /** One service's http_server_requests_total and http_server_request_duration_seconds. */
  private static final class ServiceCounters {
    final String route;
    final List<String> knownCodes;
    final Map<String, Double> requests = new LinkedHashMap<>();
    final double[] buckets = new double[BUCKETS.length + 1];
    double sum;

    ServiceCounters(String route, List<String> knownCodes) {
      this.route = route;
      this.knownCodes = knownCodes;
      knownCodes.forEach(code -> requests.put(code, 0.0));
    }

    void add(Traffic.ServiceRates rates, double seconds) {
      rates.codes().forEach((code, rate) -> requests.merge(code, rate * seconds, Double::sum));
      for (Traffic.Served served : rates.served()) {
        double count = served.rate() * seconds;
        for (int i = 0; i < BUCKETS.length; i++) {
          buckets[i] += count * served.latency().atMost(BUCKETS[i]);
        }
        buckets[BUCKETS.length] += count;
        sum +=
            count
                * served.latency().points().stream()
                    .mapToDouble(p -> p.seconds() * p.weight())
                    .sum();
      }
    }

    void expose(String service, List<Sample> out) {
      Map<String, Double> sorted = new HashMap<>(requests);
      knownCodes.forEach(
          code ->
              out.add(
                  new Sample(
                      LabelSet.of(
                          "__name__",
                          "http_server_requests_total",
                          "service",
                          service,
                          "route",
                          route,
                          "code",
                          code),
                      sorted.remove(code))));
      sorted.forEach(
          (code, count) ->
              out.add(
                  new Sample(
                      LabelSet.of(
                          "__name__",
                          "http_server_requests_total",
                          "service",
                          service,
                          "route",
                          route,
                          "code",
                          code),
                      count)));
      String histogram = "http_server_request_duration_seconds";
      for (int i = 0; i <= BUCKETS.length; i++) {
        String le = i < BUCKETS.length ? Double.toString(BUCKETS[i]) : "+Inf";
        out.add(
            new Sample(
                LabelSet.of(
                    "__name__",
                    histogram + "_bucket",
                    "service",
                    service,
                    "route",
                    route,
                    "le",
                    le),
                buckets[i]));
      }
      out.add(
          new Sample(
              LabelSet.of("__name__", histogram + "_count", "service", service, "route", route),
              buckets[BUCKETS.length]));
      out.add(
          new Sample(
              LabelSet.of("__name__", histogram + "_sum", "service", service, "route", route),
              sum));
    }
  }
}
