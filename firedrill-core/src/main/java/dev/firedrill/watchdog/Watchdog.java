package dev.firedrill.watchdog;

import dev.firedrill.time.Clock;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * firedrill's dead-man's switch, a JVM of its own: holds every watchdog-enforced fault of one run
 * and undoes it when firedrill stops renewing its lease or the fault's ttl runs out, then exits
 * once nothing is left to hold.
 *
 * <p>Usage: {@code Watchdog --holds <file> --lease <file> --record <file>}. Prints {@value #READY}
 * once it has read the holds, so firedrill injects only what is held.
 */
public final class Watchdog {

  static final String READY = "watchdog ready";
  static final Duration TICK = Duration.ofMillis(500);

  private Watchdog() {}

  public static void main(String[] args) throws InterruptedException {
    ignoreTerminalSignals();
    WatchdogFiles files;
    try {
      files = files(args);
    } catch (IllegalArgumentException e) {
      System.err.println("Watchdog: " + e.getMessage());
      System.exit(2);
      return;
    }
    Keeper keeper = new Keeper(files, Clock.system(), Keeper::restoreOnThisHost, System.err);
    if (!awaitHolds(keeper)) {
      System.err.println("Watchdog: no holds in " + files.holds() + "; nothing to guard");
      System.exit(1);
    }
    System.out.println(READY);
    System.out.flush();
    CountDownLatch done = new CountDownLatch(1);
    ScheduledExecutorService scheduler = Executors.newSingleThreadScheduledExecutor();
    scheduler.scheduleWithFixedDelay(
        () -> {
          // A throwing task is never run again: the guard must outlive any one bad tick.
          try {
            if (!keeper.tick()) {
              done.countDown();
            }
          } catch (RuntimeException e) {
            System.err.println("Watchdog: " + e);
          }
        },
        0,
        TICK.toMillis(),
        TimeUnit.MILLISECONDS);
    done.await();
    scheduler.shutdownNow();
    System.exit(0);
  }

  /** firedrill writes the holds before it starts us; a short wait covers a slow file system. */
  private static boolean awaitHolds(Keeper keeper) throws InterruptedException {
    ScheduledExecutorService scheduler = Executors.newSingleThreadScheduledExecutor();
    try {
      for (int i = 0; i < 20; i++) {
        boolean holding =
            scheduler
                .schedule(() -> safeHolding(keeper), i == 0 ? 0 : 100, TimeUnit.MILLISECONDS)
                .get();
        if (holding) {
          return true;
        }
      }
      return false;
    } catch (java.util.concurrent.ExecutionException e) {
      return false;
    } finally {
      scheduler.shutdownNow();
    }
  }

  private static boolean safeHolding(Keeper keeper) {
    try {
      return keeper.holding();
    } catch (IOException | RuntimeException e) {
      return false;
    }
  }

  static WatchdogFiles files(String[] args) {
    Path holds = null;
    Path lease = null;
    Path record = null;
    for (int i = 0; i + 1 < args.length; i += 2) {
      switch (args[i]) {
        case "--holds" -> holds = Path.of(args[i + 1]);
        case "--lease" -> lease = Path.of(args[i + 1]);
        case "--record" -> record = Path.of(args[i + 1]);
        default -> throw new IllegalArgumentException("unknown argument " + args[i]);
      }
    }
    if (holds == null || lease == null || record == null) {
      throw new IllegalArgumentException(
          "expected --holds <file> --lease <file> --record <file>, got " + List.of(args));
    }
    return new WatchdogFiles(holds, lease, record);
  }

  static List<String> args(WatchdogFiles files) {
    return List.of(
        "--holds",
        files.holds().toString(),
        "--lease",
        files.lease().toString(),
        "--record",
        files.record().toString());
  }

  /** Ctrl-C on firedrill reaches its whole process group; the guard must not die with it. */
  @SuppressWarnings("removal")
  private static void ignoreTerminalSignals() {
    for (String name : List.of("INT", "HUP")) {
      try {
        sun.misc.Signal.handle(new sun.misc.Signal(name), sun.misc.SignalHandler.SIG_IGN);
      } catch (IllegalArgumentException | UnsupportedOperationException e) {
        // The JVM reserves the signal (for example under -Xrs); TERM and KILL still stop us.
      }
    }
  }
}
