package dev.firedrill.programme.coverage;

import static org.assertj.core.api.Assertions.assertThat;

import dev.firedrill.experiment.ExperimentLoader;
import dev.firedrill.history.DetectionRecord;
import dev.firedrill.history.Tolerance;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Coverage of the lab's alert rules (plus one alert with no absent() companion) by the payments
 * outage fixture, with a history in which one alert is fine, one stale and one regressed.
 */
class CoverageTest {

  private static final Instant NOW = Instant.parse("2026-12-01T12:00:00Z");

  @TempDir Path dir;

  private static DetectionRecord run(
      String alert, Instant at, boolean fired, double detect, double notify, String routing) {
    return new DetectionRecord(
        "run-" + at,
        at,
        "payments-outage",
        alert,
        alert + "{service=\"checkout\"}",
        "firing",
        fired,
        fired ? Optional.of(Duration.ofMillis((long) (detect * 1000))) : Optional.empty(),
        fired ? Optional.of(Duration.ofMillis((long) (notify * 1000))) : Optional.empty(),
        fired ? List.of("team-checkout") : List.of(),
        Optional.of("team-checkout"),
        routing,
        fired,
        fired ? "held" : "deviated",
        "journals/x.json");
  }

  private Coverage.Report report() throws Exception {
    Path lonely =
        Files.writeString(
            dir.resolve("lonely.yml"),
            """
            groups:
              - name: extra
                interval: 1s
                rules:
                  - alert: QueueTooDeep
                    expr: queue_depth > 100
                    for: 30s
                    annotations: {runbook_url: https://runbooks.example.com/queue}
            """);
    List<RuleSet.Alert> alerts =
        RuleSet.read(
            List.of(
                Path.of("alert-rules/lab-alerts.yml"),
                Path.of("fixtures/lab/recording-rules.yml"),
                lonely),
            Duration.ofSeconds(1),
            Duration.ofSeconds(1));
    List<DetectionRecord> history =
        List.of(
            run("CheckoutErrorBudgetBurn", NOW.minus(Duration.ofDays(30)), true, 1.5, 1.0, "yes"),
            run("CheckoutErrorBudgetBurn", NOW.minus(Duration.ofDays(2)), true, 1.6, 1.1, "yes"),
            run("PaymentsDown", NOW.minus(Duration.ofDays(120)), true, 6.2, 1.0, "yes"),
            run("CheckoutLatencyHigh", NOW.minus(Duration.ofDays(40)), true, 11.0, 1.0, "yes"),
            run("CheckoutLatencyHigh", NOW.minus(Duration.ofDays(5)), false, 0, 0, "-"));
    return Coverage.of(
        alerts,
        List.of(ExperimentLoader.load(Path.of("fixtures/experiments/payments-outage.yaml"))),
        history,
        NOW,
        Duration.ofDays(90),
        Tolerance.parse(Tolerance.DEFAULT_TEXT));
  }

  @Test
  void oneRowPerAlertWithItsStatusAndTheSilentOneMarked() throws Exception {
    Coverage.Report report = report();

    assertThat(CoverageText.cells(report))
        .containsExactly(
            List.of(
                "alert",
                "drilled by",
                "last run",
                "detect / floor",
                "notify",
                "routing",
                "status",
                "no data"),
            List.of(
                "CheckoutErrorBudgetBurn",
                "payments-outage",
                "2026-11-29",
                "1.6s / 0.4s",
                "1.1s",
                "yes",
                "ok",
                ""),
            List.of(
                "CheckoutLatencyHigh", "-", "2026-11-26", "- / 10.3s", "-", "-", "regressed", ""),
            // expected to fire by the fixture, but no run of it is in the history
            List.of(
                "CheckoutOrdersPending",
                "payments-outage",
                "-",
                "- / 5.0s",
                "-",
                "-",
                "never drilled",
                ""),
            // the fixture expects it silent: that drills nothing about its detection
            List.of("PaymentsDown", "-", "2026-08-03", "6.2s / 5.0s", "1.0s", "yes", "stale", ""),
            List.of(
                "CheckoutHttpMetricsAbsent", "-", "-", "- / 10.0s", "-", "-", "never drilled", ""),
            List.of(
                "CheckoutOrderMetricsAbsent", "-", "-", "- / 10.0s", "-", "-", "never drilled", ""),
            List.of("PaymentsTargetAbsent", "-", "-", "- / 10.0s", "-", "-", "never drilled", ""),
            List.of("PaymentsMetricsAbsent", "-", "-", "- / 5.0s", "-", "-", "never drilled", ""),
            List.of(
                "QueueTooDeep",
                "-",
                "-",
                "- / 30.0s",
                "-",
                "-",
                "never drilled",
                "SILENT: no absent() companion"));
    assertThat(report.rows().get(1).detail())
        .startsWith("CheckoutLatencyHigh{service=\"checkout\"} in payments-outage: stopped firing");
    assertThat(report.rows().get(3).detail()).isEqualTo("last drilled 120 days ago");
    assertThat(report.summary())
        .isEqualTo("2 of 9 alerts drilled in the last 90 days (22%); 6 never; 1 regressed");
  }

  @Test
  void jsonCarriesTheSameRowsAndCounts() throws Exception {
    com.fasterxml.jackson.databind.node.ObjectNode json =
        new com.fasterxml.jackson.databind.ObjectMapper().createObjectNode();
    CoverageText.json(report(), json);

    assertThat(json.path("alerts").asInt()).isEqualTo(9);
    assertThat(json.path("drilled").asInt()).isEqualTo(2);
    assertThat(json.path("stale").asInt()).isEqualTo(1);
    com.fasterxml.jackson.databind.JsonNode first = json.path("rows").get(0);
    assertThat(first.path("alert").asText()).isEqualTo("CheckoutErrorBudgetBurn");
    assertThat(first.path("last_time_to_detect_seconds").asDouble()).isEqualTo(1.6);
    assertThat(first.path("floor_seconds").asDouble()).isEqualTo(0.4);
    assertThat(first.path("status").asText()).isEqualTo("ok");
    assertThat(json.path("rows").get(8).path("silent_without_data").asBoolean()).isTrue();
  }
}
