package dev.firedrill.history;

import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Types;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * The detection history over JDBC: opened (and its tables created on first use), appended to one
 * run at a time in a transaction, queried oldest run first. Every failure is a {@link
 * HistoryException} whose one line names the store, never its password.
 */
public final class HistoryStore implements AutoCloseable {

  private final StoreLocation location;
  private final Connection connection;

  private HistoryStore(StoreLocation location, Connection connection) {
    this.location = location;
    this.connection = connection;
  }

  public static HistoryStore open(StoreLocation location) throws HistoryException {
    Optional<Path> parent = location.file().map(Path::getParent);
    if (parent.isPresent()) {
      try {
        Files.createDirectories(parent.get());
      } catch (FileAlreadyExistsException e) {
        throw new HistoryException(
            "cannot open the detection history "
                + location.name()
                + ": "
                + e.getFile()
                + " is not a directory",
            e);
      } catch (IOException e) {
        throw failure(location, "cannot open", e);
      }
    }
    Connection connection = null;
    try {
      connection = DriverManager.getConnection(location.url(), location.properties());
      HistoryStore store = new HistoryStore(location, connection);
      store.createSchema();
      return store;
    } catch (SQLException e) {
      closeQuietly(connection);
      throw failure(location, "cannot open", e);
    } catch (HistoryException e) {
      closeQuietly(connection);
      throw e;
    }
  }

  /**
   * Appends the rows in one transaction; returns how many were new (a run already recorded adds
   * none).
   */
  public int append(List<DetectionRecord> records) throws HistoryException {
    try {
      connection.setAutoCommit(false);
      int added = 0;
      try (PreparedStatement insert = connection.prepareStatement(Schema.INSERT)) {
        for (DetectionRecord r : records) {
          insert.setString(1, r.runId());
          insert.setString(2, r.alertKey());
          insert.setLong(3, r.runAt().toEpochMilli());
          insert.setString(4, r.experiment());
          insert.setString(5, r.alert());
          insert.setString(6, r.expect());
          insert.setBoolean(7, r.fired());
          setMillis(insert, 8, r.timeToDetect());
          setMillis(insert, 9, r.timeToNotify());
          insert.setString(10, r.receiversText());
          if (r.expectedReceiver().isPresent()) {
            insert.setString(11, r.expectedReceiver().get());
          } else {
            insert.setNull(11, Types.VARCHAR);
          }
          insert.setString(12, r.routing());
          insert.setBoolean(13, r.held());
          insert.setString(14, r.verdict());
          insert.setString(15, r.journal());
          added += insert.executeUpdate();
        }
      }
      connection.commit();
      return added;
    } catch (SQLException e) {
      try {
        connection.rollback();
      } catch (SQLException ignored) {
        // The connection is already broken; the first failure is the one worth reporting.
      }
      throw failure(location, "cannot write to", e);
    }
  }

  /**
   * Every row, oldest run first; {@code alert} matches the alert's name or its name with matchers.
   */
  public List<DetectionRecord> query(Optional<String> alert, Optional<String> experiment)
      throws HistoryException {
    StringBuilder sql =
        new StringBuilder("SELECT " + Schema.COLUMNS + " FROM firedrill_detection WHERE 1 = 1");
    // The alert is matched here, not in SQL: keys compare in their canonical spelling.
    Optional<String> wanted = alert.map(AlertKeys::canonical);
    experiment.ifPresent(e -> sql.append(" AND experiment = ?"));
    sql.append(" ORDER BY run_at_ms, run_id, alert_key");
    try (PreparedStatement select = connection.prepareStatement(sql.toString())) {
      if (experiment.isPresent()) {
        select.setString(1, experiment.get());
      }
      List<DetectionRecord> records = new ArrayList<>();
      try (ResultSet rows = select.executeQuery()) {
        while (rows.next()) {
          DetectionRecord r = record(rows);
          if (wanted.isEmpty()
              || wanted.get().equals(r.alert())
              || wanted.get().equals(r.alertKey())) {
            records.add(r);
          }
        }
      }
      return records;
    } catch (SQLException e) {
      throw failure(location, "cannot read", e);
    }
  }

  @Override
  public void close() {
    closeQuietly(connection);
  }

  private void createSchema() throws SQLException, HistoryException {
    try (Statement statement = connection.createStatement()) {
      statement.execute(Schema.VERSION_TABLE);
      List<Integer> versions = new ArrayList<>();
      try (ResultSet rows = statement.executeQuery("SELECT version FROM firedrill_schema")) {
        while (rows.next()) {
          versions.add(rows.getInt(1));
        }
      }
      if (versions.isEmpty()) {
        String insertVersion = "INSERT INTO firedrill_schema (version) VALUES (?)";
        try (PreparedStatement insert = connection.prepareStatement(insertVersion)) {
          insert.setInt(1, Schema.VERSION);
          insert.executeUpdate();
        }
      }
      Optional<Integer> other = versions.stream().filter(v -> v != Schema.VERSION).findFirst();
      if (other.isPresent()) {
        throw new HistoryException(
            "detection history "
                + location.name()
                + " has schema version "
                + other.get()
                + "; this firedrill reads version "
                + Schema.VERSION);
      }
      for (String table : Schema.TABLES) {
        statement.execute(table);
      }
    }
  }

  private static DetectionRecord record(ResultSet rows) throws SQLException {
    String receivers = rows.getString("receivers");
    return new DetectionRecord(
        rows.getString("run_id"),
        Instant.ofEpochMilli(rows.getLong("run_at_ms")),
        rows.getString("experiment"),
        rows.getString("alert"),
        AlertKeys.canonical(rows.getString("alert_key")),
        rows.getString("expect"),
        rows.getBoolean("fired"),
        millis(rows, "detect_ms"),
        millis(rows, "notify_ms"),
        receivers.isEmpty() ? List.of() : Arrays.asList(receivers.split(", ")),
        Optional.ofNullable(rows.getString("expected_receiver")),
        rows.getString("routing"),
        rows.getBoolean("held"),
        rows.getString("verdict"),
        rows.getString("journal"));
  }

  private static Optional<Duration> millis(ResultSet rows, String column) throws SQLException {
    long value = rows.getLong(column);
    return rows.wasNull() ? Optional.empty() : Optional.of(Duration.ofMillis(value));
  }

  private static void setMillis(PreparedStatement statement, int index, Optional<Duration> duration)
      throws SQLException {
    if (duration.isPresent()) {
      statement.setLong(index, duration.get().toMillis());
    } else {
      statement.setNull(index, Types.BIGINT);
    }
  }

  private static HistoryException failure(StoreLocation location, String what, Exception e) {
    String reason =
        e.getMessage() == null
            ? e.getClass().getSimpleName()
            : e.getMessage().lines().findFirst().orElse("");
    return new HistoryException(
        what + " the detection history " + location.name() + ": " + location.redact(reason), e);
  }

  private static void closeQuietly(Connection connection) {
    if (connection == null) {
      return;
    }
    try {
      connection.close();
    } catch (SQLException ignored) {
      // Nothing more can be done with a connection that fails to close.
    }
  }
}
