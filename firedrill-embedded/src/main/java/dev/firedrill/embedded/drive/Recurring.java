package dev.firedrill.embedded.drive;

import java.time.Instant;

/**
 * Work that recurs at instants of its own choosing: a target's scrapes, a rule group's evaluations,
 * Alertmanager's flushes. A driver runs it at each such instant, never twice at once.
 */
public interface Recurring {

  /** Names it in logs. */
  String name();

  /**
   * The first instant at or after {@code t} when it runs, {@link Instant#MAX} when never. Work that
   * learnt of something since it last ran may name an earlier instant (alerts arrived for a group
   * that flushes at once, at the instant it last ran): a driver then runs it at once.
   */
  Instant nextAtOrAfter(Instant t);

  /** Runs it at {@code at}, which it uses as its timestamp. */
  void run(Instant at) throws InterruptedException;
}
