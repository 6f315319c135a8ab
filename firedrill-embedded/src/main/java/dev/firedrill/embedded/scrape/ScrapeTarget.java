package dev.firedrill.embedded.scrape;

import dev.firedrill.promconfig.ScrapeConfig;
import dev.firedrill.promconfig.StaticConfig;
import dev.firedrill.promql.model.LabelSet;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * One endpoint to scrape, with the labels its samples get: {@code job}, {@code instance} (the
 * address) and the static config's labels (which may override job and instance, as in Prometheus).
 */
public record ScrapeTarget(
    LabelSet labels, URI url, Duration interval, Duration timeout, boolean honorLabels) {

  public ScrapeTarget {
    Objects.requireNonNull(labels, "labels");
    Objects.requireNonNull(url, "url");
    if (interval.isNegative() || interval.isZero() || timeout.isNegative() || timeout.isZero()) {
      throw new IllegalArgumentException(
          "scrape interval and timeout must be positive: " + interval + ", " + timeout);
    }
  }

  /** The job's targets, in the order of its static configs. */
  public static List<ScrapeTarget> of(ScrapeConfig job) {
    List<ScrapeTarget> out = new ArrayList<>();
    for (StaticConfig group : job.staticConfigs()) {
      for (String address : group.targets()) {
        LabelSet.Builder labels = group.labels().toBuilder();
        if (!group.labels().has("job")) {
          labels.set("job", job.jobName());
        }
        if (!group.labels().has("instance")) {
          labels.set("instance", address);
        }
        URI url = URI.create(job.scheme() + "://" + address + job.metricsPath());
        out.add(
            new ScrapeTarget(
                labels.build(), url, job.scrapeInterval(), job.scrapeTimeout(), job.honorLabels()));
      }
    }
    return out;
  }

  /**
   * The first scrape time at or after {@code ms}. Each target keeps a fixed phase within its
   * interval, derived from its identity as Prometheus derives it from a hash, so targets spread
   * their scrapes and every run scrapes a target at the same points.
   */
  public long nextScrapeAtOrAfter(long ms) {
    long intervalMs = interval.toMillis();
    long phase = Math.floorMod(31L * labels.hashCode() + url.toString().hashCode(), intervalMs);
    return ms + Math.floorMod(phase - ms, intervalMs);
  }

  @Override
  public String toString() {
    return labels.get("job") + " " + url;
  }
}
