package dev.firedrill.experiment;

import java.net.URI;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * How {@code chaos_experiment_active} and the drill's other metrics leave firedrill: served on
 * {@code listen} (HOST:PORT) for Prometheus to scrape, kept up after the rollback until a scrape
 * has read the 0 or {@code scrapeWait} has passed; and/or pushed to a Pushgateway, whose group is
 * deleted at the end.
 */
public record MetricsExport(
    Optional<String> listen, Duration scrapeWait, Optional<URI> pushgateway) {

  public static final Duration DEFAULT_SCRAPE_WAIT = Duration.ofSeconds(30);

  public MetricsExport {
    listen = listen == null ? Optional.empty() : listen;
    scrapeWait = scrapeWait == null ? DEFAULT_SCRAPE_WAIT : scrapeWait;
    pushgateway = pushgateway == null ? Optional.empty() : pushgateway;
    Objects.requireNonNull(scrapeWait, "scrapeWait");
  }
}
