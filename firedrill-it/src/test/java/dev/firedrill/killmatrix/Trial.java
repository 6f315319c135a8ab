package dev.firedrill.killmatrix;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.firedrill.testing.FiredrillJar;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;

/**
 * One trial: a drill from the packaged jar, SIGKILLed at a seeded point, then the checks: the
 * journal is whole and says what it knew; {@code cleanup} tells the truth and exits 0 or 7; a
 * second cleanup is a no-op; nothing is left once the ttl has passed. Every broken promise is a
 * line in {@link Result#problems()}.
 */
final class Trial {

  /** When cleanup runs: at once, well within the ttl, or once the ttl has ended the faults. */
  enum CleanupAt {
    AT_ONCE,
    AFTER_THE_TTL
  }

  record Result(
      int number,
      FaultKind kind,
      KillPoint aimed,
      KillPoint.Phase landed,
      CleanupAt cleanupAt,
      int cleanupExit,
      boolean journalReadable,
      List<String> leftBehind,
      Duration killToClean,
      String verdict,
      List<String> problems) {}

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Duration POLL = Duration.ofMillis(5);

  /**
   * How long a drill may take to reach the aimed point: a Kubernetes drill's JVM (fabric8's client)
   * took 20 s to its first measurement on a two-core machine at load average 40.
   */
  private static final Duration START_LIMIT = Duration.ofSeconds(90);

  /**
   * The lease's grace floor lowered to 2 s (a 1 s interval then gives a 3 s grace); the tiered
   * compiler's first tier only, so each JVM starts faster on a loaded machine.
   */
  static final List<String> JVM =
      List.of("-Dfiredrill.watchdog.grace-floor=2s", "-XX:TieredStopAtLevel=1");

  /** The watchdog's grace, past its lease, before it reverts for a dead firedrill. */
  static final Duration GRACE = Duration.ofSeconds(3);

  private final MatrixLab lab;
  private final Path dir;
  private final int number;
  private final FaultKind kind;
  private final KillPoint aimed;
  private final CleanupAt cleanupAt;
  private final long delayMillis;
  private final List<String> problems = new ArrayList<>();

  /** firedrill's exit code when it had ended by itself before the kill came. */
  private OptionalInt exitedByItself = OptionalInt.empty();

  Trial(MatrixLab lab, Path dir, int number, SplittableRandom random)
      throws IOException, InterruptedException {
    this.lab = lab;
    this.dir = dir;
    this.number = number;
    List<FaultKind> kinds = lab.kinds();
    KillPoint[] points = KillPoint.values();
    // Every kind meets every point in turn, the next one at each round of the kinds, so a short
    // run covers the whole matrix and three rounds give each kind three neighbouring points. (It
    // was (number / kinds + number): with 15 kinds each kind met only every other point, and
    // pod-delete and spring-chaos-monkey were never killed inside their injection.)
    this.kind = kinds.get(number % kinds.size());
    this.aimed = points[(number % kinds.size() + number / kinds.size()) % points.length];
    this.cleanupAt = random.nextBoolean() ? CleanupAt.AT_ONCE : CleanupAt.AFTER_THE_TTL;
    this.delayMillis =
        aimed.spread.isZero() ? 0 : (long) (random.nextDouble() * aimed.spread.toMillis());
  }

  Result run() throws Exception {
    String id = "km-" + number;
    Path own = Files.createDirectories(dir.resolve(id));
    MatrixLab.Props props = lab.props(own, id, kind);
    try {
      return drill(props);
    } finally {
      lab.release(props);
    }
  }

