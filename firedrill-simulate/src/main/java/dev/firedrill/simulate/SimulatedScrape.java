package dev.firedrill.simulate;

import dev.firedrill.embedded.drive.Recurring;
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
 * every series of the previous one stale.
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
  private Set<LabelSet> previous = Set.of();

  SimulatedScrape(ScrapeTarget target, LabMetrics metrics, Appender storage) {
    this.target = target;
    this.metrics = metrics;
    this.storage = storage;
  }

  @Override
  public String name() {
    return "simulated scrape of " + target;
  }

  @Override
  public Instant nextAtOrAfter(Instant t) {
    return Instant.ofEpochMilli(target.nextScrapeAtOrAfter(t.toEpochMilli()));
  }

  @Override
  public void run(Instant at) {
    long ms = at.toEpochMilli();
    Optional<List<LabMetrics.Sample>> scraped = metrics.scrape(target.labels().get("job"), at);
    Set<LabelSet> current = new HashSet<>();
    int added = 0;
    for (LabMetrics.Sample sample : scraped.orElse(List.of())) {
      LabelSet.Builder labels = sample.labels().toBuilder();
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
}
