package dev.firedrill.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import dev.firedrill.testing.DemoStack;
import dev.firedrill.testing.FiredrillJar;
import dev.firedrill.testing.Procs;
import dev.firedrill.testing.Results;
import dev.firedrill.testing.SyntheticService;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * firedrill killed with SIGKILL mid-drill, as a real child process from the packaged jar: the
 * journal stays whole, every fault's TTL holds on its own, and {@code cleanup} finishes the job.
 */
class SigkillIT {

  private static final ObjectMapper JSON =
      new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
  private static final Duration JOURNAL_LIMIT = Duration.ofSeconds(30);

  @RegisterExtension static final DemoStack stack = new DemoStack();

  @TempDir Path dir;

  private Process firedrill;

  /** (pid, start ticks) of every process a test must not leave behind. */
  private final List<long[]> leftovers = new ArrayList<>();

  @BeforeEach
  void steadyState() {
    stack
        .prometheus()
        .awaitQuery(SyntheticService.ERROR_RATIO, Results.valueNear(0, 0), Duration.ofSeconds(30));
  }

  @AfterEach
  void killEverything() throws Exception {
    if (firedrill != null) {
      firedrill.destroyForcibly();
      firedrill.waitFor(10, TimeUnit.SECONDS);
    }
    Path journal = dir.resolve("journal.json");
    if (Files.exists(journal)) {
      try {
        JsonNode root = JSON.readTree(journal.toFile());
        if (root.has("watchdog")) {
          leftovers.add(
              new long[] {
                root.path("watchdog").path("pid").asLong(),
                root.path("watchdog").path("start").asLong()
              });
        }
        for (JsonNode fault : root.path("faults")) {
          JsonNode state = fault.path("state");
          for (String list : List.of("workers", "targets")) {
            state
                .path(list)
                .forEach(
                    id ->
                        leftovers.add(
                            new long[] {id.path("pid").asLong(), id.path("start").asLong()}));
          }
        }
      } catch (IOException e) {
        // The decoys are in leftovers already; a broken journal is the test's own failure.
      }
    }
    for (long[] id : leftovers) {
      Procs.kill(id[0], id[1]);
    }
  }

  @Test
  void cpuBurnWorkersExpireOnTheirOwnAndCleanupFindsNothingLeft() throws Exception {
    Map<String, Object> fault = new LinkedHashMap<>();
    fault.put("kind", "cpu-burn");
    fault.put("workers", 2);
    fault.put("ttl", "8s");
    Path experiment =
        experiment(
            "sigkill-cpu-burn", "6s", fault, Map.of("max_duration", "10s", "max_workers", 2));
    Path journal = dir.resolve("journal.json");

    firedrill = firedrill("run", experiment.toString(), "--journal", journal.toString());
    JsonNode seen =
        awaitJournal(
            journal, j -> j.path("faults").path(0).path("state").path("workers").size() == 2);
    kill9();

    JsonNode after = readWhole(journal);
    JsonNode recorded = after.path("faults").path(0);
    assertThat(recorded.path("kind").asText()).isEqualTo("cpu-burn");
    assertThat(recorded.path("injected").asBoolean()).isTrue();
    assertThat(recorded.path("reverted").isBoolean()).isTrue();
    assertThat(recorded.path("reverted").asBoolean()).isFalse();
    assertThat(recorded.has("revert")).isFalse();
    assertThat(after.has("verdict")).as("verdict in %s", after).isFalse();
    assertThat(after.has("rollback_at")).isFalse();
    assertThat(recorded.path("state").path("workers"))
        .isEqualTo(seen.path("faults").path(0).path("state").path("workers"));

    List<long[]> workers = new ArrayList<>();
    recorded
        .path("state")
        .path("workers")
        .forEach(w -> workers.add(new long[] {w.path("pid").asLong(), w.path("start").asLong()}));
    leftovers.addAll(workers);
    for (long[] worker : workers) {
      assertThat(Procs.alive(worker[0], worker[1]))
          .as(
              "worker PID %d (start %d) runs right after firedrill was killed; /proc says %s",
              worker[0], worker[1], Procs.stat(worker[0]))
          .isTrue();
    }
    long killedAt = System.nanoTime();

    assertThat(
            Procs.waitFor(
                Duration.ofSeconds(8 + 10),
                () -> workers.stream().noneMatch(w -> Procs.alive(w[0], w[1]))))
        .as("workers gone within ttl 8s + 10s of the kill")
        .isTrue();
    System.out.printf(
        "SigkillIT: cpu-burn workers gone %.1f s after firedrill was killed (ttl 8s)%n",
        (System.nanoTime() - killedAt) / 1e9);

    FiredrillJar.Run cleanup = run("cleanup", journal.toString());
    assertThat(cleanup.exit()).as("cleanup output: %s", cleanup.output()).isZero();
    assertThat(cleanup.output()).contains("fault 0 (cpu-burn): nothing left to revert");

    JsonNode cleaned = readWhole(journal);
    JsonNode cleanedFault = cleaned.path("faults").path(0);
    assertThat(cleanedFault.path("reverted").asBoolean()).isTrue();
    assertThat(cleanedFault.path("revert").path("ok").asBoolean()).isTrue();
    assertThat(cleanedFault.path("revert").path("detail").asText())
        .startsWith("cleanup: nothing left to revert");
    assertThat(cleanedFault.path("revert").has("at")).isTrue();

    FiredrillJar.Run again = run("cleanup", journal.toString());
    assertThat(again.exit()).isZero();
    assertThat(again.output()).contains(journal + ": nothing left to revert");
    assertNoTempFiles(journal);
  }

