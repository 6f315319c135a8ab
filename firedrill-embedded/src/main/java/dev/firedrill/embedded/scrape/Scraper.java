package dev.firedrill.embedded.scrape;

import dev.firedrill.embedded.storage.Storage;
import dev.firedrill.promql.eval.Compat;
import dev.firedrill.promql.model.LabelSet;
import dev.firedrill.promql.model.StaleNaN;
import dev.firedrill.time.Clock;
import dev.firedrill.time.Durations;
import java.net.ConnectException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Scrapes targets into a storage as Prometheus does, one scrape per call at the time the caller
 * gives: a real-time {@link ScrapeScheduler} or a virtual-time driver decides when. Only the
 * scrape's duration is measured, on the clock's monotonic reading.
 *
 * <p>Each scrape appends the exposed samples (at the scrape's time, or their own when written with
 * one), staleness markers for series of the previous scrape that are gone, and the report series
 * {@code up}, {@code scrape_duration_seconds}, {@code scrape_samples_scraped}, {@code
 * scrape_samples_post_metric_relabeling} and {@code scrape_series_added}. A failed scrape (no
 * answer within the timeout, a status other than 200, an exposition that does not parse) stores
 * nothing of the body, marks every series of the previous scrape stale, and reports {@code up} 0.
 */
public final class Scraper {

  private static final String USER_AGENT = "firedrill-embedded-prometheus";
  private static final List<String> REPORT_SERIES =
      List.of(
          "up",
          "scrape_duration_seconds",
          "scrape_samples_scraped",
          "scrape_samples_post_metric_relabeling",
          "scrape_series_added");

  private final Storage storage;
  private final Clock clock;
  private final Compat compat;
  private final HttpClient http =
      HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
  private final Map<ScrapeTarget, TargetState> targets = new ConcurrentHashMap<>();

  /** Scrapes as Prometheus 2.42 does. */
  public Scraper(Storage storage, Clock clock) {
    this(storage, clock, Compat.PROMETHEUS_2);
  }

  /**
   * Scrapes as the given Prometheus does: the formats it asks for, the names it reads and the
   * {@code le} and {@code quantile} labels as it stores them ({@link ExpositionParser#parse(String,
   * String, ExpositionFormat, Compat)}).
   */
  public Scraper(Storage storage, Clock clock, Compat compat) {
    this.storage = storage;
    this.clock = clock;
    this.compat = compat;
  }

  /**
   * Makes {@code wanted} the targets. A target no longer wanted gets staleness markers at {@code
   * nowMs} for every series its last scrape wrote, report series included.
   */
  public synchronized void sync(Collection<ScrapeTarget> wanted, long nowMs) {
    Set<ScrapeTarget> keep = new HashSet<>(wanted);
    for (ScrapeTarget target : List.copyOf(targets.keySet())) {
      if (!keep.contains(target)) {
        remove(target, targets.remove(target), nowMs);
      }
    }
    for (ScrapeTarget target : wanted) {
      targets.computeIfAbsent(target, t -> new TargetState());
    }
  }

  public List<ScrapeTarget> targets() {
    return List.copyOf(targets.keySet());
  }

  /**
   * Scrapes every target that has a scrape time in {@code (afterMs, nowMs]}, once, at the latest
   * such time: a driver that falls behind skips scrapes, as Prometheus does.
   */
  public List<ScrapeReport> scrapeDue(long afterMs, long nowMs) throws InterruptedException {
    List<ScrapeReport> reports = new ArrayList<>();
    for (ScrapeTarget target : targets()) {
      long next = target.nextScrapeAtOrAfter(afterMs + 1);
      if (next <= nowMs) {
        long intervalMs = target.interval().toMillis();
        reports.add(scrapeOnce(target, next + (nowMs - next) / intervalMs * intervalMs));
      }
    }
    return reports;
  }

  /**
   * One scrape of {@code target} stamped {@code nowMs}; the HTTP request is bounded by its scrape
   * timeout.
   */
  public ScrapeReport scrapeOnce(ScrapeTarget target, long nowMs) throws InterruptedException {
    TargetState state = targets.get(target);
    if (state == null) {
      throw new IllegalArgumentException("not a target of this scraper: " + target);
    }
    long start = clock.nanoTime();
    List<ExposedSample> samples = List.of();
    String error = null;
    try {
      samples = fetch(target);
    } catch (ScrapeFailure e) {
      error = e.getMessage();
    }
    double seconds = (clock.nanoTime() - start) / 1e9;
    synchronized (state) {
      if (state.removed) {
        return new ScrapeReport(
            target, nowMs, seconds, 0, 0, target + ": removed during the scrape; nothing stored");
      }
      int added = append(target, state, samples, nowMs);
      state.lastScrapeMs = nowMs;
      LabelSet.Builder labels = target.labels().toBuilder();
      double[] values = {error == null ? 1 : 0, seconds, samples.size(), samples.size(), added};
      for (int i = 0; i < REPORT_SERIES.size(); i++) {
        storage.append(
            labels.set(LabelSet.METRIC_NAME, REPORT_SERIES.get(i)).build(), nowMs, values[i]);
      }
      return new ScrapeReport(target, nowMs, seconds, samples.size(), added, error);
    }
  }

