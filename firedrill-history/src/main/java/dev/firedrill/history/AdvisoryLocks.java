package dev.firedrill.history;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Optional;

/**
 * Target locks in a PostgreSQL history: a session-level advisory lock per target (the first eight
 * bytes of its SHA-256 as the key), held on this object's own connection, so a run that dies lets
 * go of its locks with its connection; the holder's experiment id in {@code firedrill_target_lock}
 * for the message of the run that is refused.
 */
public final class AdvisoryLocks implements AutoCloseable {

  private final Connection connection;

  private AdvisoryLocks(Connection connection) {
    this.connection = connection;
  }

  /** Connects to a PostgreSQL history; a SQLite one has file locks instead. */
  public static AdvisoryLocks open(StoreLocation location) throws HistoryException {
    if (location.file().isPresent()) {
      throw new HistoryException(location.name() + ": advisory locks need a PostgreSQL history");
    }
    try {
      Connection connection = DriverManager.getConnection(location.url(), location.properties());
      try (Statement statement = connection.createStatement()) {
        statement.execute(
            "CREATE TABLE IF NOT EXISTS firedrill_target_lock (target TEXT PRIMARY KEY,"
                + " experiment TEXT NOT NULL, since TIMESTAMPTZ NOT NULL DEFAULT now())");
      }
      return new AdvisoryLocks(connection);
    } catch (SQLException e) {
      throw new HistoryException(
          "cannot open the target locks in " + location.name() + ": " + e.getMessage(), e);
    }
  }

  /** Takes the target's lock without waiting; empty when another session holds it. */
  public synchronized boolean tryLock(String target, String experimentId) throws HistoryException {
    try (PreparedStatement lock = connection.prepareStatement("SELECT pg_try_advisory_lock(?)")) {
      lock.setLong(1, key(target));
      try (ResultSet rs = lock.executeQuery()) {
        if (!rs.next() || !rs.getBoolean(1)) {
          return false;
        }
      }
      try (PreparedStatement holder =
          connection.prepareStatement(
              "INSERT INTO firedrill_target_lock (target, experiment) VALUES (?, ?)"
                  + " ON CONFLICT (target) DO UPDATE SET experiment = EXCLUDED.experiment,"
                  + " since = now()")) {
        holder.setString(1, target);
        holder.setString(2, experimentId);
        holder.executeUpdate();
      }
      return true;
    } catch (SQLException e) {
      throw new HistoryException("cannot lock target " + target + ": " + e.getMessage(), e);
    }
  }

  /** The experiment that last took the target's lock. */
  public synchronized Optional<String> holder(String target) throws HistoryException {
    try (PreparedStatement select =
        connection.prepareStatement(
            "SELECT experiment FROM firedrill_target_lock WHERE target = ?")) {
      select.setString(1, target);
      try (ResultSet rs = select.executeQuery()) {
        return rs.next() ? Optional.of(rs.getString(1)) : Optional.empty();
      }
    } catch (SQLException e) {
      throw new HistoryException("cannot read the holder of " + target + ": " + e.getMessage(), e);
    }
  }

  public synchronized void unlock(String target) throws HistoryException {
    try (PreparedStatement unlock = connection.prepareStatement("SELECT pg_advisory_unlock(?)")) {
      unlock.setLong(1, key(target));
      unlock.executeQuery().close();
    } catch (SQLException e) {
      throw new HistoryException("cannot unlock target " + target + ": " + e.getMessage(), e);
    }
  }

  /** Closing the session releases every lock it holds. */
  @Override
  public synchronized void close() {
    try {
      connection.close();
    } catch (SQLException e) {
      // the server ends the session, and its locks, when the connection drops anyway
    }
  }

  static long key(String target) {
    try {
      byte[] digest =
          MessageDigest.getInstance("SHA-256").digest(target.getBytes(StandardCharsets.UTF_8));
      return ByteBuffer.wrap(digest, 0, 8).getLong();
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every JVM has SHA-256", e);
    }
  }
}
