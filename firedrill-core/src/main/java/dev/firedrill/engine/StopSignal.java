package dev.firedrill.engine;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The human abort buttons: a signal flag set by SIGINT/SIGTERM and an abort file. The engine polls
 * it every 200 ms while the faults are on; it is never consulted during the rollback.
 */
public interface StopSignal {

  /** Why to stop, or empty to go on. */
  Optional<String> requested();

  /** Never asks to stop: for a drill that nothing outside it may stop. */
  static StopSignal noop() {
    return Optional::empty;
  }

  /** A flag that the first signal sets; later signals keep the first reason. */
  final class Flag implements StopSignal {
    private final AtomicReference<String> reason = new AtomicReference<>();

    public void raise(String why) {
      reason.compareAndSet(null, why);
    }

    @Override
    public Optional<String> requested() {
      return Optional.ofNullable(reason.get());
    }
  }

  static StopSignal abortFile(Path file) {
    return () ->
        Files.exists(file) ? Optional.of("abort file " + file + " exists") : Optional.empty();
  }

  static StopSignal anyOf(StopSignal first, StopSignal second) {
    return () -> first.requested().or(second::requested);
  }
}
