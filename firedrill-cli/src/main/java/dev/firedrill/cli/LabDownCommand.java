package dev.firedrill.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.firedrill.fault.FaultException;
import dev.firedrill.fault.ProcessId;
import dev.firedrill.fault.ProcessTable;
import dev.firedrill.fault.Signal;
import dev.firedrill.time.Clock;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

@Command(name = "down", description = "Stop the lab that 'firedrill lab up' started.")
final class LabDownCommand implements Callable<Integer> {

  @Option(names = "--state-dir", paramLabel = "DIR", defaultValue = ".firedrill-lab",
      description = "The directory 'lab up' used (default: ${DEFAULT-VALUE}).")
  Path stateDir;

  @Mixin CommonOptions common;

  @Spec picocli.CommandLine.Model.CommandSpec spec;

  @Override
  public Integer call() throws IOException, InterruptedException {
    PrintWriter out = spec.commandLine().getOut();
    Path state = stateDir.resolve(LabUpCommand.STATE_FILE);
    if (!Files.exists(state)) {
      out.println(state + ": no lab is up");
      return ExitCode.HELD;
    }
    JsonNode root = new ObjectMapper().readTree(state.toFile());
    ProcessTable table = ProcessTable.system();
    Clock clock = Clock.system();
    int left = 0;
    // Prometheus first, so it does not record the services' disappearance as an outage worth alerting on.
    JsonNode components = root.path("components");
    for (int i = components.size() - 1; i >= 0; i--) {
      JsonNode component = components.get(i);
      String name = component.path("name").asText();
      ProcessId id = new ProcessId(component.path("pid").asLong(), component.path("start").asLong());
      if (!stop(table, id, clock)) {
        left++;
        out.println("lab: " + name + " (PID " + id.pid() + ") is still running; stop it by hand: kill -9 " + id.pid());
      } else {
        out.println("lab: " + name + " stopped");
      }
    }
    if (left > 0) {
      return ExitCode.ROLLBACK_FAILED;
    }
    Files.delete(state);
    out.println("lab is down (logs stay in " + stateDir + ")");
    return ExitCode.HELD;
  }

  /** TERM, up to five seconds, then KILL; a PID whose start time changed is someone else's. */
  private static boolean stop(ProcessTable table, ProcessId id, Clock clock) throws InterruptedException {
    try {
      if (!table.signal(id, Signal.TERM)) {
        return true;
      }
      long deadline = clock.nanoTime() + Duration.ofSeconds(5).toNanos();
      while (table.alive(id) && clock.nanoTime() - deadline < 0) {
        clock.sleep(Duration.ofMillis(100));
      }
      if (table.alive(id)) {
        table.signal(id, Signal.KILL);
        clock.sleep(Duration.ofMillis(200));
      }
      return !table.alive(id);
    } catch (FaultException e) {
      return false;
    }
  }
}
