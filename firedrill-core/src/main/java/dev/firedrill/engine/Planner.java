package dev.firedrill.engine;

import dev.firedrill.experiment.BlastRadius;
import dev.firedrill.experiment.Experiment;
import dev.firedrill.experiment.FaultSpec;
import dev.firedrill.fault.Fault;
import dev.firedrill.fault.FaultChecks;
import dev.firedrill.fault.FaultException;
import dev.firedrill.fault.FaultRefusedException;
import dev.firedrill.guard.ErrorBudget;
import dev.firedrill.time.Durations;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalDouble;

/** The plan phase: static refusals, the error-budget arithmetic and each fault's exact actions. */
public final class Planner {

  private final FaultProvider faults;

  public Planner(FaultProvider faults) {
    this.faults = faults;
  }

  public Plan plan(Experiment experiment) {
    List<String> refusals = new ArrayList<>(experimentRefusals(experiment));
    List<Plan.PlannedFault> planned = new ArrayList<>();
    List<FaultSpec> specs = experiment.method().faults();
    for (int i = 0; i < specs.size(); i++) {
      FaultSpec spec = specs.get(i);
      Fault fault = faults.create(i, spec);
      try {
        planned.add(new Plan.PlannedFault(fault, fault.plan())); // the plan runs FaultChecks first
      } catch (FaultException e) {
        refusals.add(faultRefusal(i, spec, e));
        planned.add(new Plan.PlannedFault(fault, List.of()));
      }
    }
    return new Plan(refusals, budget(experiment), planned);
  }

  /**
   * Every refusal the file alone earns, with no network, no process table and no fault built:
   * {@code validate} refuses exactly these, and {@link #plan} refuses them and what the host adds.
   */
  public static List<String> staticRefusals(Experiment experiment) {
    List<String> refusals = new ArrayList<>(experimentRefusals(experiment));
    List<FaultSpec> specs = experiment.method().faults();
    for (int i = 0; i < specs.size(); i++) {
      try {
        FaultChecks.check(specs.get(i), experiment.blastRadius(), experiment.method().duration());
      } catch (FaultRefusedException e) {
        refusals.add(faultRefusal(i, specs.get(i), e));
      }
    }
    return List.copyOf(refusals);
  }

  private static String faultRefusal(int index, FaultSpec spec, FaultException e) {
    return "method.faults[" + index + "] (" + spec.kind() + "): " + e.getMessage();
  }

  /**
   * The refusals of the experiment as a whole: its durations, its abort section, its budget, its
   * queries.
   */
  private static List<String> experimentRefusals(Experiment experiment) {
    List<String> refusals = new ArrayList<>();
    BlastRadius blast = experiment.blastRadius();
    var method = experiment.method();
    if (method.duration().compareTo(blast.maxDuration()) > 0) {
      refusals.add(
          "method.duration "
              + Durations.format(method.duration())
              + " is above blast_radius.max_duration "
              + Durations.format(blast.maxDuration()));
    }
    if (experiment.steadyState().interval().compareTo(method.duration()) > 0) {
      refusals.add(
          "steady_state.interval "
              + Durations.format(experiment.steadyState().interval())
              + " is longer than method.duration "
              + Durations.format(method.duration())
              + ": no measurement would be taken while the faults are on");
    }
    if (experiment.abort().rules().isEmpty() && experiment.abort().burnRate().isEmpty()) {
      refusals.add("abort has neither rules nor burn_rate: nothing could stop the drill early");
    }
    budget(experiment).flatMap(ErrorBudget::refusal).ifPresent(refusals::add);
    refusals.addAll(QuerySyntax.problems(experiment));
    return refusals;
  }

  /** The budget needs an objective, which only the burn-rate guard gives. */
  public static Optional<ErrorBudget> budget(Experiment experiment) {
    BlastRadius blast = experiment.blastRadius();
    return experiment
        .abort()
        .burnRate()
        .map(
            guard ->
                new ErrorBudget(
                    guard.objective(),
                    guard.window(),
                    blast.trafficShare(),
                    experiment.method().duration(),
                    blast.budgetCeiling(),
                    OptionalDouble.empty()));
  }
}
