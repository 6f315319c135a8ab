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
   * firedrill JVM; {@code compat} is the Prometheus major version an embedded Prometheus answers as
   * ({@code --compat}).
   */
  record Embedded(List<String> firedrill, int compat) implements Runner {
    /** The embedded Prometheus's own default, {@code --compat 3}. */
    public static final int DEFAULT_COMPAT = 3;

    public Embedded {
      firedrill = List.copyOf(firedrill);
      if (compat != 2 && compat != 3) {
        throw new IllegalArgumentException(
            "compatibility mode "
                + compat
                + " is not one of 2 or 3 (the Prometheus major version)");
      }
    }

    /** Answering as Prometheus 3, the embedded Prometheus's default. */
    public Embedded(List<String> firedrill) {
      this(firedrill, DEFAULT_COMPAT);
    }
  }
}
