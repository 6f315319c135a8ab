package dev.firedrill.cli;

import dev.firedrill.testing.RealPostgres;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** {@link ConcurrentDrills} with a real PostgreSQL history: its advisory locks. */
class ConcurrentDrillsPostgresTest extends ConcurrentDrills {

  private static final Map<String, String> USER =
      Map.of("FIREDRILL_HISTORY_USER", RealPostgres.USER);

  @RegisterExtension static final RealPostgres.PerClass postgres = new RealPostgres.PerClass();

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
