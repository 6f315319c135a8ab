package dev.firedrill.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.firedrill.testing.FiredrillJar;
import dev.firedrill.testing.Poll;
import dev.firedrill.testing.RealPrometheus;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two firedrill processes on one target at once, each with the same history: the one that comes
 * second is not-run naming the holder's experiment id, for {@code run} and for {@code suite}, with
 * a SQLite history (file locks) and a PostgreSQL one (advisory locks). The holder drills a {@code
 * command} fault (true) against a real Prometheus for up to a minute, and is ended through its
 * abort file once the second has been refused, so no timing decides the outcome. One class per
 * history backend ({@link ConcurrentDrillsSqliteTest}, {@link ConcurrentDrillsPostgresTest}).
 */
abstract class ConcurrentDrills {

  private static RealPrometheus prometheus;

  @TempDir Path dir;

  @BeforeAll
  static void startPrometheus() {
    prometheus = RealPrometheus.start(List.of());
  }

  @AfterAll
  static void stopPrometheus() {
    if (prometheus != null) {
      prometheus.close();
    }
  }

  /**
   * The fault's program names its target ("what true injects"). Advisory locks are the database's,
   * not a schema's, so each PostgreSQL case drills its own, whatever a case before left behind.
   */
  String program = "true";

  private Path experiment(String id) throws Exception {
    return Files.writeString(
        dir.resolve(id + ".yaml"),
        """
        id: %s
        title: Holds the command target
        prometheus: {url: '%s'}
        steady_state:
          interval: 1s
          slis:
            - name: error_ratio
              query: vector(0)
              max: 0.005
        method:
          duration: 1m
          faults:
            - kind: command
              inject: ['%s']
              revert: ['true']
              verify: ['true']
              ttl: 2m
        abort:
          abort_file: '%s'
          rules: [{sli: error_ratio, above: 0.05}]
        blast_radius: {traffic_share: 0.05, max_duration: 2m}
        """
            .formatted(id, prometheus.url(), program, dir.resolve("stop")));
  }

  private Path suite(String id, Path experiment) throws Exception {
    return Files.writeString(
        dir.resolve(id + ".yaml"),
        "id: " + id + "\ncooldown: 10s\nexperiments: ['" + experiment + "']\n");
  }

  private Process holder;

  /** A holder a failed assertion left running: killed, so it cannot outlive its test. */
  @AfterEach
  void killTheHolder() throws Exception {
    if (holder != null && holder.isAlive()) {
      holder.destroyForcibly();
      holder.waitFor(10, TimeUnit.SECONDS);
    }
  }

  /** The holder, until its drill has injected: from then on it holds its target's lock. */
  private Process holder(Map<String, String> env, String... args) throws Exception {
    Path out = dir.resolve("holder.out");
    Process process = FiredrillJar.start(dir, out, dir.resolve("holder.err"), env, args);
    holder = process;
    Poll.until(
        "the holder to inject",
        Duration.ofSeconds(60),
        () -> {
          assertThat(process.isAlive())
              .as("the holder ended early: %s", Files.readString(out))
              .isTrue();
          return Files.readString(out).contains(" inject command: ")
              ? Optional.of(true)
              : Optional.empty();
        });
    return process;
  }

  /** Stops the holder through its abort file: aborted, exit 3, rolled back. */
  private String release(Process holder) throws Exception {
    Files.writeString(dir.resolve("stop"), "");
    assertThat(holder.waitFor(30, TimeUnit.SECONDS)).as("the holder ends once aborted").isTrue();
    String out = Files.readString(dir.resolve("holder.out"));
    assertThat(holder.exitValue()).as(out).isEqualTo(ExitCode.ABORTED);
    assertThat(out).contains("verdict aborted");
    return out;
  }

  void twoRuns(String history, Map<String, String> env) throws Exception {
    Process first = holder(env, "run", experiment("holder-run").toString(), "--history", history);
    FiredrillJar.Run second =
        FiredrillJar.run(
            dir,
            Duration.ofSeconds(30),
            env,
            "run",
            experiment("second-run").toString(),
            "--history",
            history);
    release(first);

    assertThat(second.exit()).as(second.output()).isEqualTo(ExitCode.NOT_RUN);
    assertThat(second.output())
        .contains(
            "verdict not-run: target what "
                + program
                + " injects is being drilled by experiment"
                + " holder-run; nothing was touched")
        .doesNotContain(" inject ");
  }

  void twoSuites(String history, Map<String, String> env) throws Exception {
    Process first =
        holder(
            env,
            "suite",
            suite("suite-one", experiment("drill-one")).toString(),
            "--journals",
            dir.resolve("one").toString(),
            "--history",
            history);
    FiredrillJar.Run second =
        FiredrillJar.run(
            dir,
            Duration.ofSeconds(30),
            env,
            "suite",
            suite("suite-two", experiment("drill-two")).toString(),
            "--journals",
            dir.resolve("two").toString(),
            "--history",
            history);
    release(first);

    assertThat(second.exit()).as(second.output()).isEqualTo(ExitCode.NOT_RUN);
    assertThat(second.output())
        .contains(
            "suite: drill 1 of 1 not-run: target what "
                + program
                + " injects is being drilled by"
                + " experiment drill-one")
        .contains("suite suite-two: exit 5")
        .doesNotContain(" inject ");
  }
}