  /** The lease's grace floor this test lowers to 2s: with a 1s interval the grace is 3s. */
  private static final List<String> SHORT_GRACE = List.of("-Dfiredrill.watchdog.grace-floor=2s");

  @Test
  void theWatchdogResumesAStoppedDecoyAfterTheLeaseGraceAndCleanupSaysSo() throws Exception {
    String token = Procs.uniqueSleepToken();
    Procs.Stat decoy = Procs.startDecoy(token);
    leftovers.add(new long[] {decoy.pid(), decoy.startTicks()});
    Map<String, Object> fault = new LinkedHashMap<>();
    fault.put("kind", "process-kill");
    fault.put("match", "sleep " + token);
    fault.put("signal", "STOP");
    fault.put("ttl", "60s");
    Path experiment =
        experiment(
            "sigkill-process-stop",
            "20s",
            fault,
            Map.of("max_duration", "60s", "max_processes", 1));
    Path journal = dir.resolve("journal.json");

    firedrill =
        FiredrillJar.start(
            dir,
            dir.resolve("run.out"),
            dir.resolve("run.err"),
            SHORT_GRACE,
            "run",
            experiment.toString(),
            "--journal",
            journal.toString());
    awaitJournal(journal, j -> j.path("faults").path(0).path("state").path("targets").size() == 1);
    assertThat(
            Procs.waitFor(
                Duration.ofSeconds(2), () -> Procs.state(decoy.pid(), decoy.startTicks()) == 'T'))
        .as("decoy stopped by the drill")
        .isTrue();
    kill9();
    long killedAt = System.nanoTime();

    JsonNode after = readWhole(journal);
    JsonNode recorded = after.path("faults").path(0);
    assertThat(recorded.path("injected").asBoolean()).isTrue();
    assertThat(recorded.path("reverted").asBoolean()).isFalse();
    assertThat(recorded.path("ttl_enforced_by").asText()).isEqualTo("the watchdog");
    JsonNode target = recorded.path("state").path("targets").path(0);
    assertThat(target.path("pid").asLong()).isEqualTo(decoy.pid());
    JsonNode watchdog = after.path("watchdog");
    assertThat(watchdog.path("grace_s").asDouble()).isEqualTo(3.0);
    assertThat(Path.of(watchdog.path("holds").asText())).exists();
    long watchdogPid = watchdog.path("pid").asLong();
    long watchdogStart = watchdog.path("start").asLong();
    leftovers.add(new long[] {watchdogPid, watchdogStart});
    assertThat(Procs.alive(watchdogPid, watchdogStart))
        .as("the watchdog outlives firedrill")
        .isTrue();

    assertThat(
            Procs.waitFor(
                Duration.ofSeconds(30), () -> Procs.state(decoy.pid(), decoy.startTicks()) != 'T'))
        .as("the watchdog resumed the decoy after the lease's grace")
        .isTrue();
    System.out.printf(
        "SigkillIT: stopped decoy resumed by the watchdog %.1f s after firedrill was killed"
            + " (grace 3s)%n",
        (System.nanoTime() - killedAt) / 1e9);
    assertThat(Procs.state(decoy.pid(), decoy.startTicks())).isNotEqualTo('-');
    assertThat(
            Procs.waitFor(Duration.ofSeconds(10), () -> !Procs.alive(watchdogPid, watchdogStart)))
        .as("the watchdog exits once nothing is left to hold")
        .isTrue();
    assertThat(Files.readString(Path.of(watchdog.path("record").asText())))
        .contains("firedrill did not renew its lease for 3s");

    FiredrillJar.Run cleanup = run("cleanup", journal.toString());
    assertThat(cleanup.exit()).as("cleanup output: %s", cleanup.output()).isZero();
    assertThat(cleanup.output())
        .contains("fault 0 (process-kill): the watchdog already undid it at ")
        .contains(
            "resumed 1 process (SIGCONT, PID " + decoy.pid() + "); verified: none is stopped");
    JsonNode cleanedFault = readWhole(journal).path("faults").path(0);
    assertThat(cleanedFault.path("reverted").asBoolean()).isTrue();
    assertThat(cleanedFault.path("revert").path("detail").asText())
        .startsWith("cleanup: the watchdog already undid it");
    assertNoTempFiles(journal);
  }

