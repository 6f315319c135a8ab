package dev.firedrill.history;

import java.util.List;

/**
 * The history's tables, in SQL that SQLite and PostgreSQL both accept: times and durations as
 * milliseconds in BIGINT, flags as BOOLEAN (SQLite keeps them as 0 and 1), receivers as text.
 */
final class Schema {

  /**
   * Bumped with every change to the tables; a store of another version is refused, not guessed at.
   */
  static final int VERSION = 1;

  static final String VERSION_TABLE =
      "CREATE TABLE IF NOT EXISTS firedrill_schema (version INTEGER NOT NULL)";

  static final List<String> TABLES =
      List.of(
          """
      CREATE TABLE IF NOT EXISTS firedrill_detection (
        run_id TEXT NOT NULL,
        alert_key TEXT NOT NULL,
        run_at_ms BIGINT NOT NULL,
        experiment TEXT NOT NULL,
        alert TEXT NOT NULL,
        expect TEXT NOT NULL,
        fired BOOLEAN NOT NULL,
        detect_ms BIGINT,
        notify_ms BIGINT,
        receivers TEXT NOT NULL,
        expected_receiver TEXT,
        routing TEXT NOT NULL,
        held BOOLEAN NOT NULL,
        verdict TEXT NOT NULL,
        journal TEXT NOT NULL,
        PRIMARY KEY (run_id, alert_key))""",
          "CREATE INDEX IF NOT EXISTS firedrill_detection_alert ON firedrill_detection (alert, run_at_ms)");

  static final String COLUMNS =
      "run_id, alert_key, run_at_ms, experiment, alert, expect, fired, detect_ms, "
          + "notify_ms, receivers, expected_receiver, routing, held, verdict, journal";

  /**
   * ON CONFLICT ... DO NOTHING: SQLite since 3.24, PostgreSQL since 9.5; a run recorded twice stays
   * one.
   */
  static final String INSERT =
      "INSERT INTO firedrill_detection ("
          + COLUMNS
          + ") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (run_id, alert_key) DO NOTHING";

  private Schema() {}
}
