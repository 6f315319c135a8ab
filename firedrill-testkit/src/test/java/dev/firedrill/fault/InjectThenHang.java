package dev.firedrill.fault;

import dev.firedrill.experiment.BlastRadius;
import dev.firedrill.experiment.FaultSpec;
import java.time.Duration;
import java.util.Optional;

/**
 * A stand-in firedrill for the SIGKILL test: injects a STOP, reports the watchdog, then waits to be
 * killed.
 */
public final class InjectThenHang {

  private InjectThenHang() {}

  public static void main(String[] args) throws Exception {
    String match = args[0];
    Duration ttl = Duration.ofMillis(Long.parseLong(args[1]));
    FaultContext context =
        FaultContext.onThisHost(
            "sigkill",
            new BlastRadius(1.0, Duration.ofHours(1), 0.05, 1, 1),
            Duration.ofSeconds(1));
    Fault fault =
        Faults.create(
            new FaultSpec.ProcessKill(match, "STOP", Optional.empty(), Optional.of(ttl)), context);
    fault.inject();
    Object watchdog = fault.state().get("watchdog");
    System.out.println(
        "injected "
            + ProcessId.fromState(watchdog, "watchdog").pid()
            + ":"
            + ProcessId.fromState(watchdog, "watchdog").startTicks());
    System.out.flush();
    // Bounded, in case the test that should kill us dies first.
    Thread.sleep(60_000);
  }
}
