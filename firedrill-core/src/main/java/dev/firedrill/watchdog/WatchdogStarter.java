package dev.firedrill.watchdog;

import dev.firedrill.fault.FaultException;
import dev.firedrill.fault.ProcessId;
import dev.firedrill.fault.ProcessInfo;
import dev.firedrill.fault.ProcessTable;
import dev.firedrill.fault.WorkerLauncher;
import dev.firedrill.time.Clock;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Starts the {@link Watchdog} JVM, detached, and returns only once it reports that it holds the
 * faults. Under {@code setsid} where there is one, so that a signal to firedrill's process group or
 * session (Ctrl-C, a closed terminal) does not reach it; its stderr goes to a log beside the
 * record.
 */
final class WatchdogStarter {

  static final List<String> JVM_OPTIONS =
      List.of("-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-Xmx32m");
  static final Duration READY_LIMIT = Duration.ofSeconds(20);
  static final Duration POLL = Duration.ofMillis(50);
  private static final Path SETSID = Path.of("/usr/bin/setsid");

  private final WorkerLauncher launcher;
  private final ProcessTable processes;
  private final Clock clock;

  WatchdogStarter(WorkerLauncher launcher, ProcessTable processes, Clock clock) {
    this.launcher = launcher;
    this.processes = processes;
    this.clock = clock;
  }

  static Path log(WatchdogFiles files) {
    String name = files.record().getFileName().toString();
    return files.record().resolveSibling(name.replaceFirst("\\.json$", "") + ".log");
  }

  ProcessId start(WatchdogFiles files) throws FaultException {
    List<String> command = new ArrayList<>();
    if (Files.isExecutable(SETSID)) {
      command.add(SETSID.toString());
    }
    command.addAll(launcher.command(JVM_OPTIONS, Watchdog.class, Watchdog.args(files)));
    Process process;
    try {
      process =
          new ProcessBuilder(command)
              .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
              .redirectOutput(ProcessBuilder.Redirect.PIPE)
              .redirectError(ProcessBuilder.Redirect.appendTo(log(files).toFile()))
              .start();
    } catch (IOException e) {
      throw new FaultException(
          "cannot start the watchdog with " + command.get(0) + ": " + e.getMessage(), e);
    }
    try (InputStream out = process.getInputStream()) {
      StringBuilder seen = new StringBuilder();
      long deadline = clock.nanoTime() + READY_LIMIT.toNanos();
      while (!readAvailable(out, seen).contains(Watchdog.READY)
          && process.isAlive()
          && clock.nanoTime() - deadline < 0) {
        clock.sleep(POLL);
      }
      Optional<ProcessId> id = processes.find(process.pid()).map(ProcessInfo::id);
      if (seen.toString().contains(Watchdog.READY) && id.isPresent()) {
        return id.get();
      }
      process.destroyForcibly();
      throw new FaultException(
          "the watchdog (PID "
              + process.pid()
              + ") did not report \""
              + Watchdog.READY
              + "\" within "
              + READY_LIMIT.toSeconds()
              + "s"
              + (process.isAlive() ? "" : "; it exited, see " + log(files))
              + "; nothing was injected without a guard");
    } catch (IOException e) {
      process.destroyForcibly();
      throw new FaultException("cannot read the watchdog's output: " + e.getMessage(), e);
    } catch (InterruptedException e) {
      process.destroyForcibly();
      Thread.currentThread().interrupt();
      throw new FaultException("interrupted while starting the watchdog", e);
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
