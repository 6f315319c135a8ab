package dev.firedrill.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.firedrill.net.Loopback;
import dev.firedrill.testing.FiredrillJar;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code firedrill demo} end to end from the packaged jar with the stack a subclass names: the
 * whole lab starts, the fixture drills run with the same verdicts and detection, and everything it
 * started stops.
 */
abstract class DemoChecks {

  private static final Duration LIMIT = Duration.ofMinutes(3);

  @TempDir Path dir;

  /** The {@code --stack} value. */
  abstract String stack();

  /** What the demo says it runs, the start of each of its two stack lines. */
  abstract String[] stackLines();

  /**
   * Added to the demo's environment: where it finds the binaries ({@code FIREDRILL_PROMETHEUS},
   * ...).
   */
  Map<String, String> environment() {
    return Map.of();
  }

  private FiredrillJar.Run demo(String experiment) throws Exception {
    Path repo = Path.of("").toAbsolutePath();
    return FiredrillJar.run(
        repo,
        LIMIT,
        environment(),
        "demo",
        "--stack",
        stack(),
        "--dir",
        dir.toString(),
        "--experiment",
        repo.resolve(experiment).toString());
  }

  private JsonNode journal(String id) throws Exception {
    return new ObjectMapper().readTree(dir.resolve(id + ".journal.json").toFile());
  }

  @Test
  void theMildFixtureHoldsAndTheLabStops() throws Exception {
    FiredrillJar.Run run = demo("fixtures/experiments/payments-latency.yaml");

    assertThat(run.exit()).as(run.output()).isZero();
    assertThat(run.output()).contains(stackLines());
    assertThat(run.output())
        .contains(
            "demo: prometheus on http://127.0.0.1:",
            "demo: alertmanager on http://127.0.0.1:",
            " inject http-latency: ",
            " verdict held: ",
            " verdict observability held: 2 expected alerts behaved as expected",
            "demo: payments-latency ended held (exit 0)",
            "demo: journal " + dir.resolve("payments-latency.journal.json"));
    JsonNode journal = journal("payments-latency");
    assertThat(journal.path("verdict").asText()).isEqualTo("held");
    assertThat(journal.path("faults").get(0).path("revert").path("ok").asBoolean()).isTrue();
    assertLabStopped(run.output());
  }

  @Test
  void theSevereFixtureIsAbortedByTheBurnRateGuard() throws Exception {
    FiredrillJar.Run run = demo("fixtures/experiments/payments-outage.yaml");

    assertThat(run.exit()).as(run.output()).isEqualTo(3);
    assertThat(run.output()).contains(stackLines());
    JsonNode journal = journal("payments-outage");
    assertThat(journal.path("verdict").asText()).isEqualTo("aborted");
    assertThat(journal.path("reason").asText()).startsWith("burn rate ");
    JsonNode page = journal.path("detection").path("alerts").get(0);
    assertThat(page.path("alert").asText()).isEqualTo("CheckoutErrorBudgetBurn");
    assertThat(page.path("held").asBoolean()).as(page.toString()).isTrue();
    assertThat(page.path("receiver").asText()).isEqualTo("yes");
    assertThat(run.output())
        .contains(
            " detect alert ",
            " detect CheckoutErrorBudgetBurn{service=\"checkout\"}  firing 30s  yes");
    assertThat(journal.path("faults").get(0).path("revert").path("ok").asBoolean()).isTrue();
    assertLabStopped(run.output());
    assertTheDrillLeftItsEvidence(run.output());
  }

  /** The outage drill's report, event log, spans and history rows, beside its journal. */
  private void assertTheDrillLeftItsEvidence(String output) throws Exception {
    assertThat(dir.resolve("payments-outage.journal.html"))
        .content()
        .contains("id=\"fault-window\"");
    assertThat(dir.resolve("payments-outage.journal.events.jsonl"))
        .content()
        .contains("\"event\":\"abort\"", "\"experiment_id\":\"payments-outage\"");
    assertThat(dir.resolve("payments-outage.journal.spans.jsonl"))
        .content()
        .contains("\"name\":\"drill payments-outage\"");
    assertThat(output).contains("demo: detection history: 3 alerts recorded in ");
    FiredrillJar.Run history =
        FiredrillJar.run(
            dir,
            LIMIT,
            "history",
            "--history",
            dir.resolve("history.sqlite").toString(),
            "--alert",
            "CheckoutErrorBudgetBurn");
    assertThat(history.exit()).as(history.output()).isZero();
    assertThat(history.output()).contains("payments-outage", "team-checkout");
  }

  /** Nothing listens on the ports the demo announced, and no process names the demo's directory. */
  private void assertLabStopped(String output) {
    Matcher started =
        Pattern.compile("demo: ([\\w-]+) on http://127\\.0\\.0\\.1:(\\d+)").matcher(output);
    int components = 0;
    while (started.find()) {
      components++;
      assertThat(Loopback.inUse(Integer.parseInt(started.group(2))))
          .as("%s's port %s is still in use after the demo", started.group(1), started.group(2))
          .isFalse();
    }
    assertThat(components).as("components the demo announced").isEqualTo(7);
    String marker = dir.toString();
    assertThat(
            ProcessHandle.allProcesses()
                .filter(
                    p -> p.info().commandLine().map(line -> line.contains(marker)).orElse(false)))
        .as("processes still running with %s on their command line", marker)
        .isEmpty();
  }
}
