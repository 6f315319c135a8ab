package dev.firedrill.embedded.drive;

import dev.firedrill.time.VirtualClock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Runs scheduled work on a {@link VirtualClock}: {@link #advance} runs every slot that falls due,
 * one at a time in time order (in the order the work was given when slots coincide), with the clock
 * set to each slot, so a simulation gives the same result on any machine at any load.
 */
public final class VirtualDriver {

  private static final Logger LOG = Logger.getLogger(VirtualDriver.class.getName());

  private final VirtualClock clock;
  private final List<? extends Recurring> work;
  private final List<Instant> next = new ArrayList<>();

  /** Every piece of work first runs at its first slot at or after the clock's now. */
  public VirtualDriver(VirtualClock clock, List<? extends Recurring> work) {
    this.clock = clock;
    this.work = List.copyOf(work);
    this.work.forEach(w -> next.add(w.nextAtOrAfter(clock.now())));
  }

  /**
   * Runs every slot up to and including {@code now + duration}, then leaves the clock there.
   *
   * @throws InterruptedException when a piece of work was interrupted; the clock stays at its slot
   */
  public synchronized void advance(Duration duration) throws InterruptedException {
    if (duration.isNegative()) {
      throw new IllegalArgumentException("cannot advance by " + duration + " (expected zero or more)");
    }
    Instant target = clock.now().plus(duration);
    while (true) {
      int due = -1;
      for (int i = 0; i < next.size(); i++) {
        if (!next.get(i).isAfter(target) && (due < 0 || next.get(i).isBefore(next.get(due)))) {
          due = i;
        }
      }
      if (due < 0) {
        break;
      }
      Recurring scheduled = work.get(due);
      Instant slot = next.get(due);
      clock.set(slot);
      try {
        scheduled.run(slot);
      } catch (RuntimeException e) {
        LOG.log(Level.WARNING, scheduled.name() + " failed at " + slot, e);
      }
      next.set(due, scheduled.nextAtOrAfter(slot.plusMillis(1)));
    }
    clock.set(target);
  }
}
