package dev.firedrill.marker.metrics;

import dev.firedrill.time.Clock;
import io.opentelemetry.context.Context;
import java.time.Duration;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;

/**
 * Pushes the drill's registry to a Pushgateway on a thread of its own, so the drill never waits on
 * it: a push on each change (changes that arrive while one is on the wire share the next push), and
 * at the end the last state, a hold so Prometheus can scrape the 0, and the group's deletion.
 */
final class Pusher {

  /** Kept free before the close limit for the DELETE: one request's timeouts. */
  static final Duration DELETE_RESERVE =
      PushgatewayClient.CONNECT_TIMEOUT.plus(PushgatewayClient.REQUEST_TIMEOUT);

  private final PushgatewayClient client;
  private final DrillMetrics metrics;
  private final Clock clock;
  private final Duration hold;
  private final Consumer<String> notes;
  private final ExecutorService thread =
      Executors.newSingleThreadExecutor(
          runnable -> {
            Thread t = new Thread(runnable, "firedrill-pushgateway");
            t.setDaemon(true);
            return t;
          });
  private final AtomicBoolean queued = new AtomicBoolean();
  private volatile Context context = Context.root();
  // Touched only on the push thread.
  private boolean attempted;
  private long zeroPushedAt;
  private boolean zeroPushed;
  private String lastNote = "";

  Pusher(
      PushgatewayClient client,
      DrillMetrics metrics,
      Clock clock,
      Duration hold,
      Consumer<String> notes) {
    this.client = client;
    this.metrics = metrics;
    this.clock = clock;
    this.hold = hold;
    this.notes = notes;
  }

  /** Schedules a push of the registry as it will be when the push thread gets to it. */
  void push(Context current) {
    context = current;
    if (queued.compareAndSet(false, true)) {
      try {
        thread.execute(this::pushNow);
      } catch (RejectedExecutionException e) {
        queued.set(false);
      }
    }
  }

  /**
   * Pushes the last state, holds the group until {@code hold} has passed since the 0 was pushed,
   * deletes it; all within {@code limit}. Returns whether the group is gone (or was never made).
   */
  boolean close(Duration limit) {
    long deadline = clock.nanoTime() + limit.toNanos();
    Future<Boolean> finishing;
    try {
      finishing = thread.submit(() -> finish(deadline));
    } catch (RejectedExecutionException e) {
      return false;
    }
    thread.shutdown();
    try {
      return finishing.get(Math.max(1, limit.toMillis()), TimeUnit.MILLISECONDS);
    } catch (TimeoutException e) {
      thread.shutdownNow();
      note(
          "gave up waiting for "
              + client.group().url()
              + "; delete the group by hand: curl -X DELETE "
              + client.group().url());
      return false;
    } catch (ExecutionException e) {
      note("pushgateway: " + e.getCause());
      return false;
    } catch (InterruptedException e) {
      thread.shutdownNow();
      Thread.currentThread().interrupt();
      return false;
    }
  }

  private void pushNow() {
    queued.set(false);
    DrillMetrics.Snapshot snapshot = metrics.snapshot();
    attempted = true;
    try {
      client.put(snapshot.text(), context);
      if (snapshot.zeroAfterOne() && !zeroPushed) {
        zeroPushed = true;
        zeroPushedAt = clock.nanoTime();
      } else if (!snapshot.zeroAfterOne()) {
        zeroPushed = false;
      }
    } catch (PushgatewayClient.PushException e) {
      note(e.getMessage());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private boolean finish(long deadline) {
    if (!attempted) {
      return true;
    }
    pushNow();
    if (zeroPushed) {
      long until = Math.min(zeroPushedAt + hold.toNanos(), deadline - DELETE_RESERVE.toNanos());
      try {
        for (long left = until - clock.nanoTime(); left > 0; left = until - clock.nanoTime()) {
          clock.sleep(Duration.ofNanos(left));
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return false;
      }
    }
    try {
      client.delete(context);
      return true;
    } catch (PushgatewayClient.PushException e) {
      note(e.getMessage() + "; delete the group by hand: curl -X DELETE " + client.group().url());
      return false;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }

  private synchronized void note(String text) {
    String line = "metrics: pushgateway " + text;
    if (!line.equals(lastNote)) {
      lastNote = line;
      notes.accept(line);
    }
  }
}
