package dev.firedrill.cli;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import sun.misc.Signal;
import sun.misc.SignalHandler;

/**
 * The one place that owns the JVM's SIGINT, SIGTERM and SIGHUP handlers. Commands register a
 * listener for the time they run; the JVM's own handlers come back when the last one leaves. Each
 * command installing and restoring handlers of its own went wrong when two ran at once in one JVM
 * (the tests' concurrent drills): the one that closed last restored the other's handler, which was
 * then left catching signals for a command long gone. A signal the JVM inherited as ignored (SIGINT
 * under {@code nohup ... &}) cannot be handled at all: the JVM keeps it ignored, as the shell
 * asked.
 */
final class SignalHub {

  /**
   * SIGHUP too: a closed terminal or a dropped ssh session must roll back as Ctrl-C does, not leave
   * the fault on until its ttl.
   */
  private static final List<String> NAMES = List.of("INT", "TERM", "HUP");

  private static final List<Consumer<String>> LISTENERS = new ArrayList<>();
  private static final Map<Signal, SignalHandler> ORIGINAL = new LinkedHashMap<>();

  private SignalHub() {}

  /** A registration: closing it stops {@code listener} hearing signals. */
  interface Registration extends AutoCloseable {
    @Override
    void close();
  }

  /**
   * {@code listener} hears {@code "SIGINT"}, {@code "SIGTERM"} or {@code "SIGHUP"}, on the JVM's
   * signal thread, until closed.
   */
  static synchronized Registration register(Consumer<String> listener) {
    if (LISTENERS.isEmpty()) {
      for (String name : NAMES) {
        Signal signal = new Signal(name);
        try {
          ORIGINAL.put(signal, Signal.handle(signal, caught -> dispatch("SIG" + name)));
        } catch (IllegalArgumentException e) {
          // The JVM keeps it (-Xrs, or a platform without it): the others still stop the drill.
        }
      }
    }
    LISTENERS.add(listener);
    return () -> unregister(listener);
  }

  private static synchronized void unregister(Consumer<String> listener) {
    if (LISTENERS.remove(listener) && LISTENERS.isEmpty()) {
      ORIGINAL.forEach(Signal::handle);
      ORIGINAL.clear();
    }
  }

  private static void dispatch(String signal) {
    List<Consumer<String>> now;
    synchronized (SignalHub.class) {
      now = List.copyOf(LISTENERS);
    }
    now.forEach(listener -> listener.accept(signal));
  }
}
