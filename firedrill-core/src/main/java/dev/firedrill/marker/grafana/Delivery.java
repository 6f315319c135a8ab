package dev.firedrill.marker.grafana;

import dev.firedrill.time.Clock;
import io.opentelemetry.context.Context;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * Sends one request until Grafana accepts it, a bounded number of times with growing waits between
 * attempts; says in a note what each failure was.
 */
final class Delivery {

  /** The waits before the second and third attempts: three attempts in all. */
  static final List<Duration> BACKOFF = List.of(Duration.ofMillis(500), Duration.ofSeconds(1));

  private final GrafanaClient client;
  private final Clock clock;
  private final Consumer<String> notes;

  Delivery(GrafanaClient client, Clock clock, Consumer<String> notes) {
    this.client = client;
    this.clock = clock;
    this.notes = notes;
  }

  /** The longest one delivery can take: every attempt timing out, and every wait between them. */
  static Duration longest(Duration timeout) {
    Duration total = timeout.multipliedBy(BACKOFF.size() + 1L);
    for (Duration wait : BACKOFF) {
      total = total.plus(wait);
    }
    return total;
  }

  /**
   * Whether a request that got no answer took effect all the same: Grafana's answer as it would
   * have been, or empty to send it again.
   */
  interface Lookup {
    Optional<Outcome> find() throws InterruptedException;
  }

  /**
   * Grafana's accepting answer, or empty after a note saying why not and what is lost ({@code
   * lost}, such as "no annotation was created").
   */
  Optional<Outcome> send(String method, String path, String json, Context context, String lost)
      throws InterruptedException {
    return send(method, path, json, context, lost, Optional::empty);
  }

  /**
   * As above; before sending again a request that got no answer (Grafana may have done it and been
   * too slow to say so), asks {@code lookup} whether it took effect, so it is never done twice.
   */
  Optional<Outcome> send(
      String method, String path, String json, Context context, String lost, Lookup lookup)
      throws InterruptedException {
    String request = method + " " + client.url(path) + ": ";
    int attempts = BACKOFF.size() + 1;
    for (int attempt = 1; ; attempt++) {
      Outcome outcome = client.send(method, path, json, context);
      if (outcome.ok()) {
        return Optional.of(outcome);
      }
      if (!outcome.retryable()) {
        notes.accept(request + outcome.describe() + "; not retried; " + lost);
        return Optional.empty();
      }
      if (attempt == attempts) {
        notes.accept(
            request + outcome.describe() + "; gave up after " + attempts + " attempts; " + lost);
        return Optional.empty();
      }
      if (outcome.status().isEmpty()) {
        Optional<Outcome> done = lookup.find();
        if (done.isPresent()) {
          notes.accept(
              request
                  + outcome.describe()
                  + "; it took effect all the same, so it is not sent again");
          return done;
        }
      }
      Duration wait = BACKOFF.get(attempt - 1);
      notes.accept(
          request
              + outcome.describe()
              + "; retrying in "
              + GrafanaClient.millis(wait)
              + " (attempt "
              + attempt
              + " of "
              + attempts
              + ")");
      clock.sleep(wait);
    }
  }
}
