package dev.firedrill.lab.service;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/** Daemon threads with names, and a shutdown that waits a bounded time. */
final class Threads {

  private static final long SHUTDOWN_WAIT_MILLIS = 1_000;

  private Threads() {}

  static ThreadFactory named(String prefix) {
    AtomicInteger next = new AtomicInteger();
    return task -> {
      Thread thread = new Thread(task, prefix + "-" + next.incrementAndGet());
      thread.setDaemon(true);
      return thread;
    };
  }

  /** Interrupts the pool's tasks and waits at most a second for them. */
  static void stop(ExecutorService pool) {
    pool.shutdownNow();
    try {
      pool.awaitTermination(SHUTDOWN_WAIT_MILLIS, TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
