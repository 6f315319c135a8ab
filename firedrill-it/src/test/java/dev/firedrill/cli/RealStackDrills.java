package dev.firedrill.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.firedrill.fault.ProcessId;
import dev.firedrill.testing.DemoStack;
import dev.firedrill.testing.RealPrometheus;
import dev.firedrill.testing.Results;
import dev.firedrill.testing.Stacks;
import dev.firedrill.testing.SyntheticService;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import java.util.stream.StreamSupport;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code firedrill run} end to end, in-process: a {@link SyntheticService} scraped by the real
 * Prometheus of one {@link Stacks.Pair} every second, a real cpu-burn worker, the real journal.
 * Each drill's verdict, exit code, journal and rollback are checked, and that no worker process
 * outlives its drill. {@link RealStackDrillTest} runs these drills once per pair.
 *
 * <p>The thresholds: the error_ratio SLI allows 0.02; the burn-rate guard (objective 99%, max 10)
 * aborts above an error ratio of 0.1; the abort rule above 0.5 for 2 is never reached.
 */
@Timeout(value = 90, unit = TimeUnit.SECONDS)
@TestInstance(TestInstance.Lifecycle.PER_CLASS) // one stack per pair, so not a static one
abstract class RealStackDrills {

  private final Supplier<Stacks.Pair> pair;
  private DemoStack stack;

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Duration DATA = Duration.ofSeconds(20);
  private static final Duration INJECTION_LIMIT = Duration.ofSeconds(30);

  @TempDir Path classDir;

  /** This test's own folder: with one instance per class, a journal must not outlive its test. */
  private Path dir;

  private ExecutorService background;
  private final List<ProcessId> workersSeen = new ArrayList<>();

  /** A drill's console and journal. */
  private record Drill(CliRun cli, Path journalPath, JsonNode journal) {
    JsonNode fault() {
      return journal.path("faults").get(0);
    }

    List<String> measurementPhases() {
      return StreamSupport.stream(journal.path("measurements").spliterator(), false)
          .map(m -> m.path("phase").asText())
          .toList();
    }

    String describe() {
      return cli.describe() + "--- journal\n" + journal.toPrettyString();
    }
  }

  RealStackDrills(Supplier<Stacks.Pair> pair) {
    this.pair = pair;
  }

  @BeforeAll
  void startStack() {
    stack = new DemoStack(pair, List.of()).start();
  }

  @AfterAll
  void stopStack() {
    if (stack != null) {
      stack.close();
    }
  }

  @BeforeEach
  void healthyService() throws IOException {
    dir = Files.createTempDirectory(classDir, "drill-");
    background =
        Executors.newSingleThreadExecutor(
            r -> {
              Thread thread = new Thread(r, "drill test background");
              thread.setDaemon(true);
              return thread;
            });
    SyntheticService service = stack.exporter();
    service.setScrapeFailing(false);
    service.show(SyntheticService.REQUESTS);
    service.show(SyntheticService.DURATION);
    service.setRequestRate(10);
    service.setLatency(0.05);
    service.setErrorRatio(0);
    awaitHealthy(stack.prometheus());
  }

  @AfterEach
  void noWorkerOutlivesItsTest() {
    background.shutdownNow();
    Workers.kill(workersSeen); // only matters when a test failed before the rollback
    workersSeen.clear();
  }

  @Test
  void heldWhenTheServiceStaysHealthy() throws Exception {
    Drill drill = run(experiment("stack-held", stack.prometheus().url(), 4, 3));

    assertDrill(drill, "held", ExitCode.HELD, "");
    assertThat(drill.journal().path("reason").asText())
        .as(drill.describe())
        .matches(
            "\\d+ measurements while the faults were on within steady state; recovered \\d+\\.\\ds after the rollback");
    assertThat(drill.measurementPhases())
        .as(drill.describe())
        .filteredOn("during"::equals)
        .hasSizeGreaterThanOrEqualTo(3);
    assertThat(drill.journal().has("abort_reason")).isFalse();
    assertThat(drill.cli().out()).contains(" verdict held: ");
  }

  @Test
  void deviatedWhenErrorsRiseAboveTheSliButBelowTheAbortThresholds() throws Exception {
    Path file = experiment("stack-deviated", stack.prometheus().url(), 7, 3);
    Future<?> flip =
        onceInjected(Duration.ofSeconds(1), () -> stack.exporter().setErrorRatio(0.06));

    Drill drill = run(file);

    assertThat(flip).succeedsWithin(Duration.ofSeconds(1));
    assertDrill(
        drill,
        "deviated",
        ExitCode.DEVIATED,
        "hypothesis broken while the faults were on, first at +");
    assertThat(drill.journal().path("reason").asText())
        .contains("error_ratio 0.0", "outside <= 0.02");
    assertThat(drill.journal().has("abort_reason")).as(drill.describe()).isFalse();
    assertThat(drill.cli().out()).contains(" verdict deviated: ");
  }

