package dev.firedrill.history;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class StoreLocationTest {

  @TempDir Path dir;

  @Test
  void theDefaultIsHistorySqliteInTheGivenDirectory() throws Exception {
    StoreLocation location =
        StoreLocation.resolve(Optional.empty(), dir.resolve("journals"), Map.of());

    assertThat(location.url()).isEqualTo("jdbc:sqlite:" + dir.resolve("journals/history.sqlite"));
    assertThat(location.file()).contains(dir.resolve("journals/history.sqlite"));
  }

  @Test
  void theOptionWinsOverTheEnvironmentWhichWinsOverTheDefault() throws Exception {
    Map<String, String> env =
        Map.of("FIREDRILL_HISTORY", "jdbc:postgresql://db.example.com/drills");

    assertThat(StoreLocation.resolve(Optional.empty(), dir, env).url())
        .isEqualTo("jdbc:postgresql://db.example.com/drills");
    assertThat(
            StoreLocation.resolve(Optional.of("jdbc:sqlite:" + dir.resolve("h.db")), dir, env)
                .file())
        .contains(dir.resolve("h.db"));
    assertThat(
            StoreLocation.resolve(Optional.of(dir.resolve("plain.sqlite").toString()), dir, env)
                .url())
        .isEqualTo("jdbc:sqlite:" + dir.resolve("plain.sqlite"));
  }

  @Test
  void anotherDatabaseIsRefusedNamingWhatIsAccepted() {
    assertThatThrownBy(
            () ->
                StoreLocation.resolve(
                    Optional.of("jdbc:mysql://db/drills?password=x"), dir, Map.of()))
        .hasMessage(
            "--history jdbc:mysql://db/drills: unsupported database (expected jdbc:sqlite:FILE, "
                + "jdbc:postgresql://HOST[:PORT]/DB or a file path)");
    assertThatThrownBy(
            () ->
                StoreLocation.resolve(
                    Optional.empty(), dir, Map.of("FIREDRILL_HISTORY", "jdbc:h2:mem:")))
        .hasMessage(
            "FIREDRILL_HISTORY jdbc:h2:mem:: unsupported database (expected jdbc:sqlite:FILE, "
                + "jdbc:postgresql://HOST[:PORT]/DB or a file path)");
  }

  @Test
  void aPostgresUrlWithUserInfoIsRefusedWithoutShowingIt() {
    for (String where : List.of("--history", "FIREDRILL_HISTORY")) {
      String url = "jdbc:postgresql://drill:s3cret-pass@127.0.0.1:5432/drills";
      Optional<String> option = where.equals("--history") ? Optional.of(url) : Optional.empty();
      Map<String, String> env = where.equals("--history") ? Map.of() : Map.of(where, url);
      assertThatThrownBy(() -> StoreLocation.resolve(option, dir, env))
          .isInstanceOf(HistoryException.class)
          .hasMessageStartingWith(where + ": credentials in the URL are refused")
          .hasMessageNotContaining("s3cret");
    }
  }

  @Test
  void postgresCredentialsComeFromTheEnvironmentThePasswordFileFirst() throws Exception {
    Path secret = Files.writeString(dir.resolve("pw"), "from-the-file\n");
    String url = "jdbc:postgresql://127.0.0.1:5432/drills?sslmode=disable";

    var both =
        StoreLocation.resolve(
                Optional.of(url),
                dir,
                Map.of(
                    "FIREDRILL_HISTORY_USER",
                    "drills",
                    "PGUSER",
                    "pg",
                    "FIREDRILL_HISTORY_PASSWORD_FILE",
                    secret.toString(),
                    "PGPASSWORD",
                    "from-env"))
            .properties();
    var pgOnly =
        StoreLocation.resolve(
                Optional.of(url), dir, Map.of("PGUSER", "pg", "PGPASSWORD", "from-env"))
            .properties();

    assertThat(both.getProperty("user")).isEqualTo("drills");
    assertThat(both.getProperty("password")).isEqualTo("from-the-file");
    assertThat(pgOnly.getProperty("user")).isEqualTo("pg");
    assertThat(pgOnly.getProperty("password")).isEqualTo("from-env");
    assertThat(pgOnly.getProperty("connectTimeout")).isEqualTo("5");
    assertThat(pgOnly.getProperty("socketTimeout")).isEqualTo("30");
  }

  @Test
  void aPasswordFileThatCannotBeReadIsNamedWithoutItsContent() throws Exception {
    StoreLocation location =
        StoreLocation.resolve(
            Optional.of("jdbc:postgresql://127.0.0.1/drills"),
            dir,
            Map.of("FIREDRILL_HISTORY_PASSWORD_FILE", dir.resolve("missing").toString()));

    assertThatThrownBy(location::properties)
        .hasMessage(
            "FIREDRILL_HISTORY_PASSWORD_FILE names "
                + dir.resolve("missing")
                + ", which cannot be read (expected a file holding the password)");
  }

  @Test
  void theNameDropsTheQueryAndMessagesLoseThePassword() throws Exception {
    StoreLocation location =
        StoreLocation.resolve(
            Optional.of("jdbc:postgresql://db/drills?password=url-secret"),
            dir,
            Map.of("PGPASSWORD", "env-secret"));

    assertThat(location.name()).isEqualTo("jdbc:postgresql://db/drills");
    assertThat(
            location.redact(
                "auth failed for env-secret at jdbc:postgresql://db/drills?password=url-secret"))
        .isEqualTo("auth failed for *** at jdbc:postgresql://db/drills");
  }
}
