package dev.firedrill.fault;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** Starts a {@link Watchdog} JVM and returns only once it reports that its deadline runs. */
final class WatchdogStarter {

  static final List<String> JVM_OPTIONS =
      List.of("-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-Xmx16m");
  static final Duration READY_LIMIT = Duration.ofSeconds(20);

  private final FaultContext context;

  WatchdogStarter(FaultContext context) {
    this.context = context;
  }

  static List<String> args(String seconds, String experimentId, List<ProcessId> targets) {
    List<String> args =
        new ArrayList<>(List.of("--seconds", seconds, "--experiment", experimentId));
    for (ProcessId target : targets) {
      args.add("--target");
      args.add(target.pid() + ":" + target.startTicks());
    }
    return args;
  }

  ProcessId start(List<String> args) throws FaultException {
    List<String> command = context.launcher().command(JVM_OPTIONS, Watchdog.class, args);
    Process process;
    try {
      process =
          WorkerLauncher.detached(command).redirectOutput(ProcessBuilder.Redirect.PIPE).start();
    } catch (IOException e) {
      throw new FaultException(
          "process-kill: cannot start the watchdog with " + command.get(0) + ": " + e.getMessage(),
          e);
    }
    Optional<ProcessId> id = context.processes().find(process.pid()).map(ProcessInfo::id);
    try (InputStream out = process.getInputStream()) {
      StringBuilder seen = new StringBuilder();
      boolean ready =
          Waits.until(
              context.clock(),
              READY_LIMIT,
              () -> readAvailable(out, seen).contains(Watchdog.READY) || !process.isAlive());
      if (ready && seen.toString().contains(Watchdog.READY) && id.isPresent()) {
        return id.get();
      }
      process.destroyForcibly();
      throw new FaultException(
          "process-kill: the watchdog (PID "
              + process.pid()
              + ") did not report \""
              + Watchdog.READY
              + "\" within "
              + READY_LIMIT.toSeconds()
              + "s"
              + (process.isAlive() ? "" : "; it exited")
              + "; nothing was paused without a guard");
    } catch (IOException e) {
      process.destroyForcibly();
      throw new FaultException(
          "process-kill: cannot read the watchdog's output: " + e.getMessage(), e);
    } catch (InterruptedException e) {
      process.destroyForcibly();
      Thread.currentThread().interrupt();
      throw new FaultException("process-kill: interrupted while starting the watchdog", e);
    }
  }

  private static String readAvailable(InputStream in, StringBuilder seen) {
    try {
      int available = in.available();
      if (available > 0) {
        seen.append(new String(in.readNBytes(available), StandardCharsets.US_ASCII));
      }
    } catch (IOException e) {
      // A closed pipe means the watchdog exited; the caller sees that through isAlive.
    }
    return seen.toString();
  }
}
