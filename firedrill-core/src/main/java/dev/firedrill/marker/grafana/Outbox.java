package dev.firedrill.marker.grafana;

import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * Runs requests one after another on one background thread, so the drill's thread never waits on
 * Grafana and a region's end is always sent after its start.
 */
final class Outbox {

  /** A request that may block; it restores the interrupt flag and returns when interrupted. */
  interface Work {
    void run() throws InterruptedException;
  }

  private final ExecutorService worker =
      new ThreadPoolExecutor(
          1,
          1,
          0,
          TimeUnit.MILLISECONDS,
          new LinkedBlockingQueue<>(),
          runnable -> {
            Thread thread = new Thread(runnable, "firedrill-grafana");
            thread.setDaemon(true);
            return thread;
          });

  /** Submitted and not finished, in order. */
  private final Set<Task> unfinished = Collections.synchronizedSet(new LinkedHashSet<>());

  void submit(String description, Work work) {
    Task task = new Task(description, work);
    unfinished.add(task);
    try {
      worker.execute(task);
    } catch (RejectedExecutionException e) {
      // Closed: the drill is over and nothing more is sent.
      unfinished.remove(task);
    }
  }

  /**
   * Lets the queued requests finish for at most {@code limit}; returns what was still unsent when
   * the limit ran out (empty when everything went).
   */
  List<String> close(Duration limit) {
    worker.shutdown();
    try {
      if (worker.awaitTermination(limit.toNanos(), TimeUnit.NANOSECONDS)) {
        return List.of();
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    List<String> unsent;
    synchronized (unfinished) {
      unsent = unfinished.stream().map(task -> task.description).toList();
    }
    worker.shutdownNow();
    return unsent;
  }

  private final class Task implements Runnable {
    private final String description;
    private final Work work;

    Task(String description, Work work) {
      this.description = description;
      this.work = work;
    }

    @Override
    public void run() {
      try {
        work.run();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      } finally {
        unfinished.remove(this);
      }
    }
  }
}
