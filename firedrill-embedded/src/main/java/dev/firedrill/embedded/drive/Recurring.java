package dev.firedrill.embedded.drive;

import java.time.Instant;

/**
 * Work that recurs at instants of its own choosing: a target's scrapes, a rule group's evaluations.
 * A driver runs it at each such instant, never twice at once.
 */
public interface Recurring {

  /** Names it in logs. */
  String name();

  /** The first instant at or after {@code t} when it runs. */
  Instant nextAtOrAfter(Instant t);

  /** Runs it for {@code at}, the instant it was due, which it uses as its timestamp. */
  void run(Instant at) throws InterruptedException;
}
