package dev.firedrill.cli;

import dev.firedrill.fault.ProcessTable;
import dev.firedrill.lab.stack.LabState;
import dev.firedrill.lab.stack.LabStop;
import dev.firedrill.time.Clock;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

@Command(
    name = "down",
    description =
        "Stop the lab that 'firedrill lab up' started. Exit 0 when it is down (or was "
            + "not up), 7 when a process would not stop and needs a human.")
final class LabDownCommand implements Callable<Integer> {

  @Option(
      names = "--state-dir",
      paramLabel = "DIR",
      defaultValue = LabState.DEFAULT_DIRECTORY,
      description = "The directory 'lab up' used (default: ${DEFAULT-VALUE}).")
  Path stateDir;

  @Mixin CommonOptions common;

  @Spec picocli.CommandLine.Model.CommandSpec spec;

  @Override
  public Integer call() throws InterruptedException {
    PrintWriter out = spec.commandLine().getOut();
    LabStop.Outcome outcome;
    try {
      outcome =
          new LabStop(ProcessTable.system(), Clock.system())
              .stop(
                  LabState.in(stateDir),
                  step -> {
                    out.println("lab: " + step.line());
                    out.flush();
                  });
    } catch (IOException e) {
      throw new UserError("firedrill lab down: " + e.getMessage(), ExitCode.INVALID, e);
    }
    if (outcome instanceof LabStop.Outcome.NotUp notUp) {
      out.println(notUp.stateFile() + ": no lab is up");
    } else if (outcome instanceof LabStop.Outcome.Down) {
      out.println("lab is down (logs stay in " + stateDir + ")");
    }
    return ExitCode.of(outcome);
  }
}
