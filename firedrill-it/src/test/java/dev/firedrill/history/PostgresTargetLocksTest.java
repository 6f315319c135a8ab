package dev.firedrill.history;

import static org.assertj.core.api.Assertions.assertThat;

import dev.firedrill.experiment.Experiment;
import dev.firedrill.experiment.ExperimentLoader;
import dev.firedrill.programme.lock.TargetLocks;
import dev.firedrill.testing.MinimalExperiment;
import dev.firedrill.testing.Poll;
import dev.firedrill.testing.RealPostgres;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Two runs on one PostgreSQL history, each with its own session: one target, one holder. */
class PostgresTargetLocksTest {

  @RegisterExtension static final RealPostgres.PerClass postgres = new RealPostgres.PerClass();

  private static Experiment experiment(String id) throws Exception {
    return ExperimentLoader.load(
        id + ".yaml",
        MinimalExperiment.TEXT
            .replace("id: drill", "id: " + id)
            .replace("payments-server", "pg-lock-target"));
  }

  @Test
  void theSecondRunIsRefusedNamingTheFirstUntilTheFirstSessionEnds() throws Exception {
    StoreLocation location =
        StoreLocation.resolve(
            Optional.of(postgres.newSchema()),
            Path.of("unused"),
            Map.of("PGUSER", RealPostgres.USER));
    try (AdvisoryLocks firstSession = AdvisoryLocks.open(location);
        AdvisoryLocks secondSession = AdvisoryLocks.open(location)) {
      TargetLocks first = TargetLocks.inPostgres(firstSession);
      TargetLocks second = TargetLocks.inPostgres(secondSession);

      TargetLocks.Outcome a = first.tryLock(experiment("suite-a"));
      assertThat(a).isInstanceOf(TargetLocks.Taken.class);
      TargetLocks.Outcome b = second.tryLock(experiment("suite-b"));
      assertThat(b).isInstanceOf(TargetLocks.Refused.class);
      assertThat(((TargetLocks.Refused) b).busy().holder()).isEqualTo("suite-a");

      // The first run died. Its backend ends, and lets go of its locks, in the server's own
      // time after the connection closes, so the second run may be refused once or twice more.
      firstSession.close();
      TargetLocks.Taken taken =
          Poll.until(
              "the second run to take the lock once the first session ended",
              Duration.ofSeconds(10),
              () ->
                  second.tryLock(experiment("suite-b")) instanceof TargetLocks.Taken t
                      ? Optional.of(t)
                      : Optional.empty());
      taken.held().close();
    }
  }
}
