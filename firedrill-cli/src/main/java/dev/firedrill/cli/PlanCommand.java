package dev.firedrill.cli;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.firedrill.alerting.AlertPlan;
import dev.firedrill.alerting.AlertStackException;
import dev.firedrill.alerting.AlertmanagerException;
import dev.firedrill.alerting.RuleBook;
import dev.firedrill.alerting.routes.RouteConfigException;
import dev.firedrill.alerting.routes.RouteTree;
import dev.firedrill.engine.Plan;
import dev.firedrill.engine.Planner;
import dev.firedrill.experiment.AlertmanagerSource;
import dev.firedrill.experiment.Experiment;
import dev.firedrill.fault.FaultKinds;
import dev.firedrill.guard.ErrorBudget;
import dev.firedrill.time.Durations;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.function.Consumer;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

@Command(
    name = "plan",
    description =
        "Print the refusals, the error-budget arithmetic and each fault's exact actions. Executes nothing.")
final class PlanCommand implements Callable<Integer> {

  @Parameters(paramLabel = "FILE", description = "The experiment file (YAML or JSON).")
  Path file;

  @Option(
      names = "--resolve",
      description =
          "Choose the targets against the live system (a cluster's pods) and print the selection"
              + " with the limit's numbers; reads only.")
  boolean resolve;

  @Mixin OutputOption output;

  @Mixin CommonOptions common;

  @Spec picocli.CommandLine.Model.CommandSpec spec;

  @Override
  public Integer call() {
    Experiment experiment = Wiring.load(file);
    Plan plan = new Planner(Wiring.faults(experiment, resolve)).plan(experiment);
    PrintWriter out = spec.commandLine().getOut();
    if (output.json()) {
      return json(experiment, plan, out);
    }
    out.println("experiment " + experiment.id() + ": " + experiment.title());
    out.println(
        "method: "
            + Durations.format(experiment.method().duration())
            + ", measured every "
            + Durations.format(experiment.steadyState().interval())
            + ", recovery within "
            + Durations.format(experiment.hypothesis().recovery()));
    out.println(
        plan.budget()
            .map(ErrorBudget::text)
            .orElse("error budget: not computed (abort.burn_rate gives the objective it needs)"));
    for (int i = 0; i < plan.faults().size(); i++) {
      Plan.PlannedFault fault = plan.faults().get(i);
      out.println(
          "fault "
              + i
              + " ("
              + fault.fault().spec().kind()
              + ", ttl "
              + fault.fault().spec().ttl().map(Durations::format).orElse("none")
              + ", enforced by "
              + fault.fault().ttlEnforcer().words()
              + "):");
      FaultKinds.installed()
          .words(fault.fault().spec())
          .ifPresent(words -> out.println("  " + words));
      fault.actions().forEach(action -> out.println("  " + action));
    }
    List<String> refusals = new ArrayList<>(plan.refusals());
    if (!experiment.hypothesis().alerts().isEmpty()) {
      refusals.addAll(planAlerts(experiment, out::println));
    }
    if (!refusals.isEmpty()) {
      String refused = common.colour().verdict("refused");
      refusals.forEach(refusal -> out.println(refused + ": " + refusal));
      return ExitCode.INVALID;
    }
    out.println("nothing was executed");
    return ExitCode.HELD;
  }

  /**
   * Reads Prometheus's rules and Alertmanager's route tree (reading only) to check the expected
   * alerts.
   */
  private static List<String> planAlerts(Experiment experiment, Consumer<String> out) {
    RuleBook rules;
    try {
      rules =
          Wiring.alertStack(experiment, System.getenv(), Optional.empty(), Optional.empty())
              .rules();
    } catch (AlertStackException e) {
      out.accept("alerts: not checked against Prometheus's rules: " + e.getMessage());
      return List.of();
    }
    out.accept(rules.intervalsText());
    Optional<RouteTree> routes = Optional.empty();
    if (experiment.alertmanager().isPresent()) {
      AlertmanagerSource source = experiment.alertmanager().get();
      try {
        RouteTree tree = Wiring.alertmanager(source, System.getenv()).routes();
        tree.warnings().forEach(warning -> out.accept("routing: warning: " + warning));
        routes = Optional.of(tree);
      } catch (AlertmanagerException | RouteConfigException e) {
        out.accept("routing: not checked: " + e.getMessage());
      }
    }
    AlertPlan.Result result = AlertPlan.of(experiment.hypothesis().alerts(), rules, routes);
    result.lines().forEach(line -> out.accept("alert " + line));
    return result.refusals();
  }

  private int json(Experiment experiment, Plan plan, PrintWriter out) {
    ObjectNode doc = OutputOption.document("plan");
    ObjectNode about = doc.putObject("experiment");
    about.put("id", experiment.id());
    about.put("title", experiment.title());
    ObjectNode method = doc.putObject("method");
    method.put("duration_seconds", seconds(experiment.method().duration()));
    method.put("interval_seconds", seconds(experiment.steadyState().interval()));
    method.put("recovery_seconds", seconds(experiment.hypothesis().recovery()));
    doc.put("budget", plan.budget().map(ErrorBudget::text).orElse(null));
    ArrayNode faults = doc.putArray("faults");
    for (Plan.PlannedFault fault : plan.faults()) {
      ObjectNode row = faults.addObject();
      row.put("kind", fault.fault().spec().kind());
      fault
          .fault()
          .spec()
          .ttl()
          .ifPresentOrElse(
              ttl -> row.put("ttl_seconds", seconds(ttl)), () -> row.putNull("ttl_seconds"));
      row.put("words", FaultKinds.installed().words(fault.fault().spec()).orElse(null));
      ArrayNode actions = row.putArray("actions");
      fault.actions().forEach(actions::add);
    }
    ArrayNode alerts = doc.putArray("alerts");
    List<String> refusals = new ArrayList<>(plan.refusals());
    if (!experiment.hypothesis().alerts().isEmpty()) {
      refusals.addAll(planAlerts(experiment, alerts::add));
    }
    ArrayNode refused = doc.putArray("refusals");
    refusals.forEach(refused::add);
    doc.put("executed", false);
    OutputOption.print(out, doc);
    return refusals.isEmpty() ? ExitCode.HELD : ExitCode.INVALID;
  }

  private static double seconds(java.time.Duration duration) {
    return duration.toMillis() / 1000.0;
  }
}
