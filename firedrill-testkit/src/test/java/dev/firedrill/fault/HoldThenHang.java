package dev.firedrill.fault;

import dev.firedrill.experiment.BlastRadius;
import dev.firedrill.experiment.FaultSpec;
import dev.firedrill.time.Clock;
import dev.firedrill.watchdog.DeadMansSwitch;
import dev.firedrill.watchdog.WatchdogFiles;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * A stand-in firedrill for the SIGKILL test: holds a STOP in the watchdog, injects it, renews the
 * lease twice a second and reports the watchdog's process, then waits to be killed.
 *
 * <p>Usage: {@code HoldThenHang <match> <journal> <ttl-ms> <grace-ms>}.
 */
public final class HoldThenHang {

  private HoldThenHang() {}

  public static void main(String[] args) throws Exception {
    String match = args[0];
    Path journal = Path.of(args[1]);
    Duration ttl = Duration.ofMillis(Long.parseLong(args[2]));
    Duration grace = Duration.ofMillis(Long.parseLong(args[3]));
    FaultContext context =
        FaultContext.onThisHost(
            "sigkill",
            new BlastRadius(1.0, Duration.ofHours(1), 0.05, 1, 1),
            Duration.ofSeconds(1));
    Fault fault =
        Faults.create(
            new FaultSpec.ProcessKill(match, "STOP", Optional.empty(), Optional.of(ttl)), context);
    DeadMansSwitch watchdog =
        new DeadMansSwitch(
            WatchdogFiles.beside(journal),
            "sigkill",
            Duration.ofSeconds(1),
            grace,
            WorkerLauncher.current(),
            ProcessTable.system(),
            Clock.system());
    fault.plan();
    ProcessId process = watchdog.hold(0, fault).orElseThrow();
    fault.inject();
    watchdog.update(0, fault);
    ScheduledExecutorService renewals = Executors.newSingleThreadScheduledExecutor();
    renewals.scheduleAtFixedRate(watchdog::renew, 0, 500, TimeUnit.MILLISECONDS);
    System.out.println("injected " + process.pid() + ":" + process.startTicks());
    System.out.flush();
    // Bounded, in case the test that should kill us dies first.
    renewals.awaitTermination(60, TimeUnit.SECONDS);
    renewals.shutdownNow();
  }
}
