package dev.firedrill.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.firedrill.cli.Main;
import dev.firedrill.prometheus.HttpPrometheusClient;
import dev.firedrill.prometheus.PrometheusException;
import dev.firedrill.prometheus.QueryResult;
import dev.firedrill.testing.DemoStack;
import dev.firedrill.testing.Results;
import dev.firedrill.testing.SyntheticService;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * How fast a burn-rate guard stops a drill, on the real stack: each drill is a real {@code
 * firedrill run} (in-process) with one cpu-burn worker; once it has injected, the service's error
 * ratio jumps so that the burn rate exceeds the guard's max. Measured per drill: from the first
 * moment the guard's query shows the breach (found afterwards by evaluating it every 100 ms, then
 * to the millisecond) to the moment every fault was verified reverted (the journal's last {@code
 * faults[].revert.at}). Figures only: nothing about time is asserted.
 */
class GuardReactionBenchmark {

  static final int DRILLS = Integer.getInteger("drills", 20);
  static final double OBJECTIVE = 0.99;
  static final double MAX_BURN = 10;
  static final double ERROR_RATIO_DURING = 1.0;
  static final Duration INTERVAL = Duration.ofSeconds(1);
  static final Duration STEP = Duration.ofMillis(100);
  static final int DRILLS_PER_SWEEP = 20;
  static final ObjectMapper JSON = new ObjectMapper();

  @RegisterExtension static final DemoStack stack = new DemoStack();

  @TempDir Path dir;

  record Drill(
      int number,
      int exit,
      String verdict,
      String abortReason,
      Instant flip,
      Instant breach,
      Instant abortedAt,
      Instant revertedAt,
      String output) {
    double reaction() {
      return seconds(breach, revertedAt);
    }
  }

  @Test
  void burnRateGuardReaction() throws Exception {
    HttpPrometheusClient prometheus = stack.prometheus().client();
    Path experiment = experiment();
    stack
        .prometheus()
        .awaitQuery(
            SyntheticService.REQUEST_RATE,
            Results.valueMatches(v -> v > 5),
            Duration.ofSeconds(30));

    Drill warmUp = drill(0, experiment, prometheus);
    List<Drill> drills = new ArrayList<>();
    for (int i = 1; i <= DRILLS; i++) {
      drills.add(drill(i, experiment, prometheus));
    }

    BenchReport report = new BenchReport("GuardReactionBenchmark");
    report.line(
        "stack: real prometheus (1 s scrape and evaluation) scraping a SyntheticService at 10 req/s");
    report.line(
        "drill: firedrill run, steady_state.interval %ds, one cpu-burn worker, duration 30s, ttl 40s",
        INTERVAL.toSeconds());
    report.line(
        "guard: burn_rate objective %s, max %s, error_ratio %s",
        OBJECTIVE, MAX_BURN, SyntheticService.ERROR_RATIO);
    report.line(
        "start: each drill starts 0 to 950 ms (a 50 ms step per drill, shuffled; column delay) after the rate"
            + " window is free of errors, so the drill's polls fall at every phase against the 1 s scrapes");
    report.line(
        "flip:  error ratio 0 -> %s as soon as the journal shows the fault injected (burn rate up to %.0f > max %s)",
        ERROR_RATIO_DURING, ERROR_RATIO_DURING / (1 - OBJECTIVE), MAX_BURN);
    report.line(
        "breach: first time the guard's query, evaluated every %d ms and then bisected to 1 ms, shows"
            + " error_ratio/(1-objective) > max",
        STEP.toMillis());
    report.line("reaction: breach -> last faults[].revert.at (every fault verified reverted)");
    report.line(
        "warm-up drill (not counted): verdict %s, reaction %.3f s",
        warmUp.verdict(), warmUp.reaction());
    report.line("");
    report.line(
        "%-5s %-9s %8s %14s %15s %15s %11s",
        "drill",
        "verdict",
        "delay s",
        "flip->breach s",
        "breach->abort s",
        "abort->revert s",
        "reaction s");
    for (Drill d : drills) {
      report.line(
          "%-5d %-9s %8.3f %14.3f %15.3f %15.3f %11.3f",
          d.number(),
          d.verdict(),
          startDelay(d.number()).toMillis() / 1000.0,
          seconds(d.flip(), d.breach()),
          seconds(d.breach(), d.abortedAt()),
          seconds(d.abortedAt(), d.revertedAt()),
          d.reaction());
    }
    List<Double> reactions = drills.stream().map(Drill::reaction).toList();
    List<Double> detections = drills.stream().map(d -> seconds(d.breach(), d.abortedAt())).toList();
    List<Double> rollbacks =
        drills.stream().map(d -> seconds(d.abortedAt(), d.revertedAt())).toList();
    double target = INTERVAL.toMillis() / 1000.0 + 0.25;
    report.line("");
    report.line("poll interval: %.3f s", INTERVAL.toMillis() / 1000.0);
    report.line(
        "reaction (breach -> reverted): median %.3f s, max %.3f s, min %.3f s",
        BenchReport.median(reactions), BenchReport.max(reactions), BenchReport.min(reactions));
    report.line(
        "  of which breach -> abort decided: median %.3f s, max %.3f s",
        BenchReport.median(detections), BenchReport.max(detections));
    report.line(
        "  of which abort -> verified reverted: median %.3f s, max %.3f s",
        BenchReport.median(rollbacks), BenchReport.max(rollbacks));
    report.line(
        "target: at most one poll interval + 250 ms = %.3f s; drills within it: %d of %d; max within it: %s",
        target,
        reactions.stream().filter(r -> r <= target).count(),
        reactions.size(),
        BenchReport.max(reactions) <= target ? "yes" : "NO");
    long aborted = drills.stream().filter(d -> d.verdict().equals("aborted")).count();
    report.line(
        "verdicts: %d of %d aborted%s",
        aborted,
        drills.size(),
        aborted == drills.size()
            ? ""
            : " (others: "
                + drills.stream()
                    .filter(d -> !d.verdict().equals("aborted"))
                    .map(d -> "#" + d.number() + " " + d.verdict() + ": " + d.abortReason())
                    .toList()
                + ")");
    report.line("abort reason (drill 1): %s", drills.get(0).abortReason());
    report.finish();
  }

