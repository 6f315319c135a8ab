package dev.firedrill.cli;

import java.util.Map;
import org.junit.jupiter.api.Test;

/** {@link ConcurrentDrills} with a SQLite history: the file locks beside it. */
class ConcurrentDrillsSqliteTest extends ConcurrentDrills {

  @Test
  void aSecondRunIsNotRunNamingTheFirst() throws Exception {
    twoRuns(dir.resolve("history.sqlite").toString(), Map.of());
  }

  @Test
  void aSecondSuitesDrillIsNotRunNamingTheFirstSuitesDrill() throws Exception {
    twoSuites(dir.resolve("history.sqlite").toString(), Map.of());
  }
}
