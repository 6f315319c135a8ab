package dev.firedrill.simulate;

import dev.firedrill.embedded.drive.Recurring;
import dev.firedrill.embedded.scrape.BucketLabels;
import dev.firedrill.embedded.scrape.ScrapeTarget;
import dev.firedrill.embedded.storage.Appender;
import dev.firedrill.promql.model.LabelSet;
import dev.firedrill.promql.model.StaleNaN;
import java.time.Instant;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * One target's scrapes of the simulated services, stored as the embedded scraper stores an HTTP
 * scrape: the samples with the target's job and instance, staleness markers for series the previous
 * scrape had, {@code up} and the other report series; a failed scrape stores {@code up} 0 and marks
 * every series of the previous one stale. As Prometheus 3, it stores a histogram's {@code le} and a
 * summary's {@code quantile} as that one normalises them ({@link BucketLabels}).
 */
final class SimulatedScrape implements Recurring {

  private static final List<String> REPORT_SERIES =
      List.of(
          "up",
          "scrape_duration_seconds",
          "scrape_samples_scraped",
          "scrape_samples_post_metric_relabeling",
          "scrape_series_added");

  private final ScrapeTarget target;
  private final LabMetrics metrics;
  private final Appender storage;
  private final Optional<Long> liveScrapeMs;
  private final boolean prometheus3;
  private Set<LabelSet> previous = Set.of();

  /**
   * @param liveScrapeMs when the live Prometheus last scraped this target's job: scrapes keep that
   *     phase within the interval; empty, the target's own ({@link
   *     ScrapeTarget#nextScrapeAtOrAfter})
   * @param prometheus3 whether to normalise {@code le} and {@code quantile} as Prometheus 3
   */
  SimulatedScrape(
      ScrapeTarget target,
      LabMetrics metrics,
      Appender storage,
      Optional<Long> liveScrapeMs,
      boolean prometheus3) {
    this.target = target;
    this.metrics = metrics;
    this.storage = storage;
    this.liveScrapeMs = liveScrapeMs;
    this.prometheus3 = prometheus3;
  }

  @Override
  public String name() {
    return "simulated scrape of " + target;
  }

  @Override
  public Instant nextAtOrAfter(Instant t) {
    long ms = t.toEpochMilli();
    if (liveScrapeMs.isPresent()) {
      return Instant.ofEpochMilli(
          ms + Math.floorMod(liveScrapeMs.get() - ms, target.interval().toMillis()));
    }
    return Instant.ofEpochMilli(target.nextScrapeAtOrAfter(ms));
  }

  @Override
  public void run(Instant at) {
    long ms = at.toEpochMilli();
    Optional<List<LabMetrics.Sample>> scraped = metrics.scrape(target.labels().get("job"), at);
    Set<LabelSet> current = new HashSet<>();
    int added = 0;
    for (LabMetrics.Sample sample : scraped.orElse(List.of())) {
      LabelSet.Builder labels = stored(sample.labels(), prometheus3).toBuilder();
      for (String name : target.labels().names()) {
        labels.set(name, target.labels().get(name));
      }
      LabelSet stored = labels.build();
      current.add(stored);
      if (!previous.contains(stored)) {
        added++;
      }
      storage.append(stored, ms, sample.value());
    }
    for (LabelSet gone : previous) {
      if (!current.contains(gone)) {
        storage.append(gone, ms, StaleNaN.VALUE);
      }
    }
    previous = current;
    int count = current.size();
    double[] values = {scraped.isPresent() ? 1 : 0, 0, count, count, added};
    LabelSet.Builder report = target.labels().toBuilder();
    for (int i = 0; i < REPORT_SERIES.size(); i++) {
      storage.append(report.set(LabelSet.METRIC_NAME, REPORT_SERIES.get(i)).build(), ms, values[i]);
    }
  }

  /**
   * A sample's labels as the scrape stores them: with {@code prometheus3}, a {@code le} of a {@code
   * _bucket} series (a classic histogram's) and a {@code quantile} of a summary's series
   * normalised; the model has no metadata, so its series' names say the family's type.
   */
  static LabelSet stored(LabelSet exposed, boolean prometheus3) {
    if (!prometheus3) {
      return exposed;
    }
    String name = exposed.get(LabelSet.METRIC_NAME);
    String type =
        name.endsWith("_bucket")
            ? "histogram"
            : name.endsWith("_sum") || name.endsWith("_count") ? "" : "summary";
    LabelSet.Builder out = exposed.toBuilder();
    for (String label : new String[] {"le", "quantile"}) {
      if (exposed.has(label) && BucketLabels.normalised(type, label)) {
        out.set(label, BucketLabels.normalise(exposed.get(label)));
      }
    }
    return out.build();
  }
}
