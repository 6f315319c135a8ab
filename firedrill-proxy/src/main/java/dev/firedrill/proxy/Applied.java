package dev.firedrill.proxy;

import dev.firedrill.time.Clock;
import java.io.IOException;
import java.net.Socket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Predicate;

/**
 * The toxics one request (HTTP mode) or one connection's chunk (TCP mode) gets, and their effects.
 */
final class Applied {

  /** How a hold ended. */
  enum HoldEnd {
    RELEASED,
    TIMED_OUT,
    CLIENT_GONE
  }

  /** Whether the client has gone away, checked while holding. */
  interface ClientCheck {
    boolean gone() throws IOException;
  }

  static final Duration HOLD_POLL = Duration.ofMillis(100);

  private static final Applied NONE = new Applied(List.of());

  private final List<ActiveToxic> toxics;

  private Applied(List<ActiveToxic> toxics) {
    this.toxics = toxics;
  }

  /** Each active toxic applies with probability {@code toxicity}, drawn once here. */
  static Applied draw(List<ActiveToxic> active) {
    if (active.isEmpty()) {
      return NONE;
    }
    return select(
        active,
        toxic ->
            toxic.toxicity() >= 1
                || (toxic.toxicity() > 0
                    && ThreadLocalRandom.current().nextDouble() < toxic.toxicity()));
  }

  static Applied select(List<ActiveToxic> active, Predicate<Toxic> applies) {
    List<ActiveToxic> chosen = new ArrayList<>(active.size());
    for (ActiveToxic toxic : active) {
      if (applies.test(toxic.toxic())) {
        chosen.add(toxic);
      }
    }
    return new Applied(chosen);
  }

  boolean isEmpty() {
    return toxics.isEmpty();
  }

  /** The label for the requests counter: the first toxic's type, or none. */
  String label() {
    return toxics.isEmpty() ? "none" : toxics.get(0).toxic().type();
  }

  /** The first applied toxic of {@code kind}, on {@code stream} (null: any stream). */
  <T extends ToxicKind> Optional<ActiveToxic> first(Class<T> kind, ToxicStream stream) {
    for (ActiveToxic toxic : toxics) {
      if (kind.isInstance(toxic.toxic().kind())
          && (stream == null || toxic.toxic().stream() == stream)) {
        return Optional.of(toxic);
      }
    }
    return Optional.empty();
  }

  /** The sum of the latency toxics on {@code stream}, each with its own jitter. */
  Duration latency(ToxicStream stream) {
    long millis = 0;
    for (ActiveToxic toxic : toxics) {
      if (toxic.toxic().kind() instanceof ToxicKind.Latency latency
          && toxic.toxic().stream() == stream) {
        long jitter =
            latency.jitter() == 0
                ? 0
                : ThreadLocalRandom.current().nextLong(-latency.jitter(), latency.jitter() + 1);
        millis += Math.max(0, latency.latency() + jitter);
      }
    }
    return Duration.ofMillis(millis);
  }

  /** The lowest bandwidth on {@code stream}, in bytes per second, or 0 for none. */
  long bandwidth(ToxicStream stream) {
    long lowest = 0;
    for (ActiveToxic toxic : toxics) {
      if (toxic.toxic().kind() instanceof ToxicKind.Bandwidth bandwidth
          && toxic.toxic().stream() == stream) {
        lowest =
            lowest == 0 ? bandwidth.bytesPerSecond() : Math.min(lowest, bandwidth.bytesPerSecond());
      }
    }
    return lowest;
  }

  /**
   * Holds until the toxic is removed, its timeout passes, or the client goes away. Bounded: the
   * toxic's ttl removes it, and closing the proxy removes every toxic.
   */
  static HoldEnd hold(ActiveToxic toxic, Clock clock, ClientCheck client) throws IOException {
    long timeout = ((ToxicKind.Timeout) toxic.toxic().kind()).timeout();
    long deadline = clock.nanoTime() + Duration.ofMillis(timeout).toNanos();
    long limit = toxic.remaining().plus(Duration.ofMillis(timeout)).dividedBy(HOLD_POLL) + 2;
    try {
      for (long i = 0; i <= limit; i++) {
        Duration wait = HOLD_POLL;
        if (timeout > 0) {
          long left = deadline - clock.nanoTime();
          if (left <= 0) {
            return HoldEnd.TIMED_OUT;
          }
          wait = Duration.ofNanos(Math.min(left, HOLD_POLL.toNanos()));
        }
        if (toxic.awaitRemoval(wait)) {
          return HoldEnd.RELEASED;
        }
        if (client.gone()) {
          return HoldEnd.CLIENT_GONE;
        }
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return HoldEnd.CLIENT_GONE;
    }
    return HoldEnd.RELEASED;
  }

  static void sleep(Clock clock, Duration duration) throws IOException {
    if (duration.isZero()) {
      return;
    }
    try {
      clock.sleep(duration);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new java.io.InterruptedIOException("interrupted during latency");
    }
  }

  /** Closes the socket with a TCP RST instead of a FIN. */
  static void reset(Socket socket) {
    try {
      socket.setSoLinger(true, 0);
    } catch (IOException ignored) {
      // the close below still ends the connection
    }
    try {
      socket.close();
    } catch (IOException ignored) {
      // already gone
    }
  }
}
