package dev.firedrill.history;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** What every backend of the history must do; each subclass runs it against a real database. */
abstract class HistoryStoreContract {

  /** A fresh, empty store. */
  abstract StoreLocation newStore() throws Exception;

  /** A raw connection to the store, to look behind the API. */
  abstract Connection connect(StoreLocation location) throws SQLException;

  @Test
  void aRowComesBackAsItWasWrittenWithEmptyFieldsKept() throws Exception {
    StoreLocation location = newStore();
    DetectionRecord full = Rows.fired(0, 0.7);
    DetectionRecord bare =
        new DetectionRecord(
            "payments-latency@2026-01-02T00:00:00Z",
            Instant.parse("2026-01-02T00:00:00.123Z"),
            "payments-latency",
            "CheckoutOrdersPending",
            "CheckoutOrdersPending",
            "silent",
            false,
            Optional.empty(),
            Optional.empty(),
            List.of(),
            Optional.empty(),
            "-",
            true,
            "held",
            "/j/latency.json");

    try (HistoryStore store = HistoryStore.open(location)) {
      assertThat(store.append(List.of(full, bare))).isEqualTo(2);
      assertThat(store.query(Optional.empty(), Optional.empty())).containsExactly(full, bare);
    }
  }

  @Test
  void rowsComeBackOldestRunFirstWhateverTheOrderTheyWereWritten() throws Exception {
    StoreLocation location = newStore();
    try (HistoryStore store = HistoryStore.open(location)) {
      store.append(List.of(Rows.fired(2, 3)));
      store.append(List.of(Rows.fired(0, 1)));
      store.append(List.of(Rows.fired(1, 2)));

      assertThat(store.query(Optional.empty(), Optional.empty()))
          .extracting(r -> r.timeToDetect().get())
          .containsExactly(Duration.ofSeconds(1), Duration.ofSeconds(2), Duration.ofSeconds(3));
    }
  }

  @Test
  void aRunRecordedTwiceIsKeptOnce() throws Exception {
    StoreLocation location = newStore();
    try (HistoryStore store = HistoryStore.open(location)) {
      assertThat(store.append(List.of(Rows.fired(0, 1), Rows.fired(1, 2)))).isEqualTo(2);
      assertThat(store.append(List.of(Rows.fired(1, 2), Rows.fired(2, 3)))).isEqualTo(1);

      assertThat(store.query(Optional.empty(), Optional.empty())).hasSize(3);
    }
  }

  @Test
  void theFiltersPickAnAlertByNameOrByNameWithMatchersAndAnExperiment() throws Exception {
    StoreLocation location = newStore();
    DetectionRecord other =
        new DetectionRecord(
            "payments-latency@x",
            Instant.parse("2026-01-05T00:00:00Z"),
            "payments-latency",
            "CheckoutOrdersPending",
            "CheckoutOrdersPending",
            "firing",
            true,
            Optional.of(Duration.ofSeconds(6)),
            Optional.empty(),
            List.of("team-payments"),
            Optional.empty(),
            "-",
            true,
            "held",
            "/j/x.json");
    try (HistoryStore store = HistoryStore.open(location)) {
      store.append(List.of(Rows.fired(0, 1), other));

      assertThat(store.query(Optional.of(Rows.ALERT), Optional.empty()))
          .containsExactly(Rows.fired(0, 1));
      assertThat(store.query(Optional.of(Rows.KEY), Optional.empty()))
          .containsExactly(Rows.fired(0, 1));
      assertThat(store.query(Optional.empty(), Optional.of("payments-latency")))
          .containsExactly(other);
      assertThat(store.query(Optional.of(Rows.ALERT), Optional.of("payments-latency"))).isEmpty();
      // A name that reads like SQL is a value like any other.
      assertThat(store.query(Optional.of("x' OR '1'='1"), Optional.empty())).isEmpty();
    }
  }

  @Test
  void oneAlertSpelledTwoWaysIsOneAlertWrittenAndQueried() throws Exception {
    StoreLocation location = newStore();
    DetectionRecord first = Rows.fired(0, 1);
    DetectionRecord second = Rows.fired(1, 2);
    // As an older firedrill or another writer may have stored it: other order, spaces, quotes.
    String spelled = "CheckoutErrorBudgetBurn{ zone='eu', service = \"checkout\" }";
    DetectionRecord differentlySpelled =
        new DetectionRecord(
            second.runId(),
            second.runAt(),
            second.experiment(),
            second.alert(),
            spelled,
            second.expect(),
            second.fired(),
            second.timeToDetect(),
            second.timeToNotify(),
            second.receivers(),
            second.expectedReceiver(),
            second.routing(),
            second.held(),
            second.verdict(),
            "/elsewhere/" + second.journal());
    try (HistoryStore store = HistoryStore.open(location)) {
      store.append(List.of(first, differentlySpelled));

      List<DetectionRecord> rows =
          store.query(
              Optional.of("CheckoutErrorBudgetBurn{service='checkout',zone=\"eu\"}"),
              Optional.empty());
      assertThat(rows)
          .extracting(DetectionRecord::alertKey)
          .containsExactly("CheckoutErrorBudgetBurn{service=\"checkout\",zone=\"eu\"}");
      assertThat(store.query(Optional.of(Rows.KEY + " "), Optional.empty())).containsExactly(first);
    }
  }

  @Test
  void openingAgainKeepsTheRowsAndOneSchemaVersionRow() throws Exception {
    StoreLocation location = newStore();
    try (HistoryStore store = HistoryStore.open(location)) {
      store.append(List.of(Rows.fired(0, 1)));
    }
    try (HistoryStore store = HistoryStore.open(location)) {
      assertThat(store.query(Optional.empty(), Optional.empty())).containsExactly(Rows.fired(0, 1));
    }
    try (Connection connection = connect(location);
        Statement statement = connection.createStatement();
        ResultSet rows = statement.executeQuery("SELECT version FROM firedrill_schema")) {
      assertThat(rows.next()).isTrue();
      assertThat(rows.getInt(1)).isEqualTo(Schema.VERSION);
      assertThat(rows.next()).as("a second schema version row").isFalse();
    }
  }

  @Test
  void aStoreOfAnotherSchemaVersionIsRefusedByName() throws Exception {
    StoreLocation location = newStore();
    HistoryStore.open(location).close();
    try (Connection connection = connect(location);
        Statement statement = connection.createStatement()) {
      statement.executeUpdate("UPDATE firedrill_schema SET version = 99");
    }

    assertThatThrownBy(() -> HistoryStore.open(location))
        .isInstanceOf(HistoryException.class)
        .hasMessage(
            "detection history "
                + location.name()
                + " has schema version 99; this firedrill reads version 1");
  }

  @Test
  void aRecordedRunComesBackThroughTheRecorder() throws Exception {
    StoreLocation location = newStore();
    var journal = Journals.outage();

    Optional<HistoryRecorder.Outcome> outcome =
        HistoryRecorder.record(location, journal, "/j/outage.json");

    assertThat(outcome)
        .contains(
            new HistoryRecorder.Outcome(
                "detection history: 3 alerts recorded in " + location.name(), false));
    try (HistoryStore store = HistoryStore.open(location)) {
      assertThat(store.query(Optional.empty(), Optional.empty()))
          .isEqualTo(JournalRows.of(journal, "/j/outage.json"));
    }
  }

  static Connection jdbc(String url, java.util.Properties properties) throws SQLException {
    return DriverManager.getConnection(url, properties);
  }
}
