package dev.firedrill.cli;

import dev.firedrill.engine.StopSignal;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import sun.misc.Signal;
import sun.misc.SignalHandler;

/**
 * SIGINT and SIGTERM raise the drill's stop flag instead of ending the JVM, so the rollback always
 * runs; a second Ctrl-C only repeats that the rollback is under way.
 */
final class Signals implements AutoCloseable {

  private final List<Signal> signals = new ArrayList<>();
  private final List<SignalHandler> previous = new ArrayList<>();

  static Signals install(StopSignal.Flag flag, PrintWriter console) {
    Signals installed = new Signals();
    for (String name : List.of("INT", "TERM")) {
      Signal signal = new Signal(name);
      SignalHandler handler = caught -> {
        flag.raise("SIG" + name + " received");
        console.println("SIG" + name + ": stopping; the rollback runs and cannot be interrupted");
        console.flush();
      };
      installed.signals.add(signal);
      installed.previous.add(Signal.handle(signal, handler));
    }
    return installed;
  }

  @Override
  public void close() {
    for (int i = 0; i < signals.size(); i++) {
      Signal.handle(signals.get(i), previous.get(i));
    }
  }
}