  private Result drill(MatrixLab.Props props) throws Exception {
    Path experiment = lab.experiment(props);
    Path journal = props.dir().resolve("journal.json");
    Process firedrill =
        FiredrillJar.start(
            props.dir(),
            props.dir().resolve("run.out"),
            props.dir().resolve("run.err"),
            JVM,
            props.environment(),
            "run",
            experiment.toString(),
            "--journal",
            journal.toString());
    JsonNode seen = awaitThenKill(firedrill, journal);
    long killedAt = System.nanoTime();

    Optional<JsonNode> left = readWhole(journal);
    boolean readable = left.isPresent() || !Files.exists(journal);
    if (left.isEmpty() && Files.exists(journal)) {
      problems.add("the journal is not whole JSON after the kill");
    }
    left.ifPresent(after -> saysWhatItKnew(seen, after));
    KillPoint.Phase landed = left.map(KillPoint.Phase::of).orElse(KillPoint.Phase.BEFORE_INJECTION);

    int exit = -1;
    Duration killToClean;
    if (cleanupAt == CleanupAt.AT_ONCE && Files.exists(journal)) {
      exit = cleanup(journal, props, true);
      killToClean = awaitClean(props, journal, killedAt);
    } else {
      killToClean = awaitClean(props, journal, killedAt);
      if (Files.exists(journal)) {
        exit = cleanup(journal, props, false);
      }
    }
    if (exit == 7 && Files.exists(journal)) {
      // Within the ttl it needed a human; now the ttl has passed, a cleanup finds nothing left.
      exit = cleanup(journal, props, false);
    }
    if (Files.exists(journal)) {
      secondCleanupIsANoOp(journal, props);
    }
    List<String> behind = lab.leftovers(props, readWhole(journal), true);
    behind.forEach(thing -> problems.add("left behind after the ttl: " + thing));
    String verdict =
        left.filter(j -> j.has("verdict"))
            .map(j -> j.path("verdict").asText() + " (" + j.path("reason").asText() + ")")
            .orElse("none");
    if (exitedByItself.isPresent() && verdict.equals("none")) {
      problems.add(
          "firedrill exited "
              + exitedByItself.getAsInt()
              + " by itself before the kill, with no verdict, so the trial tested nothing: "
              + tail(props.dir().resolve("run.err"))
              + " "
              + tail(props.dir().resolve("run.out")));
    }
    if (verdict.startsWith("refused") || verdict.startsWith("not-run")) {
      problems.add("the drill never ran, so the trial tested nothing: " + verdict);
    }
    return new Result(
        number,
        kind,
        aimed,
        landed,
        cleanupAt,
        exit,
        readable,
        behind,
        killToClean,
        verdict,
        problems);
  }

  /**
   * Polls the journal until the aimed point is reached, waits the seeded delay, and SIGKILLs; the
   * last whole journal read before the kill is what firedrill had written by then.
   */
  private JsonNode awaitThenKill(Process firedrill, Path journal) throws Exception {
    long deadline = System.nanoTime() + START_LIMIT.toNanos();
    JsonNode seen = JSON.createObjectNode();
    boolean reached = false;
    while (firedrill.isAlive() && System.nanoTime() - deadline < 0) {
      Optional<JsonNode> now = Files.exists(journal) ? readWhole(journal) : Optional.empty();
      if (now.isPresent()) {
        seen = now.get();
        if (aimed.reached.test(seen)) {
          reached = true;
          break;
        }
      } else if (Files.exists(journal)) {
        problems.add("a journal read while firedrill ran was not whole JSON");
      }
      TimeUnit.NANOSECONDS.sleep(POLL.toNanos());
    }
    if (delayMillis > 0) {
      long until = System.nanoTime() + delayMillis * 1_000_000;
      while (firedrill.isAlive() && System.nanoTime() - until < 0) {
        readWhole(journal).ifPresent(j -> {});
        TimeUnit.NANOSECONDS.sleep(POLL.toNanos());
      }
      seen = readWhole(journal).orElse(seen);
    }
    if (!firedrill.isAlive()) {
      exitedByItself = OptionalInt.of(firedrill.exitValue());
    } else if (!reached) {
      problems.add(
          "the drill did not reach "
              + aimed
              + " within "
              + START_LIMIT.toSeconds()
              + " s of its start; the journal said "
              + seen
              + "; firedrill printed: "
              + tail(journal.resolveSibling("run.out"))
              + " "
              + tail(journal.resolveSibling("run.err")));
    }
    firedrill.destroyForcibly(); // SIGKILL on Linux
    if (!firedrill.waitFor(10, TimeUnit.SECONDS)) {
      problems.add("firedrill did not die within 10 s of SIGKILL");
    }
    return seen;
  }

  /** Whatever firedrill had journaled before the kill is still in the journal after it. */
  private void saysWhatItKnew(JsonNode seen, JsonNode after) {
    if (after.path("firedrill_journal").asInt() != 1) {
      problems.add("the journal has no firedrill_journal 1");
    }
    for (String key : List.of("injected_at", "rollback_at", "rollback_done_at", "recovered_at")) {
      if (seen.has(key) && !seen.get(key).equals(after.get(key))) {
        problems.add("the journal lost " + key + " " + seen.get(key) + " it had before the kill");
      }
    }
    JsonNode faults = after.path("faults");
    for (JsonNode fault : faults) {
      int index = fault.path("index").asInt();
      JsonNode before = seen.path("faults").path(index);
      if (before.path("injected").asBoolean(false) && !fault.path("injected").asBoolean(false)) {
        problems.add("fault " + index + ": the journal lost that it was injected");
      }
      if (fault.path("injected").asBoolean(false) && !fault.has("started_at")) {
        problems.add("fault " + index + ": injected without started_at");
      }
      if (fault.path("reverted").asBoolean(false) && !fault.has("revert")) {
        problems.add("fault " + index + ": reverted without its revert record");
      }
      if (index == 0
          && fault.has("ttl_enforced_by")
          && !kind.enforcer.equals(fault.path("ttl_enforced_by").asText())) {
        problems.add(
            "fault 0 ("
                + kind.kind
                + "): the journal says its ttl is enforced by "
                + fault.path("ttl_enforced_by")
                + ", not "
                + kind.enforcer);
      }
      if (fault.has("started_at") && !fault.has("state")) {
        problems.add(
            "fault " + index + " (" + fault.path("kind").asText() + "): started with no state");
      }
    }
  }

