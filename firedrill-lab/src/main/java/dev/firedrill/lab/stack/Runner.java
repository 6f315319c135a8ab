package dev.firedrill.lab.stack;

import java.nio.file.Path;
import java.util.List;

/**
 * How the lab runs its Prometheus or its Alertmanager: the real binary, or firedrill's embedded one
 * in a JVM of its own, so that both are started, awaited, logged and stopped alike.
 */
public sealed interface Runner {

  /** The real binary at {@code path}. */
  record Binary(Path path) implements Runner {}

  /**
   * {@code firedrill prometheus} or {@code firedrill alertmanager}; {@code firedrill} starts a
   * firedrill JVM.
   */
  record Embedded(List<String> firedrill) implements Runner {
    public Embedded {
      firedrill = List.copyOf(firedrill);
    }
  }
}
