package dev.firedrill.engine;

import java.time.Duration;
import java.util.List;

/**
 * Receives a drill's milestones, on the drill's thread: the console, the live status and the
 * markers each are one. Implementations return quickly (slow work such as HTTP goes to their own
 * threads with bounded timeouts), because the rollback calls them too and must never wait on a
 * marker.
 */
public interface DrillObserver extends AutoCloseable {

  void on(Milestone milestone);

  /**
   * Flushes and releases, waiting at most {@code limit}; never throws. Called once after the drill
   * has finished and its faults are rolled back.
   */
  default void close(Duration limit) {}

  @Override
  default void close() {
    close(Duration.ofSeconds(5));
  }

  static DrillObserver noop() {
    return milestone -> {};
  }

  /** Every observer in turn; one that throws never stops the others or the drill. */
  static DrillObserver composite(List<DrillObserver> observers) {
    List<DrillObserver> copy = List.copyOf(observers);
    return new DrillObserver() {
      @Override
      public void on(Milestone milestone) {
        for (DrillObserver observer : copy) {
          try {
            observer.on(milestone);
          } catch (RuntimeException ignored) {
            // A console, journal or marker failing must not decide whether faults are rolled back.
          }
        }
      }

      /**
       * Closes all at once, so one slow sink (a scrape wait, a pending PATCH) never eats the
       * others' time.
       */
      @Override
      public void close(Duration limit) {
        List<Thread> closing =
            copy.stream()
                .map(
                    observer -> {
                      Thread thread =
                          new Thread(
                              () -> {
                                try {
                                  observer.close(limit);
                                } catch (RuntimeException ignored) {
                                  // One sink failing to close must not keep the others open.
                                }
                              },
                              "firedrill-close");
                      thread.setDaemon(true);
                      thread.start();
                      return thread;
                    })
                .toList();
        long deadline = System.nanoTime() + limit.toNanos();
        for (Thread thread : closing) {
          try {
            long left = deadline - System.nanoTime();
            if (left > 0) {
              thread.join(Math.max(1, left / 1_000_000));
            }
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return;
          }
        }
      }
    };
  }
}
