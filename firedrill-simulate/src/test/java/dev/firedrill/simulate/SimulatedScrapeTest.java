package dev.firedrill.simulate;

import static org.assertj.core.api.Assertions.assertThat;

import dev.firedrill.embedded.scrape.ScrapeTarget;
import dev.firedrill.promconfig.ScrapeConfig;
import dev.firedrill.promconfig.StaticConfig;
import dev.firedrill.promql.model.LabelSet;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The simulated scrape stores samples as the embedded scrape of the same mode would. */
class SimulatedScrapeTest {

  private static final Instant T0 = Instant.parse("2026-11-30T00:00:00Z");

  private static ScrapeTarget checkout() {
    return ScrapeTarget.of(
            new ScrapeConfig(
                "checkout",
                Duration.ofSeconds(1),
                Duration.ofSeconds(1),
                "/metrics",
                "http",
                false,
                List.of(new StaticConfig(List.of("127.0.0.1:18081"), LabelSet.of()))))
        .get(0);
  }

  @Test
  void asPrometheus3ABucketsLeAndASummarysQuantileAreNormalisedAsPrometheus3StoresThem() {
    LabelSet bucket = LabelSet.of("__name__", "latency_seconds_bucket", "le", "1");
    LabelSet big = LabelSet.of("__name__", "size_bytes_bucket", "le", "1e6");
    LabelSet quantile = LabelSet.of("__name__", "rpc_seconds", "quantile", "0.50");
    LabelSet gauge = LabelSet.of("__name__", "queue_depth", "le", "1");
    LabelSet count = LabelSet.of("__name__", "rpc_seconds_count", "quantile", "0.50");

    assertThat(SimulatedScrape.stored(bucket, true).get("le")).isEqualTo("1.0");
    assertThat(SimulatedScrape.stored(big, true).get("le")).isEqualTo("1e+06");
    assertThat(SimulatedScrape.stored(quantile, true).get("quantile")).isEqualTo("0.5");
    // le is a histogram's label only, and a summary's _count has no quantile of its own.
    assertThat(SimulatedScrape.stored(gauge, true)).isEqualTo(gauge);
    assertThat(SimulatedScrape.stored(count, true)).isEqualTo(count);
  }

  @Test
  void asPrometheus2TheLabelsAreStoredAsExposed() {
    LabelSet bucket = LabelSet.of("__name__", "latency_seconds_bucket", "le", "1");
    LabelSet quantile = LabelSet.of("__name__", "rpc_seconds", "quantile", "0.50");

    assertThat(SimulatedScrape.stored(bucket, false)).isEqualTo(bucket);
    assertThat(SimulatedScrape.stored(quantile, false)).isEqualTo(quantile);
  }

  @Test
  void aScrapeStoresTheModelsHistogramWithTheNormalisedLeAndTheTargetsLabels() {
    List<LabelSet> stored = new ArrayList<>();
    SimulatedScrape scrape =
        new SimulatedScrape(
            checkout(),
            new LabMetrics(LabModel.lab(), T0),
            (labels, ms, value) -> stored.add(labels),
            Optional.empty(),
            true);
    scrape.run(T0.plusSeconds(1));

    assertThat(stored)
        .filteredOn(l -> l.get("__name__").equals("http_server_request_duration_seconds_bucket"))
        .extracting(l -> l.get("le"))
        .contains("1.0", "10.0", "0.005", "+Inf");
    assertThat(stored).allSatisfy(l -> assertThat(l.get("job")).isEqualTo("checkout"));
  }

  @Test
  void withALiveScrapeTheTargetKeepsThatScrapesPhase() {
    long live = T0.toEpochMilli() + 86_437;
    SimulatedScrape scrape =
        new SimulatedScrape(
            checkout(),
            new LabMetrics(LabModel.lab(), T0),
            (labels, ms, value) -> true,
            Optional.of(live),
            true);

    assertThat(scrape.nextAtOrAfter(T0)).isEqualTo(T0.plusMillis(437));
    assertThat(scrape.nextAtOrAfter(T0.plusMillis(437))).isEqualTo(T0.plusMillis(437));
    assertThat(scrape.nextAtOrAfter(T0.plusMillis(438))).isEqualTo(T0.plusMillis(1437));
  }
}
