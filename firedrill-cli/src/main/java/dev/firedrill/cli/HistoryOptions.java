package dev.firedrill.cli;

import dev.firedrill.history.HistoryException;
import dev.firedrill.history.StoreLocation;
import java.nio.file.Path;
import java.util.Optional;
import picocli.CommandLine.Option;

/** Where the detection history lives, for {@code run} and {@code history}. */
final class HistoryOptions {

  @Option(
      names = "--history",
      paramLabel = "JDBC_URL|FILE",
      description =
          "The detection history: a SQLite file or jdbc:sqlite:FILE, or jdbc:postgresql://HOST[:PORT]/DB "
              + "(credentials from PGUSER/PGPASSWORD or FIREDRILL_HISTORY_USER/FIREDRILL_HISTORY_PASSWORD_FILE). "
              + "Default: $FIREDRILL_HISTORY, else journals/history.sqlite, wherever --journal puts the journal.")
  String history;

  StoreLocation location(Path journalDirectory) {
    try {
      return StoreLocation.resolve(Optional.ofNullable(history), journalDirectory, System.getenv());
    } catch (HistoryException e) {
      throw new UserError(e.getMessage(), ExitCode.INVALID);
    }
  }
}