  @Test
  void cleanupOfAKilledRunRunsTheCommandFaultsRevert() throws Exception {
    Path made = dir.resolve("made");
    Files.createDirectories(made);
    Map<String, Object> fault = new LinkedHashMap<>();
    fault.put("kind", "command");
    fault.put("inject", List.of("/usr/bin/mktemp", "-p", made.toString()));
    fault.put("revert", List.of("/bin/rm", "-f", "{{ state }}"));
    fault.put("verify", List.of("/usr/bin/test", "!", "-e", "{{ state }}"));
    fault.put("state", true);
    fault.put("timeout", "10s");
    fault.put("ttl", "60s");
    Path experiment = experiment("sigkill-command", "20s", fault, Map.of("max_duration", "60s"));
    Path journal = dir.resolve("journal.json");

    firedrill = firedrill("run", experiment.toString(), "--journal", journal.toString());
    JsonNode seen =
        awaitJournal(journal, j -> j.path("faults").path(0).path("state").has("output"));
    kill9();
    Path file = Path.of(seen.path("faults").path(0).path("state").path("output").asText());
    assertThat(file).exists().hasParent(made);
    JsonNode watchdog = readWhole(journal).path("watchdog");
    long watchdogPid = watchdog.path("pid").asLong();
    long watchdogStart = watchdog.path("start").asLong();
    leftovers.add(new long[] {watchdogPid, watchdogStart});

    // The default grace is 30s: cleanup comes first, reverts, and the watchdog drops the hold.
    FiredrillJar.Run cleanup = run("cleanup", journal.toString());
    assertThat(cleanup.exit()).as("cleanup output: %s", cleanup.output()).isZero();
    assertThat(cleanup.output())
        .contains(
            "fault 0 (command): reverted: ran [\"/bin/rm\", \"-f\", \"" + file + "\"] (exit 0)");
    assertThat(file).doesNotExist();
    assertThat(
            Procs.waitFor(Duration.ofSeconds(10), () -> !Procs.alive(watchdogPid, watchdogStart)))
        .as("the watchdog exits once cleanup released its hold")
        .isTrue();
    assertThat(Path.of(watchdog.path("record").asText())).doesNotExist();
  }

  // --- helpers ---