  private Drill drill(int number, Path experiment, HttpPrometheusClient prometheus)
      throws Exception {
    SyntheticService service = stack.exporter();
    service.setErrorRatio(0);
    // The 5 s rate window must hold no error before preflight, or the drill is not-run.
    stack
        .prometheus()
        .awaitQuery(SyntheticService.ERROR_RATIO, Results.valueNear(0, 0), Duration.ofSeconds(30));
    // The wait above ends just after a scrape (when the last error leaves the rate window), and the
    // drill polls every interval from its start: without a delay every drill would poll at the same
    // phase against the scrapes, so the breach (always at a scrape) would always meet the next poll
    // after the same wait. Stepping the start by 50 ms spreads the polls over the scrape interval.
    Thread.sleep(startDelay(number).toMillis());
    Path journal = dir.resolve("drill-" + number + ".json");
    StringWriter output = new StringWriter();
    CompletableFuture<Integer> run =
        CompletableFuture.supplyAsync(
            () -> {
              CommandLine line = Main.commandLine();
              PrintWriter writer = new PrintWriter(output, true);
              line.setOut(writer);
              line.setErr(writer);
              return line.execute("run", experiment.toString(), "--journal", journal.toString());
            });
    Instant flip;
    try {
      awaitJournal(journal, run, j -> j.path("faults").path(0).has("injected_at"), output);
      flip = Instant.now();
      service.setErrorRatio(ERROR_RATIO_DURING);
      awaitJournal(journal, run, j -> j.has("rollback_done_at"), output);
    } finally {
      service.setErrorRatio(0);
    }
    int exit = run.get(120, TimeUnit.SECONDS);
    JsonNode done = JSON.readTree(journal.toFile());
    Instant revertedAt = null;
    for (JsonNode fault : done.path("faults")) {
      assertThat(fault.path("revert").path("ok").asBoolean())
          .as("drill %d rollback: %s", number, output)
          .isTrue();
      Instant at = Instant.parse(fault.path("revert").path("at").asText());
      revertedAt = revertedAt == null || at.isAfter(revertedAt) ? at : revertedAt;
    }
    assertThat(revertedAt)
        .as("drill %d: revert.at in the journal; output: %s", number, output)
        .isNotNull();
    Instant abortedAt =
        done.hasNonNull("aborted_at")
            ? Instant.parse(done.path("aborted_at").asText())
            : revertedAt;
    // From the flip on: just before it, the rate window may still hold the previous drill's errors.
    Instant breach = firstBreach(prometheus, flip, revertedAt.plusSeconds(2));
    return new Drill(
        number,
        exit,
        done.path("verdict").asText("?"),
        done.path("abort_reason").asText(""),
        flip,
        breach,
        abortedAt,
        revertedAt,
        output.toString());
  }