  /** Appends the samples and marks the vanished series stale; returns how many series are new. */
  private int append(
      ScrapeTarget target, TargetState state, List<ExposedSample> samples, long nowMs) {
    // Sized for a steady target, so 10,000 series are not rehashed on every scrape.
    Map<LabelSet, TargetState.Cached> current =
        new HashMap<>(Math.max(16, state.series.size() * 2));
    Map<LabelSet, TargetState.Cached> timestamped =
        new HashMap<>(Math.max(16, state.timestamped.size() * 2));
    int added = 0;
    for (ExposedSample sample : samples) {
      LabelSet exposed = sample.labels();
      TargetState.Cached cached = state.series.get(exposed);
      if (cached == null) {
        cached = state.timestamped.get(exposed);
      }
      if (cached == null) {
        LabelSet key = interned(exposed);
        cached =
            new TargetState.Cached(
                key, TargetLabels.apply(key, target.labels(), target.honorLabels()));
        added++;
      }
      // Out-of-order and duplicate samples are refused by the storage and, as in Prometheus, do not
      // fail the scrape. The cache keeps the first scrape's key, not this scrape's equal one.
      if (sample.hasTimestamp()) {
        timestamped.put(cached.exposed(), cached);
        storage.append(cached.stored(), sample.timestampMs(), sample.value());
      } else {
        current.put(cached.exposed(), cached);
        storage.append(cached.stored(), nowMs, sample.value());
      }
    }
    for (Map.Entry<LabelSet, TargetState.Cached> previous : state.series.entrySet()) {
      if (!current.containsKey(previous.getKey())) {
        storage.append(previous.getValue().stored(), nowMs, StaleNaN.VALUE);
      }
    }
    state.series = current;
    state.timestamped = timestamped;
    return added;
  }

  /**
   * The labels with the JVM's one instance of each name and value: a parsed exposition has a fresh
   * string for each, and 10,000 cached series would otherwise keep 10,000 copies of each name.
   */
  private static LabelSet interned(LabelSet labels) {
    LabelSet.Builder b = LabelSet.builder();
    for (int i = 0; i < labels.size(); i++) {
      b.set(labels.name(i).intern(), labels.value(i).intern());
    }
    return b.build();
  }

  private void remove(ScrapeTarget target, TargetState state, long nowMs) {
    synchronized (state) {
      state.removed = true;
      for (TargetState.Cached cached : state.series.values()) {
        storage.append(cached.stored(), nowMs, StaleNaN.VALUE);
      }
      if (state.lastScrapeMs != Long.MIN_VALUE) {
        LabelSet.Builder labels = target.labels().toBuilder();
        for (String name : REPORT_SERIES) {
          storage.append(labels.set(LabelSet.METRIC_NAME, name).build(), nowMs, StaleNaN.VALUE);
        }
      }
    }
  }

  private List<ExposedSample> fetch(ScrapeTarget target)
      throws ScrapeFailure, InterruptedException {
    HttpRequest request =
        HttpRequest.newBuilder(target.url())
            .timeout(target.timeout())
            .header("Accept", ExpositionFormat.accept(compat))
            .header("User-Agent", USER_AGENT)
            .header(
                "X-Prometheus-Scrape-Timeout-Seconds",
                Double.toString(target.timeout().toMillis() / 1000.0))
            .GET()
            .build();
    CompletableFuture<HttpResponse<String>> pending =
        http.sendAsync(request, HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
    HttpResponse<String> response;
    try {
      // The request's own timeout ends when the headers arrive; this one covers the body too.
      response = pending.get(target.timeout().toMillis(), TimeUnit.MILLISECONDS);
    } catch (TimeoutException e) {
      pending.cancel(true);
      throw timedOut(target);
    } catch (InterruptedException e) {
      pending.cancel(true);
      throw e;
    } catch (ExecutionException e) {
      if (e.getCause() instanceof HttpTimeoutException) {
        throw timedOut(target);
      }
      throw new ScrapeFailure(target.url() + ": " + describe(e.getCause()));
    }
    if (response.statusCode() != 200) {
      throw new ScrapeFailure(
          target.url() + ": HTTP status " + response.statusCode() + " (expected 200)");
    }
    String contentType = response.headers().firstValue("Content-Type").orElse(null);
    try {
      return ExpositionParser.parse(
          target.url().toString(), response.body(), ExpositionFormat.of(contentType), compat);
    } catch (ExpositionException e) {
      throw new ScrapeFailure(e.getMessage());
    }
  }

  private static ScrapeFailure timedOut(ScrapeTarget target) {
    return new ScrapeFailure(
        target.url()
            + ": no complete response within the scrape timeout "
            + Durations.format(target.timeout()));
  }

  private static String describe(Throwable cause) {
    if (cause instanceof ConnectException && cause.getMessage() == null) {
      return "connection refused";
    }
    return cause.getMessage() == null ? cause.getClass().getSimpleName() : cause.getMessage();
  }

  /** A scrape that stored nothing, with the one-line reason. */
  private static final class ScrapeFailure extends Exception {
    private static final long serialVersionUID = 1L;

    ScrapeFailure(String message) {
      super(message);
    }
  }
}
