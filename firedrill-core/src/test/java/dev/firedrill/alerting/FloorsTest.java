package dev.firedrill.alerting;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class FloorsTest {

  private static final Map<String, String> RECORDING =
      Map.of(
          "slo:checkout_error_ratio:ratio_rate1h",
              "sum(rate(errors[1h])) / sum(rate(requests[1h]))",
          "slo:checkout_error_ratio:ratio_rate5m",
              "sum(rate(errors[5m])) / sum(rate(requests[5m]))",
          "service:http_error_ratio:rate30s",
              "service:http_errors:rate30s / service:http_requests:rate30s",
          "service:http_errors:rate30s",
              "sum by (service) (rate(http_server_requests_total{code=~\"5..\"}[30s]))",
          "service:http_requests:rate30s",
              "sum by (service) (rate(http_server_requests_total[30s]))");

  private static Floor floor(String query, Duration forDuration, Duration scrape) {
    RuleBook book = new RuleBook(List.of(), RECORDING, scrape, Duration.ofSeconds(1));
    return Floors.of(
        new RuleBook.AlertRule("A", query, forDuration, Duration.ofSeconds(1), Map.of(), Map.of()),
        book);
  }

  @Test
  void aFaultSmallerThanAnOutageTakesLongerToFillTheWindowAndSaysSo() {
    RuleBook book =
        new RuleBook(List.of(), RECORDING, Duration.ofSeconds(15), Duration.ofSeconds(1));
    RuleBook.AlertRule rule =
        new RuleBook.AlertRule(
            "A",
            "service:http_error_ratio:rate30s > 0.05",
            Duration.ZERO,
            Duration.ofSeconds(1),
            Map.of(),
            Map.of());

    assertThat(Floors.of(rule, book).text())
        .isEqualTo("1.5s (the 30s window: at a 100% error ratio, 0.05 of it needs 1.5s of data)");
    assertThat(Floors.of(rule, book, java.util.OptionalDouble.of(0.2)).text())
        .isEqualTo(
            "7.5s (the 30s window: at the 20% error ratio measured while the faults were on, 0.05"
                + " of it takes 7.5s of data)");
    // A measured ratio below the threshold: the rule reads another signal; the outage's floor
    // stays.
    assertThat(Floors.of(rule, book, java.util.OptionalDouble.of(0.01)))
        .isEqualTo(Floors.of(rule, book));
  }

  @Test
  void theWindowAQueryReadsIsFoundThroughItsRecordingRules() {
    assertThat(Floors.window("service:http_error_ratio:rate30s{service=\"checkout\"}", RECORDING))
        .contains(Duration.ofSeconds(30));
    assertThat(
            Floors.window(
                "slo:checkout_error_ratio:ratio_rate5m or slo:checkout_error_ratio:ratio_rate1h",
                RECORDING))
        .contains(Duration.ofHours(1));
    assertThat(Floors.window("checkout_error_ratio", RECORDING)).isEmpty();
    assertThat(Floors.window("sum(", RECORDING)).isEmpty();
  }

  @Test
  void theLongWindowOfAFastBurnPageDominates() {
    Floor floor =
        floor(
            "slo:checkout_error_ratio:ratio_rate1h > (14.4 * 0.001)\nand\n"
                + "slo:checkout_error_ratio:ratio_rate5m > (14.4 * 0.001)",
            Duration.ZERO,
            Duration.ofSeconds(15));
    assertThat(floor)
        .isEqualTo(
            new Floor(
                Duration.ofMillis(51_800),
                "the 1h window: at a 100% error ratio, 0.0144 of it needs 51.8s of data"));
  }

  @Test
  void recordingRulesAreSeenThroughToTheirWindowsAndForAddsUp() {
    Floor floor =
        floor(
            "service:http_error_ratio:rate30s{service=\"checkout\"} > 0.5",
            Duration.ofSeconds(10),
            Duration.ofSeconds(1));
    assertThat(floor.value()).isEqualTo(Duration.ofSeconds(25));
    assertThat(floor.reason())
        .isEqualTo(
            "the 30s window: at a 100% error ratio, 0.5 of it needs 15.0s of data, then for: 10s");
  }

  @Test
  void aLongForIsNamedAsTheReason() {
    Floor floor = floor("up{job=\"payments\"} == 0", Duration.ofMinutes(5), Duration.ofSeconds(15));
    assertThat(floor)
        .isEqualTo(
            new Floor(
                Duration.ofMinutes(5),
                "for: 5m, after the first bad sample, which a scrape may take at once (or up to 15s later)"));
  }

  @Test
  void absentWaitsForTheFirstFailedScrape() {
    Floor floor =
        floor(
            "absent(http_server_requests_total{service=\"checkout\"})",
            Duration.ofSeconds(30),
            Duration.ofSeconds(1));
    assertThat(floor.value()).isEqualTo(Duration.ofSeconds(30));
  }

  @Test
  void aRatioThatMustFallBelowAThresholdNeedsTheRestOfTheWindow() {
    Floor floor =
        floor(
            "0.99 > sum(rate(ok[1m])) / sum(rate(all[1m]))", Duration.ZERO, Duration.ofSeconds(1));
    assertThat(floor.value()).isEqualTo(Duration.ofMillis(600));
    Floor below =
        floor(
            "sum(rate(ok[10m])) / sum(rate(all[10m])) < 0.9", Duration.ZERO, Duration.ofSeconds(1));
    assertThat(below.value()).isEqualTo(Duration.ofSeconds(60));
  }

  @Test
  void aQuantileNeedsOnlyItsTailOfTheWindowToBeSlow() {
    Floor floor =
        floor(
            "histogram_quantile(0.9, sum by (le) (rate(latency_bucket[5m]))) > 0.5",
            Duration.ZERO,
            Duration.ofSeconds(1));
    assertThat(floor)
        .isEqualTo(
            new Floor(
                Duration.ofSeconds(30),
                "the 5m window: a 0.9 quantile needs 0.1 of it slow, 30.0s"));
    assertThat(
            floor(
                    "histogram_quantile(0.99, sum by (le) (rate(latency_bucket[30s]))) > 0.5",
                    Duration.ofSeconds(10),
                    Duration.ofSeconds(1))
                .value())
        .isEqualTo(Duration.ofMillis(10_300));
  }

  private static final Floor PROMETHEUS_3_FLOOR =
      new Floor(
          Duration.ofMillis(111_800),
          "the 10m window: at a 100% error ratio, 0.1864 of it needs 111.8s of data");

  @Test
  void aUtf8RecordingRuleReadThroughItsNameMatcherKeepsItsWindow() {
    RuleBook book =
        new RuleBook(
            List.of(),
            Map.of(
                "checkout.error_ratio:rate10m",
                "sum(rate({\"http.requests\", \"http.status\"=~\"5..\"}[10m])) / sum(rate({\"http.requests\"}[10m]))"),
            Duration.ofSeconds(1),
            Duration.ofSeconds(1));
    RuleBook.AlertRule rule =
        new RuleBook.AlertRule(
            "A",
            "{__name__=\"checkout.error_ratio:rate10m\"} > 0.1864",
            Duration.ZERO,
            Duration.ofSeconds(1),
            Map.of(),
            Map.of());
    assertThat(Floors.of(rule, book)).isEqualTo(PROMETHEUS_3_FLOOR);
  }

  @Test
  void durationExpressionsAndBareNumberRangesAreWindows() {
    assertThat(
            floor(
                "sum(rate(errors[5m * 2] anchored)) / sum(rate(requests[600])) > 0.1864",
                Duration.ZERO,
                Duration.ofSeconds(1)))
        .isEqualTo(PROMETHEUS_3_FLOOR);
    assertThat(
            floor(
                "sum(rate(errors[(1h + 5m) / 6.5])) / sum(rate(requests[1m])) > 0.1864",
                Duration.ZERO,
                Duration.ofSeconds(1)))
        .isEqualTo(PROMETHEUS_3_FLOOR);
  }

  @Test
  void constantsAreEvaluated() {
    assertThat(Floors.constant("(14.4 * 0.001)")).contains(14.4 * 0.001);
    assertThat(Floors.constant("1 - 0.999")).contains(1 - 0.999);
    assertThat(Floors.constant("rate(x[5m])")).isEmpty();
  }
}