  @Test
  void abortedByTheBurnRateGuard() throws Exception {
    Path file = experiment("stack-burn", stack.prometheus().url(), 8, 3);
    Future<?> flip = onceInjected(Duration.ofSeconds(1), () -> stack.exporter().setErrorRatio(0.3));

    Drill drill = run(file);

    assertThat(flip).succeedsWithin(Duration.ofSeconds(1));
    assertDrill(drill, "aborted", ExitCode.ABORTED, "burn rate ");
    assertThat(drill.journal().path("abort_reason").asText())
        .as(drill.describe())
        .startsWith("burn rate ")
        .contains(" above 10 (error ratio ");
    assertThat(drill.cli().out()).contains(" abort burn rate ", " verdict aborted: burn rate ");
  }

  @Test
  void abortedWhenTheGuardSeriesDisappears() throws Exception {
    Path file = experiment("stack-dark", stack.prometheus().url(), 12, 3);
    Future<?> hide =
        onceInjected(
            Duration.ofMillis(500), () -> stack.exporter().hide(SyntheticService.REQUESTS));

    Drill drill = run(file);

    assertThat(hide).succeedsWithin(Duration.ofSeconds(1));
    assertDrill(
        drill, "aborted", ExitCode.ABORTED, "burn-rate guard has no data (empty result for ");
    assertThat(drill.journal().path("reason").asText()).contains("missing data is failure");
  }

  @Test
  void abortedWhenPrometheusStopsMidRunAndTheFaultIsStillRolledBack() throws Exception {
    try (SyntheticService service = SyntheticService.start();
        RealPrometheus prometheus =
            RealPrometheus.start(pair.get(), List.of(service.address()), List.of())) {
      awaitHealthy(prometheus);
      Path file = experiment("stack-blind", prometheus.url(), 10, 2);
      Future<?> stop = onceInjected(Duration.ofSeconds(1), prometheus::stop);

      Drill drill = run(file);

      assertThat(stop).succeedsWithin(Duration.ofSeconds(1));
      assertThat(prometheus.isRunning()).isFalse();
      assertDrill(
          drill,
          "aborted",
          ExitCode.ABORTED,
          "2 probe errors in a row; the drill cannot see the system: ");
      assertThat(drill.journal().path("reason").asText())
          .as(drill.describe())
          .contains("cannot reach Prometheus at " + prometheus.url() + " (connection refused)")
          .contains("not back in steady state within 2s of the rollback");
      assertThat(drill.measurementPhases()).contains("after");
    }
  }

  @Test
  void notRunWhenAlreadyUnhealthyBeforeTheDrill() throws Exception {
    stack.exporter().setErrorRatio(0.06);
    stack
        .prometheus()
        .awaitQuery(SyntheticService.ERROR_RATIO, Results.valueMatches(v -> v > 0.04), DATA);

    Drill drill = run(experiment("stack-not-run", stack.prometheus().url(), 4, 3));

    assertThat(drill.cli().exit()).as(drill.describe()).isEqualTo(ExitCode.NOT_RUN);
    JsonNode journal = drill.journal();
    assertThat(journal.path("verdict").asText()).isEqualTo("not-run");
    assertThat(journal.path("reason").asText())
        .as(drill.describe())
        .startsWith("outside steady state before injection, nothing was injected: error_ratio 0.0");
    assertThat(journal.path("rollback_ok").asBoolean(false)).isTrue();
    assertThat(drill.measurementPhases()).containsExactly("before");
    JsonNode fault = drill.fault();
    assertThat(fault.path("kind").asText()).isEqualTo("cpu-burn");
    assertThat(fault.path("injected").asBoolean(true)).as(drill.describe()).isFalse();
    assertThat(fault.has("state")).isFalse();
    assertThat(fault.has("revert")).isFalse();
    assertThat(journal.has("injected_at")).isFalse();
    assertThat(Workers.running("stack-not-run")).isEmpty();
    assertThat(drill.cli().out()).contains(" verdict not-run: ");
  }

  // --- the drill and what it leaves

  private Drill run(Path file) throws IOException {
    Path journal = dir.resolve("journal.json");
    CliRun cli =
        CliRun.of(
            "run",
            file.toString(),
            "--journal",
            journal.toString(),
            "--history",
            CliRun.historyBeside(journal));
    assertThat(journal).as(cli.describe()).exists();
    JsonNode json = JSON.readTree(journal.toFile());
    workersSeen.addAll(Workers.inJournal(json));
    return new Drill(cli, journal, json);
  }

