package dev.firedrill.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.firedrill.experiment.BlastRadius;
import dev.firedrill.experiment.FaultSpec;
import dev.firedrill.fault.Fault;
import dev.firedrill.fault.FaultContext;
import dev.firedrill.fault.Faults;
import dev.firedrill.fault.ProcessId;
import dev.firedrill.testing.DemoStack;
import dev.firedrill.testing.Results;
import dev.firedrill.testing.StubHttpServer;
import dev.firedrill.testing.SyntheticService;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The commands in-process through {@link Main#commandLine()}: output, exit codes, no stack traces.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class CliTest {

  @RegisterExtension static final DemoStack stack = new DemoStack();

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String STACK_TRACE = "at dev.firedrill";

  @TempDir Path dir;

  private final List<ProcessId> started = new ArrayList<>();

  @AfterEach
  void killWhatATestStarted() {
    Workers.kill(started);
  }

  // --- validate

  @Test
  void validateAcceptsTheExampleExperiment() {
    CliRun run = CliRun.of("validate", "fixtures/experiments/cpu-burn.yaml");

    assertThat(run.exit()).as(run.describe()).isEqualTo(0);
    assertThat(run.out())
        .isEqualTo(
            "fixtures/experiments/cpu-burn.yaml: valid: experiment checkout-latency, "
                + "2 SLI(s), 1 fault(s), 1 abort rule(s) and a burn-rate guard\n");
    assertThat(run.err()).isEmpty();
  }

  @Test
  void validateNamesEveryMissingPartWithoutAStackTrace() {
    CliRun run = CliRun.of("validate", "fixtures/bad/missing-parts.yaml");

    assertThat(run.exit()).as(run.describe()).isEqualTo(2);
    assertThat(run.out()).isEmpty();
    assertThat(run.err())
        .isEqualTo(
            """
        fixtures/bad/missing-parts.yaml: /abort: missing; an experiment needs an abort section (line 1, column 1)
        fixtures/bad/missing-parts.yaml: /blast_radius: missing; an experiment needs a blast_radius section: how much the drill may break (line 1, column 1)
        fixtures/bad/missing-parts.yaml: /steady_state/slis: missing; a steady state is measured, not assumed: list at least one SLI (line 5, column 1)
        fixtures/bad/missing-parts.yaml: /method/faults: missing; a drill needs at least one fault, such as process-kill or cpu-burn (line 7, column 1)
        """);
    assertThat(run.err()).doesNotContain(STACK_TRACE);
  }

  @Test
  void validateOnAMissingFileIsOneLine() {
    Path missing = dir.resolve("nope.yaml");
    CliRun run = CliRun.of("validate", missing.toString());

    assertThat(run.exit()).as(run.describe()).isEqualTo(2);
    assertThat(run.out()).isEmpty();
    assertThat(run.err())
        .isEqualTo(
            missing
                + ": /: cannot read: no such file (firedrill init --fault KIND writes an experiment"
                + " to start from)\n");
  }

  @Test
  void verboseAddsTheStackTrace() {
    Path missing = dir.resolve("nope.yaml");
    CliRun run = CliRun.of("validate", "--verbose", missing.toString());

    assertThat(run.exit()).as(run.describe()).isEqualTo(2);
    assertThat(run.err())
        .startsWith(
            missing
                + ": /: cannot read: no such file (firedrill init --fault KIND writes an experiment"
                + " to start from)\n")
        .contains(STACK_TRACE);
  }

  // --- plan

  /** Each plan draws a fresh run id, which names the toxics and tags the workers: RUN here. */
  private static String withoutRunId(String out) {
    return out.replaceAll("-[0-9a-f]{8}-(\\d)", "-RUN-$1")
        .replaceAll("--tag [0-9a-f]{8}\\.", "--tag RUN.");
  }

  @Test
  void planPrintsTheBudgetArithmeticAndTheActionsAndExecutesNothing() throws IOException {
    Path file =
        write(
            "plan-ok",
            experiment("plan-ok", "http://127.0.0.1:9", "10m", "15m", 1, "5%", "1", "0.05"));

    CliRun run = CliRun.of("plan", file.toString());

    assertThat(run.exit()).as(run.describe()).isEqualTo(0);
    assertThat(withoutRunId(run.out()))
        .isEqualTo(
            """
        experiment plan-ok: The CLI plans plan-ok
        method: 10m, measured every 1s, recovery within 30s
        error budget: 99.9% over 30d allows 43.20 min of total outage; worst case 5% of traffic for 10m spends 0.50 min, 1.157% of the budget (ceiling 5%)
        fault 0 (cpu-burn, ttl 15m, enforced by the injector):
          start 1 cpu-burn worker (java ... CpuBurnWorker --seconds 900 --experiment plan-ok --tag RUN.0), which exits by itself after 15m
        nothing was executed
        """);
    assertThat(run.err()).isEmpty();
    assertThat(Workers.running("plan-ok")).isEmpty();
  }

  @Test
  void planOfTheExporterDownFixtureNamesTheToxicAndWhyTrafficShareDoesNotLimitIt() {
    CliRun run = CliRun.of("plan", "fixtures/experiments/payments-exporter-down.yaml");

    assertThat(run.exit()).as(run.describe()).isEqualTo(0);
    assertThat(withoutRunId(run.out()))
        .contains(
            """
        fault 0 (exporter-down, ttl 2m, enforced by the injector):
          POST http://127.0.0.1:18475/proxies/payments-metrics/toxics {"name":"firedrill-payments-exporter-down-RUN-0",\
        "type":"error","stream":"downstream","toxicity":1.0,"attributes":{"status":503},"ttl":"2m"}
          every scrape through proxy payments-metrics fails (answered 503) until the toxic goes; no user traffic goes \
        through it, so blast_radius traffic_share does not limit it
          the proxy removes toxic firedrill-payments-exporter-down-RUN-0 by itself after 2m
        """);
    // Its alert expectations are checked against a lab's Prometheus when one is up; either way
    // nothing runs.
    assertThat(run.out()).endsWith("nothing was executed\n");
  }

  @Test
  void planRefusesADurationAboveTheLimit() throws IOException {
    CliRun run =
        plan(
            "plan-long",
            experiment("plan-long", "http://127.0.0.1:9", "20m", "20m", 1, "5%", "1", "0.05"));

    assertThat(run.out())
        .contains("refused: method.duration 20m is above blast_radius.max_duration 15m\n");
  }

  @Test
  void planRefusesABudgetAboveTheCeiling() throws IOException {
    CliRun run =
        plan(
            "plan-budget",
            experiment("plan-budget", "http://127.0.0.1:9", "10m", "15m", 1, "50%", "1", "0.05"));

    assertThat(run.out())
        .contains(
            "error budget: 99.9% over 30d allows 43.20 min of total outage; worst case 50% of "
                + "traffic for 10m spends 5.00 min, 11.57% of the budget (ceiling 5%)\n");
    assertThat(run.out())
        .contains(
            "refused: worst-case spend 11.57% of the error budget is above the ceiling of 5%"
                + " (blast_radius.budget_ceiling)\n");
  }

  @Test
  void planRefusesMoreCpuWorkersThanAllowed() throws IOException {
    CliRun run =
        plan(
            "plan-workers",
            experiment("plan-workers", "http://127.0.0.1:9", "10m", "15m", 3, "5%", "2", "0.05"));

    assertThat(run.out())
        .contains(
            "fault 0 (cpu-burn, ttl 15m, enforced by the injector):\n"
                + "refused: method.faults[0] (cpu-burn): cpu-burn: 3 workers exceed blast_radius max_workers 2\n");
  }

  @Test
  void planRefusesAFaultWithoutTtl() throws IOException {
    String yaml =
        experiment("plan-no-ttl", "http://127.0.0.1:9", "10m", "15m", 1, "5%", "1", "0.05")
            .replace("      ttl: 15m\n", "");
    CliRun run = plan("plan-no-ttl", yaml);

    assertThat(run.out())
        .contains(
            "fault 0 (cpu-burn, ttl none, enforced by the injector):\n"
                + "refused: method.faults[0] (cpu-burn): cpu-burn: no ttl; every fault needs a ttl that the injector"
                + " enforces on its own: add ttl: ");
  }

  /** A refused plan: exit 2, no "nothing was executed" claim needed, no stack trace, no process. */
  private CliRun plan(String id, String yaml) throws IOException {
    CliRun run = CliRun.of("plan", write(id, yaml).toString());
    assertThat(run.exit()).as(run.describe()).isEqualTo(2);
    assertThat(run.out())
        .as(run.describe())
        .contains("\nrefused: ")
        .doesNotContain("nothing was executed");
    assertThat(run.out() + run.err()).doesNotContain(STACK_TRACE);
    assertThat(Workers.running(id)).isEmpty();
    return run;
  }

  // --- measure

  @Test
  void measurePrintsTheTableAndExitsZeroWhenHealthy() throws IOException {
    stack.exporter().setErrorRatio(0);
    awaitErrorRatio(v -> v == 0);
    Path file =
        write(
            "measure-ok",
            experiment(
                "measure-ok",
                stack.prometheus().url().toString(),
                "10m",
                "15m",
                1,
                "5%",
                "1",
                "0.05"));

    CliRun run = CliRun.of("measure", file.toString());

    assertThat(run.exit()).as(run.describe()).isEqualTo(0);
    assertThat(run.out().lines().toList()).as(run.describe()).hasSize(4);
    assertThat(run.out().lines().toList().get(0))
        .isEqualTo("NAME                 VALUE         EXPECTED      STATUS");
    assertThat(run.out().lines().toList().subList(1, 4))
        .satisfiesExactly(
            line ->
                assertThat(line).isEqualTo("error_ratio          0             <= 0.02       ok"),
            line -> assertThat(line).matches("p99_latency_seconds  0\\.049\\d*\\s+<= 0\\.5\\s+ok"),
            line ->
                assertThat(line).isEqualTo("burn_rate            0             <= 14.4       ok"));
    assertThat(run.err()).isEmpty();
  }

  @Test
  void measureExitsOneWhenAnSliIsBreached() throws IOException {
    Path file =
        write(
            "measure-bad",
            experiment(
                "measure-bad",
                stack.prometheus().url().toString(),
                "10m",
                "15m",
                1,
                "5%",
                "1",
                "0.05"));
    try {
      stack.exporter().setErrorRatio(0.05);
      awaitErrorRatio(v -> v > 0.03);

      CliRun run = CliRun.of("measure", file.toString());

      assertThat(run.exit()).as(run.describe()).isEqualTo(1);
      assertThat(run.out())
          .as(run.describe())
          .containsPattern("(?m)^error_ratio +0\\.0\\d* +<= 0\\.02 +breach$");
      assertThat(run.err()).isEmpty();
    } finally {
      stack.exporter().setErrorRatio(0);
    }
  }

  @Test
  void measureExitsFourWhenPrometheusIsUnreachable() throws IOException {
    String url = "http://127.0.0.1:" + StubHttpServer.closedPort();
    Path file =
        write("measure-gone", experiment("measure-gone", url, "10m", "15m", 1, "5%", "1", "0.05"));

    CliRun run = CliRun.of("measure", file.toString());

    assertThat(run.exit()).as(run.describe()).isEqualTo(4);
    List<String> lines = run.out().lines().toList();
    assertThat(lines).hasSize(4);
    assertThat(lines.subList(1, 4))
        .allSatisfy(
            line ->
                assertThat(line)
                    .contains(
                        "  -  ",
                        "error: cannot reach Prometheus at "
                            + url
                            + " (connection refused) for query \""));
    assertThat(run.err()).isEmpty();
    assertThat(run.out()).doesNotContain(STACK_TRACE, "Exception");
  }

  // --- tokens

  @Test
  void anUnsetTokenVariableIsOneLineNamingIt() throws IOException {
    Assumptions.assumeTrue(
        System.getenv("FIREDRILL_TEST_TOKEN") == null,
        "FIREDRILL_TEST_TOKEN is set in this environment");
    String yaml =
        experiment("token-env", "http://127.0.0.1:9", "10m", "15m", 1, "5%", "1", "0.05")
            .replace(
                "  timeout: 2s\n", "  timeout: 2s\n  bearer_token_env: FIREDRILL_TEST_TOKEN\n");
    Path file = write("token-env", yaml);
    Path journal = dir.resolve("token-env.json");

    for (CliRun run :
        List.of(
            CliRun.of("measure", file.toString()),
            CliRun.of(
                "run",
                file.toString(),
                "--journal",
                journal.toString(),
                "--history",
                CliRun.historyBeside(journal)))) {
      assertThat(run.exit()).as(run.describe()).isEqualTo(2);
      assertThat(run.out()).isEmpty();
      assertThat(run.err())
          .isEqualTo(
              "prometheus bearer token (env FIREDRILL_TEST_TOKEN): environment variable "
                  + "FIREDRILL_TEST_TOKEN is not set (expected a bearer token)\n");
    }
    assertThat(journal).doesNotExist();
    assertThat(Workers.running("token-env")).isEmpty();
  }

  @Test
  void aTokenFromAFileIsSentButNeverPrintedNorJournaled() throws IOException {
    String secret = "s3cr3t-t0ken-" + System.nanoTime();
    Path tokenFile = dir.resolve("token");
    Files.writeString(tokenFile, secret + "\n");
    try (StubHttpServer prometheus = StubHttpServer.start()) {
      // A proxy that echoes what it refused: the secret comes back in the body.
      prometheus.respond(401, "text/plain", "invalid credentials: Bearer " + secret);
      String yaml =
          experiment(
                  "token-file", prometheus.url("").toString(), "10m", "15m", 1, "5%", "1", "0.05")
              .replace(
                  "  timeout: 2s\n", "  timeout: 2s\n  bearer_token_file: " + tokenFile + "\n");
      Path file = write("token-file", yaml);
      Path journal = dir.resolve("token-file.json");

      CliRun measure = CliRun.of("measure", file.toString());
      CliRun run =
          CliRun.of(
              "run",
              file.toString(),
              "--journal",
              journal.toString(),
              "--history",
              CliRun.historyBeside(journal));

      assertThat(prometheus.lastRequest().headers())
          .containsEntry("authorization", "Bearer " + secret);
      assertThat(measure.exit()).as(measure.describe()).isEqualTo(4);
      assertThat(measure.out()).contains("answered HTTP 401", "<redacted>");
      // refused credentials are the drill's problem, not the system's: inconclusive, nothing
      // injected
      assertThat(run.exit()).as(run.describe()).isEqualTo(ExitCode.INCONCLUSIVE);
      assertThat(run.out())
          .contains("verdict inconclusive: the steady state could not be measured");
      String journalText = Files.readString(journal);
      assertThat(journalText)
          .contains("\"prometheus_token\" : \"file " + tokenFile + "\"", "answered HTTP 401");
      for (String text : List.of(measure.out(), measure.err(), run.out(), run.err(), journalText)) {
        assertThat(text).doesNotContain(secret);
      }
      assertThat(Workers.running("token-file")).isEmpty();
    }
  }

  // --- cleanup

  @Test
  void cleanupWithNothingPendingSaysSo() throws IOException {
    Path journal = dir.resolve("done.json");
    Files.writeString(
        journal,
        """
        {"firedrill_journal": 1,
         "experiment": {"id": "cleanup-done", "duration": "10s"},
         "faults": [
           {"index": 0, "kind": "cpu-burn", "spec": {"kind": "cpu-burn", "workers": 1, "ttl": "1m"},
            "injected": true, "reverted": true, "state": {"workers": [{"pid": 1, "start": 1}]}},
           {"index": 1, "kind": "cpu-burn", "spec": {"kind": "cpu-burn", "workers": 1, "ttl": "1m"},
            "injected": false}
         ]}
        """);

    CliRun run = CliRun.of("cleanup", journal.toString());

    assertThat(run.exit()).as(run.describe()).isEqualTo(0);
    assertThat(run.out()).isEqualTo(journal + ": nothing left to revert\n");
    assertThat(run.err()).isEmpty();
  }

  @Test
  void cleanupRevertsAWorkerThatADeadDrillLeftBehind() throws Exception {
    FaultSpec.CpuBurn spec = new FaultSpec.CpuBurn(1, Optional.of(Duration.ofMinutes(1)));
    BlastRadius radius = new BlastRadius(0.05, Duration.ofMinutes(1), 0.05, 1, 1);
    Fault fault =
        Faults.create(
            spec, FaultContext.onThisHost("cleanup-left", radius, Duration.ofSeconds(10)));
    fault.inject();
    JsonNode workers = JSON.valueToTree(fault.state()).get("workers");
    ProcessId worker =
        new ProcessId(workers.get(0).get("pid").asLong(), workers.get(0).get("start").asLong());
    started.add(worker);
    assertThat(Workers.alive(worker)).isTrue();
    Path journal = dir.resolve("left.json");
    Files.writeString(
        journal,
        """
        {"firedrill_journal": 1,
         "experiment": {"id": "cleanup-left", "duration": "10s"},
         "faults": [
           {"index": 0, "kind": "cpu-burn", "spec": {"kind": "cpu-burn", "workers": 1, "ttl": "1m"},
            "injected": true, "reverted": false, "state": {"workers": %s}}
         ]}
        """
            .formatted(workers));

    CliRun run = CliRun.of("cleanup", journal.toString());

    assertThat(run.exit()).as(run.describe()).isEqualTo(0);
    assertThat(run.out())
        .isEqualTo(
            "fault 0 (cpu-burn): reverted: stopped 1 cpu-burn worker (SIGTERM, then SIGKILL if"
                + " needed); verified: none is running (PIDs "
                + worker.pid()
                + ")\n");
    assertThat(Workers.alive(worker)).isFalse();
    JsonNode after = JSON.readTree(journal.toFile()).get("faults").get(0);
    assertThat(after.get("reverted").asBoolean()).isTrue();
    assertThat(after.get("revert").get("ok").asBoolean()).isTrue();

    CliRun again = CliRun.of("cleanup", journal.toString());
    assertThat(again.exit()).as(again.describe()).isEqualTo(0);
    assertThat(again.out()).isEqualTo(journal + ": nothing left to revert\n");
  }

  @Test
  void cleanupOnSomethingThatIsNotAJournalIsOneLine() throws IOException {
    Path yaml = Path.of("fixtures/experiments/cpu-burn.yaml");
    Path object = dir.resolve("object.json");
    Files.writeString(object, "{\"verdict\": \"held\"}\n");
    Path missing = dir.resolve("missing.json");

    CliRun notJson = CliRun.of("cleanup", yaml.toString());
    CliRun notJournal = CliRun.of("cleanup", object.toString());
    CliRun absent = CliRun.of("cleanup", missing.toString());

    assertThat(notJson.err()).startsWith(yaml.toAbsolutePath() + ": not a firedrill journal: ");
    assertThat(notJournal.err())
        .isEqualTo(
            object.toAbsolutePath()
                + ": not a firedrill journal: expected a JSON object with \"firedrill_journal\"\n");
    assertThat(absent.err())
        .isEqualTo(missing.toAbsolutePath() + ": no such file (expected a firedrill journal)\n");
    for (CliRun run : List.of(notJson, notJournal, absent)) {
      assertThat(run.exit()).as(run.describe()).isEqualTo(2);
      assertThat(run.out()).isEmpty();
      assertThat(run.err().lines()).as(run.describe()).hasSize(1);
      assertThat(run.err()).doesNotContain(STACK_TRACE);
    }
  }

  // --- helpers

  private static void awaitErrorRatio(java.util.function.DoublePredicate test) {
    stack
        .prometheus()
        .awaitQuery(
            SyntheticService.ERROR_RATIO, Results.valueMatches(test), Duration.ofSeconds(20));
    stack
        .prometheus()
        .awaitQuery(
            SyntheticService.P99_LATENCY,
            Results.valueMatches(v -> v > 0 && v < 0.5),
            Duration.ofSeconds(20));
  }

  private Path write(String id, String yaml) throws IOException {
    Path file = dir.resolve(id + ".yaml");
    Files.writeString(file, yaml);
    return file;
  }

  private static String experiment(
      String id,
      String url,
      String duration,
      String ttl,
      int workers,
      String trafficShare,
      String maxWorkers,
      String ceiling) {
    return """
        id: %s
        title: The CLI plans %s
        prometheus:
          url: %s
          timeout: 2s
        steady_state:
          interval: 1s
          slis:
            - name: error_ratio
              query: '%s'
              max: 0.02
              missing: fail
            - name: p99_latency_seconds
              query: '%s'
              max: 0.5
              missing: inconclusive
        hypothesis:
          recovery: 30s
        method:
          duration: %s
          faults:
            - kind: cpu-burn
              workers: %d
              ttl: %s
        abort:
          burn_rate:
            objective: 99.9%%
            window: 30d
            error_ratio: '%s'
            max: 14.4
        blast_radius:
          traffic_share: %s
          max_duration: 15m
          budget_ceiling: %s
          max_workers: %s
        """
        .formatted(
            id,
            id,
            url,
            SyntheticService.ERROR_RATIO,
            SyntheticService.P99_LATENCY,
            duration,
            workers,
            ttl,
            SyntheticService.ERROR_RATIO,
            trafficShare,
            ceiling,
            maxWorkers);
  }
}
