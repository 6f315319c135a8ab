package dev.firedrill.cli;

import dev.firedrill.testing.RealPostgres;
import dev.firedrill.time.Clock;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** {@link ConcurrentDrills} with a real PostgreSQL history: its advisory locks. */
class ConcurrentDrillsPostgresTest extends ConcurrentDrills {

  private static final Map<String, String> USER =
      Map.of("FIREDRILL_HISTORY_USER", RealPostgres.USER);

  private static RealPostgres postgres;

  @BeforeAll
  static void startPostgres() {
    postgres = RealPostgres.start(Clock.system());
  }

  @AfterAll
  static void stopPostgres() {
    if (postgres != null) {
      postgres.close();
    }
  }

  @Test
  void aSecondRunIsNotRunNamingTheFirst() throws Exception {
    program = "pwd";
    twoRuns(postgres.newSchema(), USER);
  }

  @Test
  void aSecondSuitesDrillIsNotRunNamingTheFirstSuitesDrill() throws Exception {
    program = "echo";
    twoSuites(postgres.newSchema(), USER);
  }
}
