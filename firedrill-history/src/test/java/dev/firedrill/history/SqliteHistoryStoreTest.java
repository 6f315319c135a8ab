package dev.firedrill.history;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The contract on SQLite files, plus what only a file can get wrong. */
class SqliteHistoryStoreTest extends HistoryStoreContract {

  @TempDir Path dir;
  private int stores;

  @Override
  StoreLocation newStore() throws Exception {
    return StoreLocation.resolve(
        Optional.of(dir.resolve("store-" + ++stores + ".sqlite").toString()), dir, Map.of());
  }

  @Override
  Connection connect(StoreLocation location) throws SQLException {
    return jdbc(location.url(), new Properties());
  }

  @Test
  void theFileAndItsDirectoriesAreCreatedOnFirstUse() throws Exception {
    Path file = dir.resolve("journals/nested/history.sqlite");
    StoreLocation location =
        StoreLocation.resolve(Optional.empty(), dir.resolve("journals/nested"), Map.of());

    HistoryRecorder.record(location, Journals.outage(), "outage.json");

    assertThat(location.name()).isEqualTo(file.toString());
    assertThat(Files.size(file)).isPositive();
  }

  @Test
  void aCorruptFileIsOneWarningNamingIt() throws Exception {
    Path file =
        Files.writeString(dir.resolve("history.sqlite"), "this is no database, ".repeat(100));
    StoreLocation location = StoreLocation.resolve(Optional.of(file.toString()), dir, Map.of());

    Optional<HistoryRecorder.Outcome> outcome =
        HistoryRecorder.record(location, Journals.outage(), "outage.json");

    assertThat(outcome)
        .contains(
            new HistoryRecorder.Outcome(
                "firedrill: warning: cannot open the detection history "
                    + file
                    + ": [SQLITE_NOTADB] File opened that is not a database file (file is not a database) "
                    + "(the drill's verdict stands)",
                true));
  }

  @Test
  void aFileThatCannotBeCreatedIsOneWarningNamingIt() throws Exception {
    Path notADirectory =
        Files.writeString(dir.resolve("journals"), "a file where a directory should be");
    Path file = notADirectory.resolve("history.sqlite");
    StoreLocation location = StoreLocation.resolve(Optional.of(file.toString()), dir, Map.of());

    Optional<HistoryRecorder.Outcome> outcome =
        HistoryRecorder.record(location, Journals.outage(), "outage.json");

    assertThat(outcome)
        .contains(
            new HistoryRecorder.Outcome(
                "firedrill: warning: cannot open the detection history "
                    + file
                    + ": "
                    + notADirectory
                    + " is not a directory (the drill's verdict stands)",
                true));
  }

  @Test
  void aDrillThatWatchedNoAlertsTouchesNoStore() throws Exception {
    Path file = dir.resolve("history.sqlite");
    var journal = Journals.outage().deepCopy();
    ((com.fasterxml.jackson.databind.node.ObjectNode) journal).remove("detection");

    Optional<HistoryRecorder.Outcome> outcome =
        HistoryRecorder.record(
            StoreLocation.resolve(Optional.of(file.toString()), dir, Map.of()),
            journal,
            "outage.json");

    assertThat(outcome).isEmpty();
    assertThat(file).doesNotExist();
  }
}
