package dev.firedrill.time;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/** A virtual clock: {@link #sleep} advances time at once, and listeners see every advance. */
public final class TestClock implements Clock {

  private Instant now;
  private long nanos;
  private final List<Consumer<Instant>> listeners = new ArrayList<>();

  public TestClock(Instant start) {
    this.now = start;
  }

  public static TestClock at(String isoInstant) {
    return new TestClock(Instant.parse(isoInstant));
  }

  @Override
  public synchronized Instant now() {
    return now;
  }

  @Override
  public synchronized long nanoTime() {
    return nanos;
  }

  @Override
  public void sleep(Duration duration) throws InterruptedException {
    if (Thread.currentThread().isInterrupted()) {
      throw new InterruptedException();
    }
    advance(duration);
  }

  public void advance(Duration duration) {
    Instant reached;
    List<Consumer<Instant>> copy;
    synchronized (this) {
      now = now.plus(duration);
      nanos += duration.toNanos();
      reached = now;
      copy = List.copyOf(listeners);
    }
    copy.forEach(listener -> listener.accept(reached));
  }

  /** Called after every advance with the new time; lets a test flip the world at a moment. */
  public synchronized void onAdvance(Consumer<Instant> listener) {
    listeners.add(listener);
  }
}
