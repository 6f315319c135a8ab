package dev.firedrill.engine;

import dev.firedrill.fault.Fault;
import dev.firedrill.guard.ErrorBudget;
import java.util.List;
import java.util.Optional;

/** What a drill would do, found without side effects. Any refusal means nothing is executed. */
public record Plan(List<String> refusals, Optional<ErrorBudget> budget, List<PlannedFault> faults) {

  public Plan {
    refusals = List.copyOf(refusals);
    faults = List.copyOf(faults);
  }

  public boolean refused() {
    return !refusals.isEmpty();
  }

  /** A fault with the exact actions it would take; empty actions when its plan was refused. */
  public record PlannedFault(Fault fault, List<String> actions) {
    public PlannedFault {
      actions = List.copyOf(actions);
    }
  }
}
