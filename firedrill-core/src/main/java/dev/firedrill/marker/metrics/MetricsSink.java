package dev.firedrill.marker.metrics;

import dev.firedrill.engine.DrillObserver;
import dev.firedrill.engine.Milestone;
import dev.firedrill.experiment.MetricsExport;
import dev.firedrill.experiment.Numbers;
import dev.firedrill.net.HostPort;
import dev.firedrill.time.Clock;
import io.opentelemetry.context.Context;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;

/**
 * {@code chaos_experiment_active} and the drill's phase, readings and verdict, served on
 * firedrill's own endpoint for Prometheus to scrape and/or pushed to a Pushgateway. Milestones only
 * set gauges and schedule pushes, so the drill and its rollback never wait here.
 */
public final class MetricsSink implements DrillObserver {

  /**
   * Kept free before the close limit for stopping the HTTP server and for the notes of whoever gave
   * up.
   */
  static final Duration STOP_RESERVE = Duration.ofMillis(500);

  private final DrillMetrics metrics;
  private final ScrapeWatch watch;
  private final Optional<ScrapeEndpoint> endpoint;
  private final Optional<Pusher> pusher;
  private final Duration scrapeWait;
  private final Consumer<String> notes;

  private MetricsSink(
      DrillMetrics metrics,
      ScrapeWatch watch,
      Optional<ScrapeEndpoint> endpoint,
      Optional<Pusher> pusher,
      Duration scrapeWait,
      Consumer<String> notes) {
    this.metrics = metrics;
    this.watch = watch;
    this.endpoint = endpoint;
    this.pusher = pusher;
    this.scrapeWait = scrapeWait;
    this.notes = notes;
  }

  /**
   * Starts the endpoint (before the drill, so a busy port stops it before anything is injected:
   * {@link MetricsEndpointException}) and prepares the pushes. {@code notes} takes one-line notes
   * for the console, from any thread.
   */
  public static MetricsSink open(
      String experimentId, MetricsExport export, Clock clock, Consumer<String> notes) {
    ScrapeWatch watch = new ScrapeWatch(clock);
    Optional<ScrapeRequests> requests = export.listen().map(listen -> new ScrapeRequests(watch));
    DrillMetrics metrics =
        new DrillMetrics(experimentId, () -> requests.ifPresent(ScrapeRequests::markRead));
    Optional<ScrapeEndpoint> endpoint =
        export
            .listen()
            .map(
                listen -> {
                  ScrapeEndpoint started =
                      ScrapeEndpoint.start(
                          HostPort.parse(listen), metrics.registry(), watch, requests.get());
                  notes.accept("metrics: " + DrillMetrics.ACTIVE + " on " + started.url());
                  return started;
                });
    Optional<Pusher> pusher =
        export
            .pushgateway()
            .map(
                url ->
                    new Pusher(
                        new PushgatewayClient(PushgatewayGroup.of(url, experimentId)),
                        metrics,
                        clock,
                        export.scrapeWait(),
                        notes));
    return new MetricsSink(metrics, watch, endpoint, pusher, export.scrapeWait(), notes);
  }

  /** The scrape endpoint's URL, when it serves one. */
  public Optional<URI> endpoint() {
    return endpoint.map(ScrapeEndpoint::url);
  }

  @Override
  public void on(Milestone milestone) {
    DrillMetrics.Change change = metrics.apply(milestone);
    if (change == DrillMetrics.Change.ACTIVE) {
      watch.activeChanged(metrics.allOff());
    }
    if (change != DrillMetrics.Change.NONE) {
      Context current = Context.current();
      pusher.ifPresent(p -> p.push(current));
    }
  }

  /**
   * Both ends at once, within {@code limit}: the endpoint stays up until a scrape has read the 0
   * (at most scrape_wait), and the Pushgateway gets its last push, its hold and its delete.
   */
  @Override
  public void close(Duration limit) {
    Duration inner = limit.compareTo(STOP_RESERVE) > 0 ? limit.minus(STOP_RESERVE) : Duration.ZERO;
    Duration wait = scrapeWait.compareTo(inner) < 0 ? scrapeWait : inner;
    boolean zeroToDeliver = metrics.everOn() && metrics.allOff();
    List<CompletableFuture<Void>> closing = new ArrayList<>();
    endpoint.ifPresent(
        e ->
            closing.add(
                CompletableFuture.runAsync(
                    () -> {
                      if (!e.close(zeroToDeliver, wait)) {
                        notes.accept(
                            "metrics: no scrape of "
                                + e.url()
                                + " read "
                                + DrillMetrics.ACTIVE
                                + " 0 within "
                                + Numbers.format(wait.toMillis() / 1000.0)
                                + "s; stopped serving (Prometheus keeps 1 as the series' last value)");
                      }
                    },
                    daemon("firedrill-metrics-close"))));
    pusher.ifPresent(
        p ->
            closing.add(
                CompletableFuture.runAsync(() -> p.close(inner), daemon("firedrill-push-close"))));
    try {
      CompletableFuture.allOf(closing.toArray(CompletableFuture[]::new))
          .get(limit.toNanos(), TimeUnit.NANOSECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (ExecutionException | TimeoutException e) {
      // Each end has noted its own trouble; the limit is the caller's, not ours to extend.
    }
  }

  private static Executor daemon(String name) {
    return task -> {
      Thread thread = new Thread(task, name);
      thread.setDaemon(true);
      thread.start();
    };
  }
}
