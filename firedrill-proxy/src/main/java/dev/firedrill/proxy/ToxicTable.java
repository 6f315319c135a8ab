package dev.firedrill.proxy;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/**
 * The toxics of one proxy. Each one is removed by a scheduled task when its ttl ends, with no call
 * from outside. The data path reads an immutable snapshot, so requests never wait on a lock.
 */
public final class ToxicTable implements AutoCloseable {

  /** Adding a toxic whose name is taken. */
  public static final class Conflict extends Exception {
    private static final long serialVersionUID = 1L;

    Conflict(String message) {
      super(message);
    }
  }

  private final ProxyMetrics metrics;
  private final LongSupplier nanoTime;
  private final ScheduledExecutorService expiry =
      Executors.newSingleThreadScheduledExecutor(
          r -> {
            Thread thread = new Thread(r, "firedrill-proxy-ttl");
            thread.setDaemon(true);
            return thread;
          });
  private final Map<String, ActiveToxic> byName = new LinkedHashMap<>();
  private final Map<String, ScheduledFuture<?>> timers = new LinkedHashMap<>();
  private volatile List<ActiveToxic> snapshot = List.of();

  ToxicTable(ProxyMetrics metrics, LongSupplier nanoTime) {
    this.metrics = metrics;
    this.nanoTime = nanoTime;
  }

  /** Adds a toxic and schedules its removal at its ttl. */
  public ActiveToxic add(Toxic toxic) throws Conflict {
    synchronized (byName) {
      if (byName.containsKey(toxic.name())) {
        throw new Conflict("toxic " + toxic.name() + " already exists");
      }
      ActiveToxic active =
          new ActiveToxic(toxic, nanoTime.getAsLong() + toxic.ttl().toNanos(), nanoTime);
      byName.put(toxic.name(), active);
      timers.put(
          toxic.name(),
          expiry.schedule(() -> expire(active), toxic.ttl().toNanos(), TimeUnit.NANOSECONDS));
      publish();
      return active;
    }
  }

  /** Removes a toxic; false when there is none of that name. */
  public boolean remove(String name) {
    return remove(name, null);
  }

  private void expire(ActiveToxic active) {
    if (remove(active.toxic().name(), active)) {
      metrics.expired();
    }
  }

  private boolean remove(String name, ActiveToxic only) {
    ActiveToxic removed;
    synchronized (byName) {
      removed = byName.get(name);
      if (removed == null || (only != null && removed != only)) {
        return false;
      }
      byName.remove(name);
      ScheduledFuture<?> timer = timers.remove(name);
      if (timer != null && only == null) {
        timer.cancel(false);
      }
      publish();
    }
    removed.markRemoved();
    return true;
  }

  public Optional<ActiveToxic> get(String name) {
    synchronized (byName) {
      return Optional.ofNullable(byName.get(name));
    }
  }

  /** The toxics in force, in the order they were added. */
  public List<ActiveToxic> active() {
    return snapshot;
  }

  private void publish() {
    snapshot = List.copyOf(byName.values());
    Map<String, Integer> counts = new LinkedHashMap<>();
    ToxicKind.TYPES.forEach(type -> counts.put(type, 0));
    snapshot.forEach(active -> counts.merge(active.toxic().type(), 1, Integer::sum));
    counts.forEach(metrics::active);
  }

  /** Removes every toxic (releasing held requests) and stops the expiry timer. Does not wait. */
  @Override
  public void close() {
    List<String> names;
    synchronized (byName) {
      names = new ArrayList<>(byName.keySet());
    }
    names.forEach(this::remove);
    expiry.shutdownNow();
  }
}