  /**
   * Verdict, exit code, journal and the system: the fault went in, came out and left nothing
   * running.
   */
  private static void assertDrill(Drill drill, String verdict, int exit, String reasonPrefix) {
    String context = drill.describe();
    assertThat(drill.cli().exit()).as(context).isEqualTo(exit);
    JsonNode journal = drill.journal();
    assertThat(journal.path("verdict").asText()).as(context).isEqualTo(verdict);
    assertThat(journal.path("reason").asText()).as(context).startsWith(reasonPrefix);
    assertThat(journal.path("rollback_ok").asBoolean(false)).as(context).isTrue();
    assertThat(drill.measurementPhases())
        .as(context)
        .startsWith("before")
        .contains("during", "after");
    assertThat(journal.path("measurements").get(0).path("status").asText())
        .as(context)
        .isEqualTo("ok");

    JsonNode fault = drill.fault();
    assertThat(journal.path("faults")).hasSize(1);
    assertThat(fault.path("kind").asText()).isEqualTo("cpu-burn");
    assertThat(fault.path("injected").asBoolean(false)).as(context).isTrue();
    assertThat(fault.hasNonNull("injected_at")).as(context).isTrue();
    assertThat(fault.path("reverted").asBoolean(false)).as(context).isTrue();
    assertThat(fault.path("revert").path("ok").asBoolean(false)).as(context).isTrue();
    assertThat(fault.path("revert").path("detail").asText())
        .startsWith(
            "stopped 1 cpu-burn worker (SIGTERM, then SIGKILL if needed); verified: none is running (PIDs ");

    List<ProcessId> workers = Workers.inJournal(journal);
    assertThat(workers).as(context).hasSize(1);
    assertThat(workers)
        .as("cpu-burn workers still alive after the drill")
        .noneMatch(Workers::alive);
    assertThat(drill.cli().out()).contains("journal: " + drill.journalPath().toAbsolutePath());
  }

  // --- the stack and the experiment

  private static void awaitHealthy(RealPrometheus prometheus) {
    prometheus.awaitQuery(SyntheticService.ERROR_RATIO, Results.valueNear(0, 1e-9), DATA);
    prometheus.awaitQuery(
        SyntheticService.P99_LATENCY, Results.valueMatches(v -> v > 0 && v < 0.5), DATA);
  }

  /**
   * Runs {@code action} {@code delay} after the journal shows the fault injected. Bounded: fails
   * (through the future) when no injection shows within {@link #INJECTION_LIMIT}.
   */
  private Future<?> onceInjected(Duration delay, Runnable action) {
    Path journal = dir.resolve("journal.json");
    return background.submit(
        () -> {
          long deadline = System.nanoTime() + INJECTION_LIMIT.toNanos();
          while (!injected(journal)) {
            if (System.nanoTime() - deadline > 0) {
              throw new AssertionError(
                  "the journal " + journal + " showed no injected fault within " + INJECTION_LIMIT);
            }
            Thread.sleep(50);
          }
          Thread.sleep(delay.toMillis());
          action.run();
          return null;
        });
  }

  private static boolean injected(Path journal) {
    try {
      return Files.exists(journal)
          && JSON.readTree(journal.toFile()).path("faults").path(0).hasNonNull("injected_at");
    } catch (IOException e) {
      return false; // written by rename, so this is rare; try again
    }
  }

  private Path experiment(String id, URI prometheus, int durationSeconds, int probeErrors)
      throws IOException {
    String yaml =
        """
        id: %s
        title: Real-stack drill %s
        owner: firedrill-tests
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
          description: One busy CPU worker leaves the synthetic service within its SLO.
          recovery: 2s
        method:
          duration: %ds
          faults:
            - kind: cpu-burn
              workers: 1
              ttl: %ds
        abort:
          rules:
            - sli: error_ratio
              above: 0.5
              for: 2
          burn_rate:
            objective: 99%%
            window: 30d
            error_ratio: '%s'
            max: 10
          probe_errors: %d
        blast_radius:
          traffic_share: 5%%
          max_duration: 1m
          max_workers: 1
        """
            .formatted(
                id,
                id,
                prometheus,
                SyntheticService.ERROR_RATIO,
                SyntheticService.P99_LATENCY,
                durationSeconds,
                durationSeconds + 10,
                SyntheticService.ERROR_RATIO,
                probeErrors);
    Path file = dir.resolve(id + ".yaml");
    Files.writeString(file, yaml);
    return file;
  }
}
