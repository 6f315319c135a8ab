package dev.firedrill.cli;

import dev.firedrill.engine.StopSignal;
import java.io.PrintWriter;

/**
 * SIGINT, SIGTERM and SIGHUP (a closed terminal, a dropped ssh session) raise the drill's stop flag
 * instead of ending the JVM, so the rollback always runs; a second Ctrl-C only repeats that the
 * rollback is under way.
 */
final class Signals implements AutoCloseable {

  private final SignalHub.Registration registration;

  private Signals(SignalHub.Registration registration) {
    this.registration = registration;
  }

  static Signals install(StopSignal.Flag flag, PrintWriter console) {
    return new Signals(
        SignalHub.register(
            signal -> {
              flag.raise(signal + " received");
              console.println(signal + ": stopping; the rollback runs and cannot be interrupted");
              console.flush();
            }));
  }

  @Override
  public void close() {
    registration.close();
  }
}
