package dev.firedrill.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.firedrill.history.DetectionRecord;
import dev.firedrill.history.HistoryStore;
import dev.firedrill.history.StoreLocation;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code firedrill coverage} over the lab's rules, the payments outage and a SQLite history. */
class CoverageCommandTest {

  @TempDir Path dir;

  private Path history;

  @BeforeEach
  void oneRecentHeldPage() throws Exception {
    history = dir.resolve("history.sqlite");
    try (HistoryStore store =
        HistoryStore.open(StoreLocation.resolve(Optional.of(history.toString()), dir, Map.of()))) {
      store.append(
          List.of(
              new DetectionRecord(
                  "run-1",
                  Instant.now().minus(Duration.ofDays(1)),
                  "payments-outage",
                  "CheckoutErrorBudgetBurn",
                  "CheckoutErrorBudgetBurn{service=\"checkout\"}",
                  "firing",
                  true,
                  Optional.of(Duration.ofMillis(1500)),
                  Optional.of(Duration.ofMillis(900)),
                  List.of("team-checkout"),
                  Optional.of("team-checkout"),
                  "yes",
                  true,
                  "held",
                  "journals/x.json")));
    }
  }

  private CliRun coverage(String... extra) {
    List<String> args =
        new java.util.ArrayList<>(
            List.of(
                "coverage",
                "--rules",
                "alert-rules/lab-alerts.yml",
                "--rules",
                "fixtures/lab/recording-rules.yml",
                "--experiments",
                "fixtures/experiments/payments-outage.yaml",
                "--history",
                history.toString(),
                "--scrape-interval",
                "1s",
                "--evaluation-interval",
                "1s"));
    args.addAll(List.of(extra));
    return CliRun.of(args.toArray(String[]::new));
  }

  @Test
  void belowFailUnderIsExitOneWithTheSummaryLast() {
    CliRun run = coverage("--fail-under", "80%");

    assertThat(run.exit()).as(run.describe()).isEqualTo(1);
    assertThat(run.out())
        .contains("CheckoutErrorBudgetBurn     payments-outage  ")
        .endsWith("1 of 8 alerts drilled in the last 90 days (12%); 7 never; 0 regressed\n");
    assertThat(coverage("--fail-under", "12%").exit()).isZero();
  }

  @Test
  void jsonHasARowPerAlertAndJsonIsOutputJson() throws Exception {
    CliRun run = coverage("--output", "json");

    assertThat(run.exit()).as(run.describe()).isZero();
    JsonNode json = new ObjectMapper().readTree(run.out());
    assertThat(json.path("command").asText()).isEqualTo("coverage");
    assertThat(json.path("rows")).hasSize(8);
    assertThat(json.path("rows").get(0).path("last_routing").asText()).isEqualTo("yes");
    assertThat(coverage("--json").out()).isEqualTo(run.out());
    assertThat(coverage("--output", "text").out()).isEqualTo(coverage().out());
  }

  @Test
  void aBadPercentageIsExitTwoNamingTheOption() {
    CliRun run = coverage("--fail-under", "lots");

    assertThat(run.exit()).isEqualTo(2);
    assertThat(run.err())
        .contains("--fail-under lots: expected a percentage from 0% to 100%, such as 80%")
        .doesNotContain("\tat ");
  }
}
