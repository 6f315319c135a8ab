package dev.firedrill.cli;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
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

  @Mixin OutputOption output;

  @Mixin CommonOptions common;

  @Spec picocli.CommandLine.Model.CommandSpec spec;

  @Override
  public Integer call() {
    if (output.json()) {
      return json();
    }
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
                + ": "
                + common.colour().verdict("valid")
                + ": experiment "
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

  /** The same checks, one document whatever the outcome: a pipeline reads errors as fields. */
  private int json() {
    ObjectNode doc = OutputOption.document("validate");
    doc.put("file", file.toString());
    ArrayNode errors = doc.putArray("errors");
    ArrayNode refusals = doc.putArray("refusals");
    int exit = ExitCode.HELD;
    try {
      Experiment experiment = Wiring.load(file);
      Planner.staticRefusals(experiment).forEach(refusals::add);
      doc.put("experiment", experiment.id());
      doc.put("slis", experiment.steadyState().slis().size());
      doc.put("faults", experiment.method().faults().size());
      doc.put("abort_rules", experiment.abort().rules().size());
      doc.put("burn_rate_guard", experiment.abort().burnRate().isPresent());
    } catch (UserError e) {
      e.getMessage().lines().forEach(errors::add);
      exit = e.exitCode();
    }
    if (!refusals.isEmpty()) {
      exit = ExitCode.INVALID;
    }
    doc.put("valid", exit == ExitCode.HELD);
    OutputOption.print(spec.commandLine().getOut(), doc);
    return exit;
  }
}