  /**
   * Runs {@code cleanup}: exit 0 when it reverted or found nothing, and then nothing may be left of
   * the faults; 7 only when a fault may still be in place, and its line says what to run.
   */
  private int cleanup(Path journal, MatrixLab.Props props, boolean withinTtl) throws Exception {
    FiredrillJar.Run run =
        FiredrillJar.run(
            props.dir(),
            Duration.ofSeconds(60),
            JVM,
            props.environment(),
            "cleanup",
            journal.toString());
    if (run.exit() == 0) {
      List<String> still = lab.faultsLeft(props, true);
      if (!still.isEmpty()) {
        problems.add("cleanup exited 0 but left " + still + "; it said: " + run.output().strip());
      }
    } else if (run.exit() == 7) {
      // Every kind here journals what it will create before creating it, and a revert of each
      // needs no human: within the ttl or after it, 7 is cleanup not finding what was injected.
      problems.add(
          "cleanup exited 7 "
              + (withinTtl ? "within" : "after")
              + " the ttl: "
              + run.output().strip());
      if (!run.output().contains("run by hand") && !run.output().contains("ends it by itself")) {
        problems.add("cleanup exited 7 without saying what to do: " + run.output().strip());
      }
    } else {
      problems.add("cleanup exited " + run.exit() + ": " + run.output().strip());
    }
    if (run.output().contains("Exception") || run.output().contains("\tat ")) {
      problems.add("cleanup printed a stack trace: " + run.output().strip());
    }
    return run.exit();
  }

  private void secondCleanupIsANoOp(Path journal, MatrixLab.Props props) throws Exception {
    byte[] before = Files.readAllBytes(journal);
    FiredrillJar.Run again =
        FiredrillJar.run(
            journal.getParent(),
            Duration.ofSeconds(60),
            JVM,
            props.environment(),
            "cleanup",
            journal.toString());
    byte[] after = Files.readAllBytes(journal);
    if (again.exit() != 0 && again.exit() != 7) {
      problems.add("the second cleanup exited " + again.exit() + ": " + again.output().strip());
    }
    if (again.exit() == 0 && !again.output().contains("nothing left to revert")) {
      problems.add("the second cleanup did something: " + again.output().strip());
    }
    if (again.exit() == 0 && !Arrays.equals(before, after)) {
      problems.add("the second cleanup rewrote the journal");
    }
  }

  /**
   * Polls until nothing of the trial is in effect (its faults, then its watchdog), at most the ttl
   * plus the watchdog's grace plus a margin after the kill; returns how long that took.
   */
  private Duration awaitClean(MatrixLab.Props props, Path journal, long killedAt)
      throws InterruptedException {
    long limit = killedAt + KillMatrix.TTL.plus(GRACE).plusSeconds(15).toNanos();
    while (true) {
      Optional<JsonNode> read = Files.exists(journal) ? readWhole(journal) : Optional.empty();
      if (lab.leftovers(props, read, false).isEmpty()) {
        return Duration.ofNanos(System.nanoTime() - killedAt);
      }
      if (System.nanoTime() - limit >= 0) {
        return Duration.ofNanos(System.nanoTime() - killedAt);
      }
      TimeUnit.MILLISECONDS.sleep(50);
    }
  }

  private static String tail(Path file) {
    try {
      String text = Files.readString(file).strip();
      return text.substring(Math.max(0, text.length() - 600));
    } catch (IOException e) {
      return "(no " + file.getFileName() + ": " + e.getMessage() + ")";
    }
  }

  private static Optional<JsonNode> readWhole(Path journal) {
    try {
      JsonNode node = JSON.readTree(Files.readString(journal));
      return node == null || !node.isObject() ? Optional.empty() : Optional.of(node);
    } catch (IOException e) {
      return Optional.empty();
    }
  }
}