  private Path experiment(
      String id, String duration, Map<String, Object> fault, Map<String, Object> limits)
      throws IOException {
    Map<String, Object> sli = new LinkedHashMap<>();
    sli.put("name", "error_ratio");
    sli.put("query", SyntheticService.ERROR_RATIO);
    sli.put("max", 0.5);
    Map<String, Object> blast = new LinkedHashMap<>();
    blast.put("traffic_share", 1);
    blast.putAll(limits);
    Map<String, Object> root = new LinkedHashMap<>();
    root.put("id", id);
    root.put("title", "firedrill survives SIGKILL: " + id);
    root.put("prometheus", Map.of("url", stack.prometheus().url().toString(), "timeout", "2s"));
    root.put("steady_state", Map.of("interval", "1s", "slis", List.of(sli)));
    root.put("hypothesis", Map.of("description", "nothing breaks", "recovery", "2s"));
    root.put("method", Map.of("duration", duration, "faults", List.of(fault)));
    root.put(
        "abort",
        Map.of(
            "rules",
            List.of(Map.of("sli", "error_ratio", "above", 0.9, "for", 2)),
            "probe_errors",
            3));
    root.put("blast_radius", blast);
    Path file = dir.resolve(id + ".json");
    JSON.writeValue(file.toFile(), root);
    return file;
  }

  private Process firedrill(String... args) throws IOException {
    return FiredrillJar.start(dir, dir.resolve("run.out"), dir.resolve("run.err"), args);
  }

  private FiredrillJar.Run run(String... args) throws Exception {
    return FiredrillJar.run(dir, Duration.ofSeconds(60), args);
  }

  private void kill9() throws InterruptedException {
    assertThat(firedrill.isAlive())
        .as("firedrill still runs when the test kills it; %s", runOutput())
        .isTrue();
    firedrill.destroyForcibly(); // SIGKILL on Linux
    assertThat(firedrill.waitFor(10, TimeUnit.SECONDS)).isTrue();
    assertThat(firedrill.exitValue()).as("exit status of a SIGKILLed JVM").isEqualTo(128 + 9);
  }

  /**
   * Polls the journal every 20 ms until it passes {@code until}; every read on the way must be
   * whole JSON, since the journal is replaced by rename and never written in place.
   */
  private JsonNode awaitJournal(Path journal, Predicate<JsonNode> until) throws Exception {
    long deadline = System.nanoTime() + JOURNAL_LIMIT.toNanos();
    int reads = 0;
    while (System.nanoTime() - deadline < 0) {
      if (Files.exists(journal)) {
        JsonNode node = readWhole(journal);
        reads++;
        if (until.test(node)) {
          return node;
        }
      }
      if (!firedrill.isAlive()) {
        fail(
            "firedrill exited with "
                + firedrill.exitValue()
                + " before the journal showed the fault's state; "
                + runOutput());
      }
      Thread.sleep(20);
    }
    return fail(
        "the journal did not show the fault's state within "
            + JOURNAL_LIMIT.toSeconds()
            + "s ("
            + reads
            + " reads); "
            + runOutput());
  }

  private static JsonNode readWhole(Path journal) {
    String text;
    try {
      text = Files.readString(journal);
    } catch (IOException e) {
      return fail("cannot read " + journal + ": " + e);
    }
    try {
      JsonNode node = JSON.readTree(text);
      assertThat(node.path("firedrill_journal").asInt())
          .as("journal format in %s", text)
          .isEqualTo(1);
      return node;
    } catch (IOException e) {
      return fail("the journal is not whole JSON: " + e.getMessage() + "\n" + text);
    }
  }

  private static void assertNoTempFiles(Path journal) throws IOException {
    try (Stream<Path> files = Files.list(journal.getParent())) {
      assertThat(
              files
                  .map(p -> p.getFileName().toString())
                  .filter(n -> n.startsWith(".") && n.endsWith(".tmp")))
          .as("temp files beside %s", journal)
          .isEmpty();
    }
  }

  private String runOutput() {
    try {
      return "stdout: "
          + read(dir.resolve("run.out"))
          + "\nstderr: "
          + read(dir.resolve("run.err"));
    } catch (IOException e) {
      return "(cannot read firedrill's output: " + e + ")";
    }
  }

  private static String read(Path file) throws IOException {
    return Files.exists(file) ? Files.readString(file) : "";
  }
}
