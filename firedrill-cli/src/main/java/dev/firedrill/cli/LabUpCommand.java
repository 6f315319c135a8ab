package dev.firedrill.cli;

import dev.firedrill.fault.ProcessTable;
import dev.firedrill.lab.stack.LabPorts;
import dev.firedrill.lab.stack.LabStack;
import dev.firedrill.lab.stack.LabState;
import dev.firedrill.lab.stack.StackChoice;
import dev.firedrill.time.Clock;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

@Command(
    name = "up",
    description =
        "Start the lab on its default loopback ports and leave it running for your own "
            + "drills (the fixture experiments point at it). Stop it with 'firedrill lab down'.")
final class LabUpCommand implements Callable<Integer> {

  @Option(
      names = "--state-dir",
      paramLabel = "DIR",
      defaultValue = LabState.DEFAULT_DIRECTORY,
      description =
          "Where the lab keeps its logs, data and the list of its processes (default: ${DEFAULT-VALUE}).")
  Path stateDir;

  @Option(
      names = "--load-duration",
      paramLabel = "DURATION",
      defaultValue = "24h",
      description =
          "How long the load generator runs (default: ${DEFAULT-VALUE}, the most it allows).")
  String loadDuration;

  @Mixin LabStackOptions lab;

  @Mixin CommonOptions common;

  @Spec picocli.CommandLine.Model.CommandSpec spec;

  @Override
  public Integer call() throws IOException, InterruptedException {
    PrintWriter out = spec.commandLine().getOut();
    StackChoice choice = lab.stack("lab up");
    LabState state = LabState.in(stateDir);
    if (state.exists()) {
      throw new UserError(
          state.file() + ": a lab is already up (run 'firedrill lab down' first)",
          ExitCode.INVALID);
    }
    LabPorts ports = LabPorts.defaults();
    int busy = ports.firstInUse();
    if (busy != 0) {
      throw new UserError(
          "127.0.0.1:"
              + busy
              + " is in use: the lab needs its default ports "
              + ports.byName().values()
              + " (is a lab already up? firedrill lab down)",
          ExitCode.INVALID);
    }
    choice.lines().forEach(line -> out.println("lab: " + line));
    Files.createDirectories(stateDir);
    LabStackOptions.Configs configs = lab.configs(stateDir.toAbsolutePath());
    LabStack.Settings settings =
        new LabStack.Settings(
            ports,
            configs.labDir(),
            configs.alertRules(),
            stateDir.toAbsolutePath(),
            LabStackOptions.firedrillCommand(),
            lab.rate,
            dev.firedrill.time.Durations.parse(loadDuration),
            Optional.empty(),
            true);
    LabStack stack;
    try {
      stack =
          LabStack.start(
              settings,
              choice.prometheus(),
              choice.alertmanager(),
              Clock.system(),
              line -> {
                out.println("lab: " + line);
                out.flush();
              });
    } catch (IllegalStateException | java.io.UncheckedIOException e) {
      throw new UserError("firedrill lab up: " + e.getMessage(), ExitCode.INVALID, e);
    }
    stack.release();
    state.write(stack.components(), ProcessTable.system());
    out.println(
        "lab is up; stop it with: firedrill lab down"
            + (stateDir.equals(Path.of(LabState.DEFAULT_DIRECTORY))
                ? ""
                : " --state-dir " + stateDir));
    stack.urls().forEach((name, url) -> out.printf("  %-16s %s%n", name, url));
    return ExitCode.HELD;
  }
}
