package dev.firedrill.history;

import static org.assertj.core.api.Assertions.assertThat;

import dev.firedrill.testing.RealPostgres;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The contract on a real PostgreSQL server, a fresh schema per test, plus the credentials' path.
 */
class PostgresHistoryStoreTest extends HistoryStoreContract {

  @RegisterExtension static final RealPostgres.PerClass postgres = new RealPostgres.PerClass();

  @Override
  StoreLocation newStore() throws Exception {
    return StoreLocation.resolve(
        Optional.of(postgres.newSchema()), Path.of("unused"), Map.of("PGUSER", RealPostgres.USER));
  }

  @Override
  Connection connect(StoreLocation location) throws SQLException {
    Properties properties = new Properties();
    properties.setProperty("user", RealPostgres.USER);
    return jdbc(location.url(), properties);
  }

  @Test
  void theUserComesFromTheEnvironmentAndAnUnknownOneIsAWarningWithoutThePassword()
      throws Exception {
    String url = postgres.newSchema();
    StoreLocation location =
        StoreLocation.resolve(
            Optional.of(url + "&password=in-the-url-42"),
            Path.of("unused"),
            Map.of(
                "FIREDRILL_HISTORY_USER",
                "intruder",
                "PGUSER",
                RealPostgres.USER,
                "PGPASSWORD",
                "s3cret-pass"));

    Optional<HistoryRecorder.Outcome> outcome =
        HistoryRecorder.record(location, Journals.outage(), "outage.json");

    assertThat(outcome)
        .contains(
            new HistoryRecorder.Outcome(
                "firedrill: warning: cannot open the detection history "
                    + postgres.url()
                    + ": FATAL: role \"intruder\" does not exist (the drill's verdict stands)",
                true));
  }

  @Test
  void aServerThatIsNotThereIsAWarningWithinTheConnectTimeout() throws Exception {
    int port;
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      port = socket.getLocalPort();
    }
    String url = "jdbc:postgresql://127.0.0.1:" + port + "/history";
    StoreLocation location =
        StoreLocation.resolve(
            Optional.of(url),
            Path.of("unused"),
            Map.of("PGUSER", "firedrill", "PGPASSWORD", "s3cret-pass"));

    Optional<HistoryRecorder.Outcome> outcome =
        HistoryRecorder.record(location, Journals.outage(), "outage.json");

    assertThat(outcome)
        .contains(
            new HistoryRecorder.Outcome(
                "firedrill: warning: cannot open the detection history "
                    + url
                    + ": Connection to 127.0.0.1:"
                    + port
                    + " refused. Check that the hostname and port are correct and "
                    + "that the postmaster is accepting TCP/IP connections. (the drill's verdict stands)",
                true));
  }
}