  /**
   * 0, 50, ..., 950 ms in a fixed shuffled order (7 and 20 are coprime), so 20 drills cover the
   * interval.
   */
  static Duration startDelay(int number) {
    return INTERVAL.dividedBy(DRILLS_PER_SWEEP).multipliedBy((number * 7L) % DRILLS_PER_SWEEP);
  }

  /**
   * The first instant in [from, to] at which the guard's query shows the breach, to the
   * millisecond.
   */
  private static Instant firstBreach(HttpPrometheusClient prometheus, Instant from, Instant to)
      throws Exception {
    Instant previous = from;
    if (breached(prometheus, from)) {
      fail(
          "the guard's query already shows a breach at %s, the flip: %s",
          from, prometheus.query(SyntheticService.ERROR_RATIO, from));
    }
    for (Instant at = from.plus(STEP); !at.isAfter(to); at = at.plus(STEP)) {
      if (breached(prometheus, at)) {
        Instant low = previous; // not breached
        Instant high = at; // breached
        while (Duration.between(low, high).toMillis() > 1) {
          Instant mid =
              low.plus(Duration.between(low, high).dividedBy(2))
                  .truncatedTo(java.time.temporal.ChronoUnit.MILLIS);
          if (breached(prometheus, mid)) {
            high = mid;
          } else {
            low = mid;
          }
        }
        return high;
      }
      previous = at;
    }
    return fail("the guard's query never showed a breach between %s and %s", from, to);
  }

  private static boolean breached(HttpPrometheusClient prometheus, Instant at)
      throws PrometheusException {
    QueryResult result = prometheus.query(SyntheticService.ERROR_RATIO, at);
    OptionalDouble ratio = Results.value(result);
    return ratio.isPresent() && ratio.getAsDouble() / (1 - OBJECTIVE) > MAX_BURN;
  }

  private static void awaitJournal(
      Path journal, CompletableFuture<Integer> run, Predicate<JsonNode> until, StringWriter output)
      throws Exception {
    long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
    while (System.nanoTime() - deadline < 0) {
      if (Files.exists(journal)) {
        try {
          if (until.test(JSON.readTree(journal.toFile()))) {
            return;
          }
        } catch (IOException e) {
          fail("the journal is not whole JSON: " + e.getMessage());
        }
      }
      if (run.isDone()) {
        fail(
            "the drill ended (exit "
                + run.get()
                + ") before the journal showed what the benchmark waits for; output: "
                + output);
      }
      Thread.sleep(10);
    }
    fail("timed out waiting for the journal; output: " + output);
  }

  private Path experiment() throws IOException {
    Map<String, Object> sli = new LinkedHashMap<>();
    sli.put("name", "request_rate");
    sli.put("query", SyntheticService.REQUEST_RATE);
    sli.put("min", 1);
    Map<String, Object> burn = new LinkedHashMap<>();
    burn.put("objective", OBJECTIVE);
    burn.put("window", "30d");
    burn.put("error_ratio", SyntheticService.ERROR_RATIO);
    burn.put("max", MAX_BURN);
    Map<String, Object> fault = new LinkedHashMap<>();
    fault.put("kind", "cpu-burn");
    fault.put("workers", 1);
    fault.put("ttl", "40s");
    Map<String, Object> root = new LinkedHashMap<>();
    root.put("id", "guard-reaction");
    root.put("title", "The burn-rate guard stops the drill within one poll interval");
    root.put("prometheus", Map.of("url", stack.prometheus().url().toString(), "timeout", "2s"));
    root.put("steady_state", Map.of("interval", INTERVAL.toSeconds() + "s", "slis", List.of(sli)));
    root.put("hypothesis", Map.of("description", "the guard stops the drill", "recovery", "2s"));
    root.put("method", Map.of("duration", "30s", "faults", List.of(fault)));
    root.put("abort", Map.of("burn_rate", burn, "probe_errors", 3));
    root.put("blast_radius", Map.of("traffic_share", 1, "max_duration", "1m", "max_workers", 1));
    Path file = dir.resolve("guard-reaction.json");
    JSON.writeValue(file.toFile(), root);
    return file;
  }

  static double seconds(Instant from, Instant to) {
    return Duration.between(from, to).toNanos() / 1e9;
  }
}
