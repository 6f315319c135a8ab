package dev.firedrill.fault;

import dev.firedrill.time.Clock;
import java.math.BigDecimal;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * Enforces a process-kill STOP's TTL from outside firedrill: waits the TTL, then sends CONT to the
 * recorded (PID, start time) pairs, so a paused service resumes even when firedrill was SIGKILLed.
 *
 * <p>Usage: {@code Watchdog --seconds <ttl> --experiment <id> --target <pid>:<start-ticks> ...}.
 * Prints {@value #READY} once its deadline runs, so the injector only pauses what is guarded.
 */
public final class Watchdog {

  static final String READY = "watchdog ready";
  private static final Duration CHECK = Duration.ofSeconds(1);

  private Watchdog() {}

  public static void main(String[] args) throws Exception {
    Clock clock = Clock.system();
    long start = clock.nanoTime();
    ignoreTerminalSignals();
    BigDecimal seconds = null;
    List<ProcessId> targets = new ArrayList<>();
    for (int i = 0; i + 1 < args.length; i += 2) {
      switch (args[i]) {
        case "--seconds" -> seconds = new BigDecimal(args[i + 1]);
        case "--target" -> targets.add(parseTarget(args[i + 1]));
        default -> {}
      }
    }
    if (seconds == null || targets.isEmpty()) {
      System.err.println("Watchdog: expected --seconds <ttl> --target <pid>:<start-ticks> ...");
      System.exit(2);
    }
    long deadline = start + seconds.movePointRight(9).longValue();
    System.out.println(READY);
    System.out.flush();
    ProcessTable processes = ProcessTable.system();
    // Checks each second so it can leave early once every target is gone.
    while (clock.nanoTime() - deadline < 0 && targets.stream().anyMatch(processes::alive)) {
      long left = deadline - clock.nanoTime();
      clock.sleep(Duration.ofNanos(Math.min(left, CHECK.toNanos())));
    }
    for (ProcessId target : targets) {
      try {
        processes.signal(target, Signal.CONT);
      } catch (FaultException e) {
        System.err.println("Watchdog: " + e.getMessage());
      }
    }
  }

  private static ProcessId parseTarget(String text) {
    String[] parts = text.split(":");
    if (parts.length != 2) {
      throw new IllegalArgumentException(
          "--target: expected <pid>:<start-ticks>, got \"" + text + "\"");
    }
    return new ProcessId(Long.parseLong(parts[0]), Long.parseLong(parts[1]));
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
