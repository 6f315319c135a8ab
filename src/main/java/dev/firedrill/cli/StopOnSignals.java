package dev.firedrill.cli;

import java.io.PrintWriter;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import sun.misc.Signal;
import sun.misc.SignalHandler;

/** SIGINT and SIGTERM end a lab command's run (a service, a load) instead of the JVM, so it can close and report. */
final class StopOnSignals implements AutoCloseable {

  private final CountDownLatch stopped = new CountDownLatch(1);
  private final AtomicReference<String> reason = new AtomicReference<>();
  private final List<Signal> signals = new ArrayList<>();
  private final List<SignalHandler> previous = new ArrayList<>();

  static StopOnSignals install(PrintWriter console, String what) {
    StopOnSignals installed = new StopOnSignals();
    for (String name : List.of("INT", "TERM")) {
      Signal signal = new Signal(name);
      SignalHandler handler = caught -> {
        if (installed.reason.compareAndSet(null, "SIG" + name)) {
          console.println("SIG" + name + ": stopping " + what);
          console.flush();
        }
        installed.stopped.countDown();
      };
      installed.signals.add(signal);
      installed.previous.add(Signal.handle(signal, handler));
    }
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
    for (int i = 0; i < signals.size(); i++) {
      Signal.handle(signals.get(i), previous.get(i));
    }
  }
}
