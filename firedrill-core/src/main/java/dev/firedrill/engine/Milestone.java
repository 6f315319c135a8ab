package dev.firedrill.engine;

import dev.firedrill.alerting.AlertState;
import dev.firedrill.alerting.ObservabilityResult;
import dev.firedrill.experiment.Experiment;
import dev.firedrill.experiment.FaultSpec;
import dev.firedrill.fault.ProcessId;
import dev.firedrill.guard.ErrorBudget;
import dev.firedrill.guard.Measurement;
import dev.firedrill.watchdog.WatchdogFiles;
import java.time.Duration;
import java.time.Instant;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * What a drill did, as data: the one report of each step, for the journal, the console, the live
 * status and the sinks that mark the experiment in other signals (annotations, gauges, spans,
 * logs). Each carries the instant it happened on the drill's clock ({@code at}) and how long after
 * the drill began ({@code offset}, on the clock's monotonic time: what the console prints as {@code
 * +12.0s}).
 *
 * <p>{@link Planned} always comes first. A refused plan ends with {@link Refused}; every other
 * drill goes on with {@link DrillStarted} and ends with {@link DrillFinished}.
 */
public sealed interface Milestone {

  Instant at();

  Duration offset();

  /**
   * The plan, found without side effects: each fault's exact actions, the error budget, any
   * refusals.
   */
  record Planned(
      List<FaultActions> faults,
      Optional<ErrorBudget> budget,
      List<String> refusals,
      Instant at,
      Duration offset)
      implements Milestone {
    public Planned {
      faults = List.copyOf(faults);
      budget = budget == null ? Optional.empty() : budget;
      refusals = List.copyOf(refusals);
    }
  }

  /** What one planned fault would do. */
  /** {@code ttlEnforcedBy}: what ends the fault at its ttl, in {@code TtlEnforcer.words()}. */
  record FaultActions(FaultSpec spec, List<String> actions, String ttlEnforcedBy) {
    public FaultActions {
      actions = List.copyOf(actions);
    }
  }

  /** The plan was refused: the drill ends here, nothing was measured or injected. */
  record Refused(String reason, Instant at, Duration offset) implements Milestone {}

  /** The drill began; nothing is injected yet. */
  record DrillStarted(Experiment experiment, Instant at, Duration offset) implements Milestone {
    public DrillStarted {
      Objects.requireNonNull(experiment, "experiment");
    }
  }

  /** The drill entered a phase; the previous phase ends here. */
  record PhaseStarted(Phase phase, Instant at, Duration offset) implements Milestone {}

  /**
   * One measurement, taken between {@code startedAt} and {@code at}; its readings carry value,
   * range and status, and those with status breach are the guard breaches.
   */
  record Measured(
      Phase phase, Instant startedAt, Measurement measurement, Instant at, Duration offset)
      implements Milestone {}

  /**
   * A measurement took {@code took}, longer than the steady state's {@code interval}: Prometheus
   * answered slowly; the measurements that fell due meanwhile were skipped to keep the schedule.
   */
  record SlowMeasurement(Phase phase, Duration took, Duration interval, Instant at, Duration offset)
      implements Milestone {}

  /**
   * Before injection: the expected alerts are defined and quiet; the intervals their floors use and
   * whence.
   */
  record DetectionIntervals(String text, Instant at, Duration offset) implements Milestone {}

  /** Before injection: the error budget with the share that remains of it now. */
  record BudgetChecked(ErrorBudget budget, Instant at, Duration offset) implements Milestone {}

  /**
   * Fault {@code index} (in the experiment's order) is about to be injected; {@code state} is what
   * it will create as far as it knows before it starts (a toxic's name, the processes a STOP will
   * pause, a cpu-burn worker's tag), journaled first so a cleanup after a kill mid-inject finds it.
   */
  record FaultInjecting(
      int index, FaultSpec spec, Optional<Map<String, Object>> state, Instant at, Duration offset)
      implements Milestone {
    public FaultInjecting {
      // A fault's state may hold nulls, which Map.copyOf refuses.
      state = state.map(known -> Collections.unmodifiableMap(new LinkedHashMap<>(known)));
    }

    /** With nothing known before the injection. */
    public FaultInjecting(int index, FaultSpec spec, Instant at, Duration offset) {
      this(index, spec, Optional.empty(), at, offset);
    }
  }

  /**
   * Fault {@code index} is on, having taken its planned {@code actions}, or its injection failed
   * with {@code failure}; {@code state} is what a later cleanup needs to revert it, {@code
   * selected} the names it chose (pods), for the markers and {@code {{ targets }}}.
   */
  record FaultInjected(
      int index,
      FaultSpec spec,
      List<String> actions,
      Map<String, Object> state,
      Optional<String> failure,
      List<String> selected,
      Instant at,
      Duration offset)
      implements Milestone {
    public FaultInjected {
      actions = List.copyOf(actions);
      selected = List.copyOf(selected);
      // A fault's state may hold nulls, which Map.copyOf refuses.
      state = Collections.unmodifiableMap(new LinkedHashMap<>(state));
      failure = failure == null ? Optional.empty() : failure;
    }

    public boolean applied() {
      return failure.isEmpty();
    }
  }

