package dev.firedrill.cli;

import dev.firedrill.engine.Planner;
import dev.firedrill.experiment.Experiment;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.stream.Collectors;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

@Command(
    name = "validate",
    description =
        "Check an experiment file: its fields, its PromQL, and every refusal plan"
            + " makes from the file alone (ttl, durations, shares against the blast radius, the error budget). Touches no"
            + " network and no process.")
final class ValidateCommand implements Callable<Integer> {

  @Parameters(paramLabel = "FILE", description = "The experiment file (YAML or JSON).")
  Path file;

  @Mixin CommonOptions common;

  @Spec picocli.CommandLine.Model.CommandSpec spec;

  @Override
  public Integer call() {
    Experiment experiment = Wiring.load(file);
    List<String> refusals = Planner.staticRefusals(experiment);
    if (!refusals.isEmpty()) {
      throw new UserError(
          refusals.stream()
              .map(refusal -> file + ": refused: " + refusal)
              .collect(Collectors.joining("\n")),
          ExitCode.INVALID);
    }
    spec.commandLine()
        .getOut()
        .println(
            file
                + ": valid: experiment "
                + experiment.id()
                + ", "
                + experiment.steadyState().slis().size()
                + " SLI(s), "
                + experiment.method().faults().size()
                + " fault(s), "
                + experiment.abort().rules().size()
                + " abort rule(s)"
                + (experiment.abort().burnRate().isPresent() ? " and a burn-rate guard" : ""));
    return ExitCode.HELD;
  }
}
