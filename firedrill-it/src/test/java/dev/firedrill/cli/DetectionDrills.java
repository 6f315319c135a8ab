package dev.firedrill.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.firedrill.testing.BetweenDrills;
import dev.firedrill.testing.PaymentsOutageDrill;
import dev.firedrill.testing.RealLab;
import dev.firedrill.testing.Stacks;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * Alert detection measured against the whole lab on one {@link Stacks.Pair}: the real Prometheus (1
 * s scrape and evaluation, resend delay 1 s) and Alertmanager (group_wait 1 s) with the repo's
 * rules and route tree, and firedrill's own webhook receiver, with payments failing behind the
 * fault proxy. {@link DetectionRealStackTest} runs these drills once per pair.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS) // one lab per pair, so not a static one
abstract class DetectionDrills {

  private final Supplier<Stacks.Pair> pair;
  private RealLab lab;

  /** Each drill writes its own files (by id), so the class's folder serves every test. */
  @TempDir Path dir;

  DetectionDrills(Supplier<Stacks.Pair> pair) {
    this.pair = pair;
  }

  @BeforeAll
  void startLab() throws Exception {
    lab = RealLab.start(pair.get(), "detection", LabStackOptions.firedrillCommand());
  }

  @AfterAll
  void stopLab() {
    if (lab != null) {
      lab.close();
    }
  }

  @BeforeEach
  void quietLab() throws Exception {
    BetweenDrills.awaitQuiet(lab.stack().prometheusUrl(), lab.stack().prometheusUrl());
  }

  @AfterEach
  void deliverResolved() throws Exception {
    BetweenDrills.deliverResolved(lab.ports().webhook(), "CheckoutErrorBudgetBurn");
  }

  private JsonNode drill(String id, String expectations, int exit) throws Exception {
    Path file =
        Files.writeString(
            dir.resolve(id + ".yaml"),
            lab.ports()
                .rewrite(
                    PaymentsOutageDrill.experiment(
                        id,
                        "Payments answering 503 pages checkout's team",
                        expectations,
                        Duration.ofSeconds(8))));
    Path journal = dir.resolve(id + ".json");
    CliRun run =
        CliRun.of(
            "run",
            file.toString(),
            "--journal",
            journal.toString(),
            "--history",
            CliRun.historyBeside(journal));
    assertThat(run.exit()).as(run.describe()).isEqualTo(exit);
    return new ObjectMapper().readTree(journal.toFile());
  }

  /**
   * The journal's detection row of {@code alert}; VictoriaMetricsDrillTest reads its rows through
   * it too.
   */
  static JsonNode row(JsonNode journal, String alert) {
    for (JsonNode row : journal.path("detection").path("alerts")) {
      if (row.path("alert").asText().equals(alert)) {
        return row;
      }
    }
    throw new AssertionError("no detection row for " + alert + " in " + journal.path("detection"));
  }

  @Test
  void anErrorFaultPagesTheRightTeamWithinThreeSecondsOfItsFloor() throws Exception {
    JsonNode journal =
        drill(
            "detect-page",
            """
            - alert: CheckoutErrorBudgetBurn
              matchers: {service: checkout}
              within: 20s
              receiver: team-checkout
              runbook_url: https://runbooks.example.com/checkout/error-budget-burn
        """,
            1);

    assertThat(journal.path("verdict").asText()).isEqualTo("deviated");
    assertThat(journal.path("detection").path("verdict").asText()).isEqualTo("held");
    JsonNode page = row(journal, "CheckoutErrorBudgetBurn");
    double detect = page.path("time_to_detect_s").asDouble();
    double floor = page.path("floor_s").asDouble();
    assertThat(page.path("detect_source").asText()).isEqualTo("webhook startsAt");
    assertThat(detect).as(page.toString()).isBetween(floor, floor + 3);
    assertThat(page.path("time_to_notify_s").asDouble()).as(page.toString()).isPositive();
    assertThat(page.path("receiver").asText()).isEqualTo("yes");
    assertThat(page.path("runbook").asText()).isEqualTo("yes");
    assertThat(journal.path("receiver").path("rejected").asLong()).isZero();
  }

  @Test
  void misroutingAWrongRunbookASilentAlertThatFiresAndAMissedAlertAreEachReported()
      throws Exception {
    JsonNode journal =
        drill(
            "detect-failures",
            """
            - alert: CheckoutErrorBudgetBurn
              matchers: {service: checkout}
              within: 20s
              receiver: team-payments
              runbook_url: https://runbooks.example.com/payments/wrong
            - alert: CheckoutOrdersPending
              expect: silent
              within: 20s
            - alert: CheckoutLatencyHigh
              within: 12s
        """,
            1);

    assertThat(journal.path("detection").path("verdict").asText()).isEqualTo("deviated");
    JsonNode misrouted = row(journal, "CheckoutErrorBudgetBurn");
    assertThat(misrouted.path("held").asBoolean()).isFalse();
    assertThat(misrouted.path("reason").asText())
        .isEqualTo(
            "misrouted: routed to team-checkout, expected team-payments; "
                + "wrong runbook: runbook_url is \"https://runbooks.example.com/checkout/error-budget-burn\", expected "
                + "\"https://runbooks.example.com/payments/wrong\"");
    JsonNode silent = row(journal, "CheckoutOrdersPending");
    assertThat(silent.path("held").asBoolean()).isFalse();
    assertThat(silent.path("reason").asText())
        .matches("fired \\d+\\.\\ds after injection though it must stay silent");
    JsonNode missed = row(journal, "CheckoutLatencyHigh");
    assertThat(missed.path("fired").asBoolean()).isFalse();
    assertThat(missed.path("reason").asText())
        .isEqualTo(
            "missed: did not fire within 12s; its floor is 10.3s "
                + "(for: 10s, after the 30s window: a 0.99 quantile needs 0.01 of it slow, 0.3s)");
  }
}