  /**
   * What {@code {{ targets }}} stands for from here on ({@code names}, the faults' selection once
   * {@code injected}; the whole group before) and each SLI's queries as they are run with it.
   */
  record TargetsResolved(
      boolean injected, List<String> names, List<QueriesAsRun> queries, Instant at, Duration offset)
      implements Milestone {
    public TargetsResolved {
      names = List.copyOf(names);
      queries = List.copyOf(queries);
    }
  }

  /** One SLI's query and control query after substitution. */
  record QueriesAsRun(String sli, String query, Optional<String> control) {}

  /**
   * An expected alert changed state while the drill watched: from {@code previous} (empty: first
   * seen in this drill) to {@code state}. {@code activeAt} is Prometheus's, where it reports one;
   * {@code injectedAt} is the instant the drill's "after injection" times count from.
   */
  record AlertStateChanged(
      String alert,
      AlertState state,
      Optional<AlertState> previous,
      Optional<Instant> activeAt,
      Instant injectedAt,
      Instant at,
      Duration offset)
      implements Milestone {
    public AlertStateChanged {
      Objects.requireNonNull(alert, "alert");
      Objects.requireNonNull(state, "state");
      previous = previous == null ? Optional.empty() : previous;
      activeAt = activeAt == null ? Optional.empty() : activeAt;
    }

    /** The alert became active here: first seen, or seen again after it had resolved. */
    public boolean activation() {
      return state != AlertState.RESOLVED
          && previous.map(p -> p == AlertState.RESOLVED).orElse(true);
    }
  }

  /**
   * Alertmanager holds an expected alert, started at {@code startsAt}, routed to {@code receivers}.
   */
  record AlertRouted(
      String alert,
      Instant startsAt,
      List<String> receivers,
      Instant injectedAt,
      Instant at,
      Duration offset)
      implements Milestone {
    public AlertRouted {
      receivers = List.copyOf(receivers);
    }
  }

  /** firedrill's webhook receiver got an expected alert's first firing notification. */
  record AlertNotified(
      String alert,
      String receiver,
      Instant receivedAt,
      Instant startsAt,
      Instant injectedAt,
      Instant at,
      Duration offset)
      implements Milestone {}

  /** The drill stops early; the rollback follows at once. */
  record Aborted(String reason, Instant at, Duration offset) implements Milestone {}

  /** Fault {@code index} is about to be reverted. */
  record FaultReverting(int index, FaultSpec spec, Instant at, Duration offset)
      implements Milestone {}

  /**
   * Fault {@code index} was reverted and verified gone after {@code attempts} ({@code detail} is
   * the verification), or still needs a human: then {@code detail} says why and {@code
   * manualCommand} what to run.
   */
  record FaultReverted(
      int index,
      FaultSpec spec,
      int attempts,
      String detail,
      Optional<String> manualCommand,
      Instant at,
      Duration offset)
      implements Milestone {
    public FaultReverted {
      manualCommand = manualCommand == null ? Optional.empty() : manualCommand;
    }

    public boolean reverted() {
      return manualCommand.isEmpty();
    }
  }

  /** Every started fault was reverted or given up on. */
  record RolledBack(Instant at, Duration offset) implements Milestone {}

  /**
   * After the rollback, a measurement was back within steady state {@code after} the rollback
   * began.
   */
  record Recovered(Duration after, Instant at, Duration offset) implements Milestone {}

  /** The expected alerts, judged: the detection table's rows and the observability verdict. */
  record AlertsJudged(ObservabilityResult result, Instant at, Duration offset)
      implements Milestone {}

  /**
   * The drill ended with its system verdict; {@code abortReason} is set when it was aborted, and
   * {@code manualCommands} holds the reverts that failed, for a human to run.
   */
  record DrillFinished(
      Verdict verdict,
      String reason,
      Optional<String> abortReason,
      List<String> manualCommands,
      Instant at,
      Duration offset)
      implements Milestone {
    public DrillFinished {
      abortReason = abortReason == null ? Optional.empty() : abortReason;
      manualCommands = List.copyOf(manualCommands);
    }

    public boolean rollbackOk() {
      return manualCommands.isEmpty();
    }
  }

  /**
   * The journal file could not be written ({@code message} says where and why); the drill goes on,
   * and this is said once. Only the observers hear it, not the journal.
   */
  record JournalUnwritable(String message, Instant at, Duration offset) implements Milestone {}

  /**
   * The watchdog started, at the first hold of a fault whose ttl it enforces: its process, the
   * files it shares with firedrill, and the lease's grace.
   */
  record WatchdogStarted(
      ProcessId process, WatchdogFiles files, Duration grace, Instant at, Duration offset)
      implements Milestone {}
}
