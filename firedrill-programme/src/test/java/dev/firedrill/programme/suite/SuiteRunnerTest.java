package dev.firedrill.programme.suite;

import static org.assertj.core.api.Assertions.assertThat;

import dev.firedrill.engine.DrillResult;
import dev.firedrill.engine.Verdict;
import dev.firedrill.experiment.ExperimentLoader;
import dev.firedrill.testing.MinimalExperiment;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The suite's order, stop rules, cooldowns and exit code, with drills that end as told. */
class SuiteRunnerTest {

  /** What each drill ends with, by experiment id: verdict, rollback ok, exit code. */
  private record Ending(Verdict verdict, boolean rollbackOk, int exit) {}

  private final List<String> calls = new ArrayList<>();

  private Suite suite(String... ids) throws Exception {
    List<Suite.Entry> entries = new ArrayList<>();
    for (String id : ids) {
      entries.add(
          new Suite.Entry(
              Path.of(id + ".yaml"),
              ExperimentLoader.load(
                  id + ".yaml", MinimalExperiment.TEXT.replace("id: drill", "id: " + id))));
    }
    return new Suite("s", Path.of("suite.yaml"), Duration.ofSeconds(30), entries);
  }

  private SuiteResult run(Suite suite, Map<String, Ending> endings, boolean keepGoing)
      throws Exception {
    DrillLauncher launcher =
        (entry, index, total) -> {
          String id = entry.experiment().id();
          calls.add("drill " + index + "/" + total + " " + id);
          Ending e = endings.get(id);
          return new DrillLauncher.Launched(
              new DrillResult(e.verdict(), "", e.rollbackOk(), List.of(), null, Optional.empty()),
              Path.of(id + ".json"),
              e.exit());
        };
    Cooldown cooldown =
        (previous, result, limit) -> {
          calls.add("cooldown after " + previous.experiment().id() + " up to " + limit);
          return new Cooldown.Waited(true, Duration.ofSeconds(4), List.of());
        };
    return new SuiteRunner(launcher, cooldown, new SuiteListener() {}).run(suite, keepGoing);
  }

  @Test
  void drillsRunInOrderWithACooldownBetweenEachTwoAndTheWorstExitWins() throws Exception {
    SuiteResult result =
        run(
            suite("a", "b", "c"),
            Map.of(
                "a", new Ending(Verdict.HELD, true, 0),
                "b", new Ending(Verdict.DEVIATED, true, 1),
                "c", new Ending(Verdict.NOT_RUN, true, 5)),
            false);

    assertThat(calls)
        .containsExactly(
            "drill 1/3 a",
            "cooldown after a up to PT30S",
            "drill 2/3 b",
            "cooldown after b up to PT30S",
            "drill 3/3 c");
    assertThat(result.ran())
        .extracting(r -> r.launched().result().verdict())
        .containsExactly(Verdict.HELD, Verdict.DEVIATED, Verdict.NOT_RUN);
    assertThat(result.ran().get(0).cooldown()).isEmpty();
    assertThat(result.ran().get(1).cooldown()).isPresent();
    assertThat(result.exitCode()).isEqualTo(1); // a broken hypothesis outranks a not-run drill
  }

  @Test
  void anAbortedDrillStopsTheSuiteAndTheRestAreSkippedWithTheReason() throws Exception {
    SuiteResult result =
        run(
            suite("a", "b", "c"),
            Map.of(
                "a", new Ending(Verdict.ABORTED, true, 3),
                "b", new Ending(Verdict.HELD, true, 0),
                "c", new Ending(Verdict.HELD, true, 0)),
            false);

    assertThat(calls).containsExactly("drill 1/3 a");
    assertThat(result.drills())
        .extracting(d -> d.getClass().getSimpleName())
        .containsExactly("Ran", "Skipped", "Skipped");
    assertThat(((SuiteResult.Skipped) result.drills().get(1)).reason())
        .isEqualTo("not run: drill 1 (a) ended aborted; --keep-going runs the rest");
    assertThat(result.exitCode()).isEqualTo(3);
  }

  @Test
  void withKeepGoingEveryDrillRunsAndAFailedRollbackIsSevenAboveAll() throws Exception {
    SuiteResult result =
        run(
            suite("a", "b", "c"),
            Map.of(
                "a", new Ending(Verdict.DEVIATED, false, 7),
                "b", new Ending(Verdict.FAILED, true, 6),
                "c", new Ending(Verdict.HELD, true, 0)),
            true);

    assertThat(result.ran()).hasSize(3);
    assertThat(result.ran())
        .extracting(SuiteResult.Ran::stopsSuite)
        .containsExactly(true, true, false);
    assertThat(result.exitCode()).isEqualTo(7);
  }

  @Test
  void aRollbackThatNeedsAHumanStopsTheSuiteWhateverTheVerdict() throws Exception {
    SuiteResult result =
        run(
            suite("a", "b"),
            Map.of(
                "a", new Ending(Verdict.HELD, false, 7),
                "b", new Ending(Verdict.HELD, true, 0)),
            false);

    assertThat(((SuiteResult.Skipped) result.drills().get(1)).reason())
        .isEqualTo(
            "not run: drill 1 (a) ended with a rollback that needs a human; --keep-going runs the"
                + " rest");
    assertThat(result.exitCode()).isEqualTo(7);
  }
}
