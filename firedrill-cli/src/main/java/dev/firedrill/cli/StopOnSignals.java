package dev.firedrill.cli;

import java.io.PrintWriter;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

/**
 * SIGINT and SIGTERM end a lab command's run (a service, a load) instead of the JVM, so it can
 * close and report.
 */
final class StopOnSignals implements AutoCloseable {

  private final CountDownLatch stopped = new CountDownLatch(1);
  private final AtomicReference<String> reason = new AtomicReference<>();
  private SignalHub.Registration registration;

  static StopOnSignals install(PrintWriter console, String what) {
    StopOnSignals installed = new StopOnSignals();
    installed.registration =
        SignalHub.register(
            signal -> {
              if (installed.reason.compareAndSet(null, signal)) {
                console.println(signal + ": stopping " + what);
                console.flush();
              }
              installed.stopped.countDown();
            });
    return installed;
  }

  boolean requested() {
    return reason.get() != null;
  }

  /** The signal that stopped the run, if one did. */
  Optional<String> reason() {
    return Optional.ofNullable(reason.get());
  }

  /** Waits for a signal at most {@code max}; true when one came. The interrupt flag is kept. */
  boolean await(Duration max) {
    try {
      return stopped.await(max.toMillis(), TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }

  @Override
  public void close() {
    registration.close();
  }
}
