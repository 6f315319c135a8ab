package dev.firedrill.embedded.drive;

import dev.firedrill.time.VirtualClock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Runs scheduled work on a {@link VirtualClock}, as its agenda: every move of the clock runs each
 * slot that falls due on the way, one at a time in time order (in the order the work was added when
 * slots coincide), with the clock standing at the slot, so a simulation gives the same result on
 * any machine at any load. The embedded Prometheus and Alertmanager of one simulation share one
 * driver, so each sees the other's work in time order.
 */
public final class VirtualDriver implements VirtualClock.Agenda {

  private static final Logger LOG = Logger.getLogger(VirtualDriver.class.getName());

  /** A piece of work and the earliest slot it may take: after the last one it ran. */
  private static final class Entry {
    final Recurring work;
    Instant notBefore;

    Entry(Recurring work, Instant notBefore) {
      this.work = work;
      this.notBefore = notBefore;
    }

    Instant next() {
      return work.nextAtOrAfter(notBefore);
    }
  }

  /** Work on a driver: closing it takes the work off. */
  public interface Added extends AutoCloseable {
    @Override
    void close();
  }

  private final VirtualClock clock;
  private final List<Entry> entries = new ArrayList<>();

  private VirtualDriver(VirtualClock clock) {
    this.clock = clock;
  }

  /** The driver of all work on {@code clock}, which must have none yet. */
  public static VirtualDriver on(VirtualClock clock) {
    VirtualDriver driver = new VirtualDriver(clock);
    clock.drive(driver);
    return driver;
  }

  public VirtualClock clock() {
    return clock;
  }

  /**
   * Adds work after all added before, each piece first due at its first slot at or after the
   * clock's now; closing what this returns takes the work off again.
   */
  public synchronized Added add(List<? extends Recurring> work) {
    List<Entry> added = new ArrayList<>();
    work.forEach(w -> added.add(new Entry(w, clock.now())));
    entries.addAll(added);
    return () -> {
      synchronized (this) {
        entries.removeAll(added);
      }
    };
  }

  @Override
  public synchronized Instant nextDue() {
    Instant next = Instant.MAX;
    for (Entry entry : entries) {
      Instant due = entry.next();
      next = due.isBefore(next) ? due : next;
    }
    return next;
  }

  /**
   * Runs each piece of work due by {@code now}, at {@code now}, earliest first, until none is: work
   * that an earlier piece made due at this instant (alerts an evaluation sent, for a group to flush
   * at once) runs too. An interrupted piece stays due.
   */
  @Override
  public synchronized void runDue(Instant now) throws InterruptedException {
    for (Entry entry = dueBy(now); entry != null; entry = dueBy(now)) {
      try {
        entry.work.run(now);
      } catch (RuntimeException e) {
        LOG.log(Level.WARNING, entry.work.name() + " failed at " + now, e);
      }
      entry.notBefore = now.plusMillis(1);
    }
  }

  private Entry dueBy(Instant now) {
    Entry first = null;
    Instant firstDue = null;
    for (Entry entry : entries) {
      Instant due = entry.next();
      if (!due.isAfter(now) && (first == null || due.isBefore(firstDue))) {
        first = entry;
        firstDue = due;
      }
    }
    return first;
  }
}
