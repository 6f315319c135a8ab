package dev.firedrill.engine;

import dev.firedrill.guard.Measurement;
import dev.firedrill.time.Clock;
import java.time.Duration;

/**
 * Measures until the system is within its steady state or {@code timeout} runs out: for a lab
 * that has just started, whose first seconds (JVMs compiling, a Prometheus filling its windows)
 * look like a breach that no fault caused. Returns the last measurement either way; the drill's
 * preflight still decides.
 */
public final class SteadyStateWait {

  private SteadyStateWait() {}

  public static Measurement await(Measurer measurer, Duration timeout, Duration interval, Clock clock)
      throws InterruptedException {
    long deadline = clock.nanoTime() + timeout.toNanos();
    Measurement last = measurer.measure();
    while (!last.withinSteadyState() && clock.nanoTime() - deadline < 0) {
      clock.sleep(interval);
      last = measurer.measure();
    }
    return last;
  }
}
