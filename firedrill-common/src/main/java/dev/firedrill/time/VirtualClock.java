package dev.firedrill.time;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;
import java.util.function.UnaryOperator;

/**
 * Time that moves only when something moves it: {@link #advance}, {@link #setTime}, or {@link
 * #sleep}, which on this clock is the same as advancing it. A ten-minute drill runs in
 * milliseconds, in tests and in {@code firedrill simulate} alike.
 *
 * <p>Work may run on it: an {@link Agenda} (the embedded servers' scrapes, evaluations and flushes)
 * makes every move stop at each instant the agenda names on the way and run its work there, with
 * the clock standing at that instant. Readers on other threads (an HTTP handler stamping a webhook)
 * see that instant while the work runs; {@link #now} never waits for a move. Moves from several
 * threads take turns.
 */
public final class VirtualClock implements Clock {

  /** Work that falls due as the clock moves. */
  public interface Agenda {

    /**
     * When it has work next: {@link Instant#MAX} when none, an instant before now when something
     * made work due that should already have run (it then runs at once).
     */
    Instant nextDue();

    /** Runs all its work due at {@code now}, the clock standing there. */
    void runDue(Instant now) throws InterruptedException;
  }

  private static final Agenda NOTHING =
      new Agenda() {
        @Override
        public Instant nextDue() {
          return Instant.MAX;
        }

        @Override
        public void runDue(Instant now) {}
      };

  private final Instant origin;
  private volatile Instant now;
  private final List<Consumer<Instant>> listeners = new CopyOnWriteArrayList<>();

  /** Guarded by this, as is every move. */
  private Agenda agenda = NOTHING;

  /**
   * Whether the agenda's work is running: it may read the clock but not move it. Guarded by this.
   */
  private boolean running;

  public VirtualClock(Instant start) {
    this.origin = Objects.requireNonNull(start, "start");
    this.now = start;
  }

  public static VirtualClock at(String isoInstant) {
    return new VirtualClock(Instant.parse(isoInstant));
  }

  @Override
  public Instant now() {
    return now;
  }

  /** Nanoseconds since the clock's start. */
  @Override
  public long nanoTime() {
    return Duration.between(origin, now).toNanos();
  }

  /**
   * Advances the clock by {@code duration} (none when it is negative, as a real sleep of no time),
   * running the agenda's work due meanwhile.
   *
   * @throws InterruptedException when the thread is interrupted before, or the agenda's work was
   *     interrupted (the clock then stands at that work's instant)
   */
  @Override
  public void sleep(Duration duration) throws InterruptedException {
    // Clears the flag as Thread.sleep does: a flag left set would hide a caller that forgets to
    // restore it.
    if (Thread.interrupted()) {
      throw new InterruptedException(
          "interrupted before sleeping " + duration + " on the virtual clock");
    }
    Duration by = duration.isNegative() ? Duration.ZERO : duration;
    move(from -> from.plus(by));
  }

  /**
   * Moves the clock forward by {@code duration}, running the agenda's work due on the way; ZERO
   * runs what is due now. When that work is interrupted, the clock stands at its instant and the
   * thread's interrupt flag is set.
   */
  public void advance(Duration duration) {
    if (duration.isNegative()) {
      throw new IllegalArgumentException(
          "cannot advance by " + duration + " (expected zero or more)");
    }
    moveRestoringInterrupt(from -> from.plus(duration));
  }

  /**
   * Moves the clock to {@code to} as {@link #advance} does; refuses to go back, as no clock may.
   */
  public void setTime(Instant to) {
    moveRestoringInterrupt(
        from -> {
          if (to.isBefore(from)) {
            throw new IllegalArgumentException(
                "virtual time " + to + " is before " + from + " (expected no earlier than now)");
          }
          return to;
        });
  }

  /** Called after every move with the time reached; lets a test flip the world at a moment. */
  public void onAdvance(Consumer<Instant> listener) {
    listeners.add(Objects.requireNonNull(listener, "listener"));
  }

  /**
   * Makes every move run {@code work} on the way; a clock has one agenda, holding all the work on
   * it.
   */
  public synchronized void drive(Agenda work) {
    if (agenda != NOTHING) {
      throw new IllegalStateException(
          "the virtual clock has an agenda already (expected one to hold all work on it)");
    }
    agenda = Objects.requireNonNull(work, "work");
  }

  private void moveRestoringInterrupt(UnaryOperator<Instant> target) {
    try {
      move(target);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private void move(UnaryOperator<Instant> target) throws InterruptedException {
    Instant to;
    synchronized (this) {
      if (running) {
        throw new IllegalStateException(
            "cannot move the virtual clock from work running on it at "
                + now
                + " (expected the work to return and the clock's owner to move it)");
      }
      to = target.apply(now);
      running = true;
      try {
        for (Instant due = agenda.nextDue(); !due.isAfter(to); due = agenda.nextDue()) {
          if (due.isAfter(now)) {
            now = due;
          }
          agenda.runDue(now);
        }
        now = to;
      } finally {
        running = false;
      }
    }
    listeners.forEach(listener -> listener.accept(to));
  }
}
