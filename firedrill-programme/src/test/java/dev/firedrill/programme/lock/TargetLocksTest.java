package dev.firedrill.programme.lock;

import static org.assertj.core.api.Assertions.assertThat;

import dev.firedrill.engine.DrillResult;
import dev.firedrill.engine.Verdict;
import dev.firedrill.experiment.Experiment;
import dev.firedrill.experiment.ExperimentLoader;
import dev.firedrill.programme.suite.Cooldown;
import dev.firedrill.programme.suite.DrillLauncher;
import dev.firedrill.programme.suite.Suite;
import dev.firedrill.programme.suite.SuiteListener;
import dev.firedrill.programme.suite.SuiteResult;
import dev.firedrill.programme.suite.SuiteRunner;
import dev.firedrill.testing.MinimalExperiment;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TargetLocksTest {

  @TempDir Path dir;

  private static Experiment experiment(String id, String match) throws Exception {
    return ExperimentLoader.load(
        id + ".yaml",
        MinimalExperiment.TEXT
            .replace("id: drill", "id: " + id)
            .replace("match: payments-server", "match: " + match));
  }

  @Test
  void aTargetHeldByOneRunIsRefusedToAnotherNamingTheHolderUntilReleased() throws Exception {
    TargetLocks first = TargetLocks.besideHistory(dir.resolve("history.sqlite"));
    TargetLocks second = TargetLocks.besideHistory(dir.resolve("history.sqlite"));

    TargetLocks.Outcome a = first.tryLock(experiment("kill-a", "payments-server"));
    assertThat(a).isInstanceOf(TargetLocks.Taken.class);
    TargetLocks.Outcome b = second.tryLock(experiment("kill-b", "payments-server"));
    assertThat(b).isInstanceOf(TargetLocks.Refused.class);
    assertThat(((TargetLocks.Refused) b).busy().holder()).isEqualTo("kill-a");
    assertThat(second.tryLock(experiment("kill-c", "checkout-server")))
        .as("another target is free")
        .isInstanceOfSatisfying(TargetLocks.Taken.class, t -> t.held().close());

    ((TargetLocks.Taken) a).held().close();
    assertThat(second.tryLock(experiment("kill-b", "payments-server")))
        .isInstanceOfSatisfying(TargetLocks.Taken.class, t -> t.held().close());
    assertThat(dir.resolve("history.sqlite.locks")).isDirectory();
  }

  @Test
  void aSuiteDrillWhoseTargetIsHeldIsNotRunAndTheSuiteGoesOn() throws Exception {
    TargetLocks locks = TargetLocks.besideHistory(dir.resolve("history.sqlite"));
    TargetLocks.Taken other =
        (TargetLocks.Taken)
            new TargetLocks(dir.resolve("history.sqlite.locks"))
                .tryLock(experiment("elsewhere", "payments-server"));
    Suite suite =
        new Suite(
            "s",
            Path.of("suite.yaml"),
            Duration.ofSeconds(1),
            List.of(
                new Suite.Entry(Path.of("a.yaml"), experiment("a", "payments-server")),
                new Suite.Entry(Path.of("b.yaml"), experiment("b", "checkout-server"))));
    DrillLauncher launcher =
        (entry, index, total) ->
            new DrillLauncher.Launched(
                new DrillResult(Verdict.HELD, "", true, List.of(), null, Optional.empty()),
                Path.of(entry.experiment().id() + ".json"),
                0);
    Cooldown never =
        (previous, result, limit) -> {
          throw new AssertionError("no drill ran before b, so nothing cools down");
        };

    SuiteResult result;
    try (TargetLocks.Held held = other.held()) {
      result =
          new SuiteRunner(launcher, never, new SuiteListener() {}, Optional.of(locks))
              .run(suite, false);
    }

    assertThat(result.drills().get(0))
        .isEqualTo(
            new SuiteResult.Locked(
                suite.entries().get(0),
                "not-run: target "
                    + suite.entries().get(0).experiment().method().faults().get(0).target()
                    + " is being drilled by experiment elsewhere"));
    assertThat(result.drills().get(1)).isInstanceOf(SuiteResult.Ran.class);
    assertThat(result.exitCode()).isEqualTo(5);
  }
}
