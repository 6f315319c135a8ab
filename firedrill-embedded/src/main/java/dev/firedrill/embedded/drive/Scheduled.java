package dev.firedrill.embedded.drive;

import java.time.Duration;
import java.time.Instant;
import java.util.Objects;

/**
 * Work that runs every {@code interval}, at the instants {@code offset + k * interval} since the
 * epoch, such as the storage's retention truncation.
 */
public record Scheduled(String name, Duration interval, Duration offset, Work work)
    implements Recurring {

  /** The work; {@code at} is the slot it runs for, which it uses as its timestamp. */
  @FunctionalInterface
  public interface Work {
    void run(Instant at) throws InterruptedException;
  }

  public Scheduled {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(work, "work");
    if (interval.toMillis() < 1) {
      throw new IllegalArgumentException(
          name + ": interval " + interval + " is not positive (expected at least 1ms)");
    }
    if (offset.isNegative() || offset.compareTo(interval) >= 0) {
      throw new IllegalArgumentException(
          name + ": offset " + offset + " is outside [0, " + interval + ")");
    }
  }

  @Override
  public void run(Instant at) throws InterruptedException {
    work.run(at);
  }

  /** The first slot at or after {@code at}. */
  @Override
  public Instant nextAtOrAfter(Instant at) {
    long intervalMs = interval.toMillis();
    long offsetMs = offset.toMillis();
    long sinceOffset = at.toEpochMilli() - offsetMs;
    long k = Math.floorDiv(sinceOffset, intervalMs);
    long slot = k * intervalMs + offsetMs;
    if (slot < at.toEpochMilli() || slot == at.toEpochMilli() && at.getNano() % 1_000_000 != 0) {
      slot += intervalMs;
    }
    return Instant.ofEpochMilli(slot);
  }
}
