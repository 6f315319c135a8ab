package dev.firedrill.engine;

import dev.firedrill.alerting.AlertNews;
import dev.firedrill.alerting.AlertState;
import dev.firedrill.alerting.Detection;
import dev.firedrill.alerting.ObservabilityResult;
import dev.firedrill.experiment.BurnRateGuard;
import dev.firedrill.experiment.Control;
import dev.firedrill.experiment.Experiment;
import dev.firedrill.experiment.Sli;
import dev.firedrill.experiment.Targets;
import dev.firedrill.fault.Fault;
import dev.firedrill.fault.FaultException;
import dev.firedrill.fault.ProcessId;
import dev.firedrill.fault.TtlEnforcer;
import dev.firedrill.guard.AbortDecision;
import dev.firedrill.guard.AbortGuards;
import dev.firedrill.guard.ErrorBudget;
import dev.firedrill.guard.Measurement;
import dev.firedrill.guard.Reading;
import dev.firedrill.time.Clock;
import dev.firedrill.time.Durations;
import dev.firedrill.watchdog.DeadMansSwitch;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.stream.Collectors;

/**
 * One drill, phase by phase: plan, preflight, inject, observe, rollback (on every path), recover,
 * verdict. Time is read and waited for only through the clock port; the stop signal is polled every
 * {@link #POLL} while the faults are on and never during the rollback. Each step is reported once,
 * as a {@link Milestone}, to the journal and then to the ports' observer.
 */
public final class Drill {

  static final Duration POLL = Duration.ofMillis(200);

  private final Experiment experiment;
  private final DrillPorts ports;
  private final Clock clock;
  private final Journal journal;

  /**
   * The journal first, then the ports' observer: each milestone is journaled before anyone hears of
   * it.
   */
  private final DrillObserver observer;

  private final Rollback rollback;
  private final long startNanos;
  private final Instant start;
  private final List<Measurement> during = new ArrayList<>();
  private final List<Measurement> after = new ArrayList<>();
  private Instant injectedAt;

  /** What {@code {{ targets }}} stands for: the whole group until the faults selected theirs. */
  private Targets targets = Targets.BEFORE_INJECTION;

  private Optional<ObservabilityResult> observability = Optional.empty();
  private Optional<String> abortReason = Optional.empty();
  private int slowMeasurements;
  private Duration slowest = Duration.ZERO;

  public Drill(Experiment experiment, String sourceFile, DrillPorts ports) {
    this.experiment = experiment;
    this.ports = ports;
    this.clock = ports.clock();
    this.start = clock.now();
    this.startNanos = clock.nanoTime();
    this.journal = Journal.start(experiment, sourceFile, start);
    JournalRecorder recorder =
        new JournalRecorder(
            journal,
            ports.journalFile(),
            message ->
                ports
                    .observer()
                    .on(new Milestone.JournalUnwritable(message, clock.now(), offset())));
    this.observer = DrillObserver.composite(List.of(recorder, ports.observer()));
    // Through mark, not the observer: each step of the rollback renews the watchdog's lease too.
    this.rollback =
        new Rollback(
            clock,
            this::offset,
            this::mark,
            index -> ports.watchdog().ifPresent(watchdog -> watchdog.release(index)));
  }

  /** Runs the whole drill. Never throws for anything the drill itself can report. */
  public DrillResult run() {
    Plan plan = new Planner(ports.faults()).plan(experiment);
    mark(
        new Milestone.Planned(
            plan.faults().stream()
                .map(
                    planned ->
                        new Milestone.FaultActions(
                            planned.fault().spec(),
                            planned.actions(),
                            planned.fault().ttlEnforcer().words()))
                .toList(),
            plan.budget(),
            plan.refusals(),
            clock.now(),
            offset()));
    if (plan.refused()) {
      String reason = String.join("; ", plan.refusals());
      mark(new Milestone.Refused(reason, clock.now(), offset()));
      return result(Verdict.REFUSED, reason);
    }
    boolean interrupted = false;
    mark(new Milestone.DrillStarted(experiment, start, offset()));
    try {
      mark(new Milestone.PhaseStarted(Phase.PREFLIGHT, clock.now(), offset()));
      Optional<VerdictRules.Decision> early = preflight(plan);
      if (early.isPresent()) {
        return finish(early.get().verdict(), early.get().reason());
      }
      // Ctrl-C while preflight measured: the operator asked to stop before anything was broken.
      Optional<String> stop = ports.stop().requested();
      if (stop.isPresent()) {
        return finish(
            Verdict.NOT_RUN, "stopped before injection (" + stop.get() + "); nothing was injected");
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return finish(Verdict.NOT_RUN, "interrupted before injection; nothing was injected");
    } catch (RuntimeException e) {
      return finish(
          Verdict.INCONCLUSIVE,
          "internal error before injection (" + e + "); nothing was injected");
    }

    List<Fault> started = new ArrayList<>();
    Optional<String> injectFailure = Optional.empty();
    try {
      injectedAt = clock.now();
      mark(new Milestone.PhaseStarted(Phase.INJECT, injectedAt, offset()));
      for (int i = 0; i < plan.faults().size(); i++) {
        Plan.PlannedFault planned = plan.faults().get(i);
        Fault fault = planned.fault();
        started.add(fault);
        mark(
            new Milestone.FaultInjecting(
                i, fault.spec(), fault.stateBeforeInjection(), clock.now(), offset()));
        try {
          hold(i, fault);
          fault.inject();
        } catch (FaultException | RuntimeException e) {
          updateHold(i, fault);
          mark(injected(i, planned, Optional.of(String.valueOf(e.getMessage()))));
          throw e;
        }
        updateHold(i, fault);
        mark(injected(i, planned, Optional.empty()));
      }
      resolveTargets(started);
      mark(new Milestone.PhaseStarted(Phase.DURING, clock.now(), offset()));
      abortReason = observe().map(AbortDecision::reason);
    } catch (FaultException e) {
      injectFailure = Optional.of(e.getMessage());
    } catch (InterruptedException e) {
      interrupted = true;
      abortReason = Optional.of("interrupted");
    } catch (RuntimeException e) {
      abortReason = Optional.of("internal error while the faults were on: " + e);
    } finally {
      if (!targets.injected() && !started.isEmpty()) {
        // A half-done injection still selected what it selected: recovery reads that group.
        resolveTargets(started);
      }
      abortReason.ifPresent(reason -> mark(new Milestone.Aborted(reason, clock.now(), offset())));
      mark(new Milestone.PhaseStarted(Phase.ROLLBACK, clock.now(), offset()));
      rollback.revertAll(started);
      ports.watchdog().ifPresent(DeadMansSwitch::end);
      mark(new Milestone.RolledBack(clock.now(), offset()));
    }
    Optional<Duration> recoveredAfter = Optional.empty();
    Optional<String> internalError = Optional.empty();
    if (!interrupted) {
      try {
        recoveredAfter = recover();
      } catch (InterruptedException e) {
        interrupted = true;
      } catch (RuntimeException e) {
        internalError = Optional.of("internal error while measuring the recovery (" + e + ")");
      }
    }
    if (!interrupted && injectedAt != null && ports.detection().isPresent()) {
      try {
        awaitAlerts(ports.detection().get());
      } catch (InterruptedException e) {
        interrupted = true;
      } catch (RuntimeException e) {
        internalError = Optional.of("internal error while waiting for alerts (" + e + ")");
      }
    }
    if (internalError.isPresent()) {
      // The rollback ran and was verified above: the drill still ends with a verdict.
      return finish(
          Verdict.INCONCLUSIVE, internalError.get() + "; the faults were rolled back" + slowNote());
    }
    VerdictRules.Decision decision =
        new VerdictRules(experiment.steadyState())
            .decide(
                new VerdictRules.Evidence(
                    start,
                    injectFailure,
                    abortReason,
                    during,
                    after,
                    recoveredAfter,
                    experiment.hypothesis().recovery(),
                    rollback.unrecovered()));
    DrillResult result = finish(decision.verdict(), decision.reason() + slowNote());
    if (interrupted) {
      Thread.currentThread().interrupt();
    }
    return result;
  }

  /** The start of the reason when preflight could not measure the steady state at all. */
  static final String PREFLIGHT_UNMEASURED =
      "the steady state could not be measured (a problem of the drill's"
          + " queries or of its Prometheus, not of the system), nothing was injected: ";

  /** Inconclusive before injection: the readings of {@code status} say why, then {@code hint}. */
  private static VerdictRules.Decision unmeasured(
      Measurement before, Reading.Status status, String hint) {
    return new VerdictRules.Decision(
        Verdict.INCONCLUSIVE,
        PREFLIGHT_UNMEASURED
            + before
                .readings()
                .filter(r -> r.status() == status)
                .map(Reading::text)
                .collect(Collectors.joining(", "))
            + hint);
  }

  private Optional<VerdictRules.Decision> preflight(Plan plan) throws InterruptedException {
    announceTargets();
    Instant measuring = clock.now();
    Measurement before = ports.measurer().measure(targets);
    record(Phase.PREFLIGHT, measuring, before);
    if (before.hasProbeError()) {
      // A query Prometheus refuses, several series, a wrong URL, a host that does not resolve, an
      // answer that is not Prometheus's API: the drill's own making, which says nothing about the
      // system's health.
      return Optional.of(unmeasured(before, Reading.Status.ERROR, ""));
    }
    if (before.readings().noneMatch(r -> r.status() == Reading.Status.BREACH)
        && before.readings().anyMatch(r -> r.status() == Reading.Status.NO_DATA)) {
      // An SLI that matches no series before anything broke is nearly always a wrong metric or
      // label name, or a target Prometheus does not scrape: not a sick system.
      return Optional.of(
          unmeasured(
              before,
              Reading.Status.NO_DATA,
              "; check its metric and label names against Prometheus"));
    }
    if (!before.withinSteadyState()) {
      return Optional.of(
          new VerdictRules.Decision(
              Verdict.NOT_RUN,
              "outside steady state before injection, nothing was injected: " + before.text()));
    }
    if (ports.detection().isPresent()) {
      Optional<Detection.PreflightProblem> problem = ports.detection().get().preflight();
      if (problem.isPresent()) {
        return Optional.of(
            new VerdictRules.Decision(
                problem.get().inputError() ? Verdict.REFUSED : Verdict.NOT_RUN,
                problem.get().reason()));
      }
      Optional<String> intervals = ports.detection().get().intervals();
      if (intervals.isPresent()) {
        mark(new Milestone.DetectionIntervals(intervals.get(), clock.now(), offset()));
      }
    }
    if (plan.budget().isPresent()) {
      Optional<Reading> remaining = ports.measurer().remainingBudget();
      if (remaining.isPresent()) {
        Reading reading = remaining.get();
        // No data, an error, or a share outside 0..1 (a query in percent, say): no budget to trust.
        if (reading.status() != Reading.Status.OK) {
          return Optional.of(
              new VerdictRules.Decision(
                  Verdict.INCONCLUSIVE,
                  "the remaining error budget could not be measured, nothing was injected: "
                      + reading.text()));
        }
        ErrorBudget budget = plan.budget().get().withRemainingShare(reading.value().getAsDouble());
        mark(new Milestone.BudgetChecked(budget, clock.now(), offset()));
        Optional<String> refusal = budget.refusal();
        if (refusal.isPresent()) {
          return Optional.of(new VerdictRules.Decision(Verdict.REFUSED, refusal.get()));
        }
      }
    }
    return Optional.empty();
  }

  /** The names every started fault selected become what {@code {{ targets }}} stands for. */
  private void resolveTargets(List<Fault> started) {
    targets = Targets.of(started.stream().flatMap(fault -> fault.selected().stream()).toList());
    announceTargets();
  }

  /** Journals the queries as run, when some SLI query has {@code {{ targets }}}. */
  private void announceTargets() {
    List<Milestone.QueriesAsRun> queries = new ArrayList<>();
    boolean used = false;
    for (Sli sli : experiment.steadyState().slis()) {
      Optional<String> control = sli.control().map(Control::query);
      used |= Targets.uses(sli.query()) || control.map(Targets::uses).orElse(false);
      queries.add(
          new Milestone.QueriesAsRun(
              sli.name(), targets.resolve(sli.query()), control.map(targets::resolve)));
    }
    if (used) {
      mark(
          new Milestone.TargetsResolved(
              targets.injected(), targets.names(), queries, clock.now(), offset()));
    }
  }

  /**
   * Measures on the schedule {@code begin + k * interval} until the method's duration ends or an
   * abort condition holds. The end is checked before every measurement, so a slow Prometheus can
   * neither keep the faults on for ever nor push the schedule back: slots missed while a slow
   * measurement ran are skipped, and a measurement that would, at the pace of the last one, end
   * after the method is not started.
   */
  private Optional<AbortDecision> observe() throws InterruptedException {
    AbortGuards guards = new AbortGuards(experiment.abort(), experiment.steadyState());
    long interval = experiment.steadyState().interval().toNanos();
    long begin = clock.nanoTime();
    long end = begin + experiment.method().duration().toNanos();
    long next = begin + interval;
    long lastTook = 0;
    while (true) {
      Optional<String> stop = ports.stop().requested();
      if (stop.isPresent()) {
        return Optional.of(new AbortDecision(stop.get()));
      }
      long now = clock.nanoTime();
      if (now >= next && next <= end && now + lastTook > end) {
        next = Long.MAX_VALUE;
      } else if (now >= next && next <= end) {
        Instant measuring = clock.now();
        Measurement measurement = ports.measurer().measure(targets);
        lastTook = clock.nanoTime() - now;
        during.add(measurement);
        record(Phase.DURING, measuring, measurement);
        noteIfSlow(Phase.DURING, lastTook);
        pollAlerts();
        Optional<AbortDecision> decision = guards.check(during);
        if (decision.isPresent()) {
          return decision;
        }
        long after = clock.nanoTime();
        next += interval;
        if (next < after) {
          // The slots that passed while it ran are skipped; one falling due just as it ended is
          // not missed (a measurement as long as the interval is not slow, and loses nothing).
          next += (after - next + interval - 1) / interval * interval;
        }
        continue;
      }
      if (now >= end) {
        return Optional.empty();
      }
      clock.sleep(Duration.ofNanos(Math.min(POLL.toNanos(), Math.min(next, end) - now)));
    }
  }

  /** A measurement slower than the interval is journaled and counted for the verdict. */
  private void noteIfSlow(Phase phase, long tookNanos) {
    Duration interval = experiment.steadyState().interval();
    if (tookNanos <= interval.toNanos()) {
      return;
    }
    Duration took = Duration.ofNanos(tookNanos);
    slowMeasurements++;
    if (took.compareTo(slowest) > 0) {
      slowest = took;
    }
    mark(new Milestone.SlowMeasurement(phase, took, interval, clock.now(), offset()));
  }

  /**
   * What the verdict adds when Prometheus was slower than the interval: empty when it never was.
   */
  private String slowNote() {
    if (slowMeasurements == 0) {
      return "";
    }
    return "; Prometheus was slow: "
        + slowMeasurements
        + " of "
        + (during.size() + after.size())
        + " measurements took longer than the "
        + Durations.format(experiment.steadyState().interval())
        + " interval (the slowest "
        + Durations.seconds(slowest)
        + "), so fewer were taken than planned";
  }

  /** Measures until one measurement is fully within steady state or the recovery time runs out. */
  private Optional<Duration> recover() throws InterruptedException {
    mark(new Milestone.PhaseStarted(Phase.AFTER, clock.now(), offset()));
    long rolledBack = clock.nanoTime();
    long limit = rolledBack + experiment.hypothesis().recovery().toNanos();
    Duration interval = experiment.steadyState().interval();
    while (true) {
      Instant measuring = clock.now();
      long measuringNanos = clock.nanoTime();
      Measurement measurement = ports.measurer().measure(targets);
      after.add(measurement);
      record(Phase.AFTER, measuring, measurement);
      noteIfSlow(Phase.AFTER, clock.nanoTime() - measuringNanos);
      pollAlerts();
      long now = clock.nanoTime();
      if (measurement.withinSteadyState()) {
        Duration took = Duration.ofNanos(now - rolledBack);
        mark(new Milestone.Recovered(took, clock.now(), offset()));
        return Optional.of(took);
      }
      if (now >= limit) {
        return Optional.empty();
      }
      clock.sleep(Duration.ofNanos(Math.min(interval.toNanos(), limit - now)));
    }
  }

  private void pollAlerts() {
    ports.detection().ifPresent(detection -> detection.poll(alertNews));
  }

  /** What detection finds, as milestones; its times count from the injection. */
  private final AlertNews alertNews =
      new AlertNews() {
        @Override
        public void state(
            String alert,
            AlertState state,
            Optional<AlertState> previous,
            Optional<Instant> activeAt) {
          mark(
              new Milestone.AlertStateChanged(
                  alert, state, previous, activeAt, injectedAt, clock.now(), offset()));
        }

        @Override
        public void routed(String alert, Instant startsAt, List<String> receivers) {
          mark(
              new Milestone.AlertRouted(
                  alert, startsAt, receivers, injectedAt, clock.now(), offset()));
        }

        @Override
        public void notified(String alert, String receiver, Instant receivedAt, Instant startsAt) {
          mark(
              new Milestone.AlertNotified(
                  alert, receiver, receivedAt, startsAt, injectedAt, clock.now(), offset()));
        }
      };

  /**
   * An alert may fire after the fault is gone: keep watching until each expectation's window since
   * injection has passed, or nothing is left to learn. A stop request ends the wait.
   */
  private void awaitAlerts(Detection detection) throws InterruptedException {
    mark(new Milestone.PhaseStarted(Phase.DETECT, clock.now(), offset()));
    Instant deadline = detection.deadline(injectedAt);
    long interval = experiment.steadyState().interval().toNanos();
    long next = clock.nanoTime();
    while (true) {
      if (clock.nanoTime() >= next) {
        pollAlerts();
        next = clock.nanoTime() + interval;
      }
      Instant now = clock.now();
      if (detection.settled(injectedAt, now)
          || !now.isBefore(deadline)
          || ports.stop().requested().isPresent()) {
        return;
      }
      long untilDeadline = Duration.between(now, deadline).toNanos();
      clock.sleep(
          Duration.ofNanos(
              Math.max(
                  1, Math.min(POLL.toNanos(), Math.min(next - clock.nanoTime(), untilDeadline)))));
    }
  }

  private DrillResult finish(Verdict verdict, String reason) {
    if (injectedAt != null && ports.detection().isPresent()) {
      Detection detection = ports.detection().get();
      ObservabilityResult result =
          ObservabilityResult.of(detection.rows(injectedAt, measuredErrorRatio(detection)));
      observability = Optional.of(result);
      mark(new Milestone.AlertsJudged(result, clock.now(), offset()));
    }
    mark(
        new Milestone.DrillFinished(
            verdict, reason, abortReason, rollback.manualCommands(), clock.now(), offset()));
    return result(verdict, reason);
  }

  private OptionalDouble measuredErrorRatio(Detection detection) {
    Optional<BurnRateGuard> guard = experiment.abort().burnRate();
    return MeasuredEffect.errorRatio(
        during, guard, injectedAt, guard.flatMap(g -> detection.window(g.errorRatioQuery())));
  }

  private DrillResult result(Verdict verdict, String reason) {
    return new DrillResult(
        verdict,
        reason,
        rollback.manualCommands().isEmpty(),
        rollback.manualCommands(),
        journal,
        observability);
  }

  /**
   * The fault's state is read after the injection, failed or not: a half-started fault needs it to
   * be undone.
   */
  private Milestone.FaultInjected injected(
      int index, Plan.PlannedFault planned, Optional<String> failure) {
    return new Milestone.FaultInjected(
        index,
        planned.fault().spec(),
        planned.actions(),
        planned.fault().state(),
        failure,
        planned.fault().selected(),
        clock.now(),
        offset());
  }

  /**
   * Before a watchdog-enforced fault is injected, the watchdog holds it (and starts, at the first);
   * without a watchdog such a fault is not injected at all.
   */
  private void hold(int index, Fault fault) throws FaultException {
    if (fault.ttlEnforcer() != TtlEnforcer.WATCHDOG) {
      return;
    }
    if (ports.watchdog().isEmpty()) {
      throw new FaultException(
          fault.spec().kind()
              + ": its ttl is enforced by the watchdog, and this drill has none"
              + " (the watchdog's files sit beside the journal: run with a journal)");
    }
    DeadMansSwitch watchdog = ports.watchdog().get();
    Optional<ProcessId> started = watchdog.hold(index, fault);
    if (started.isPresent()) {
      mark(
          new Milestone.WatchdogStarted(
              started.get(), watchdog.files(), watchdog.grace(), clock.now(), offset()));
    }
  }

  /** The watchdog reverts what really started: the fault's state after its injection. */
  private void updateHold(int index, Fault fault) {
    ports.watchdog().ifPresent(watchdog -> watchdog.update(index, fault));
  }

  private void record(Phase phase, Instant measuring, Measurement measurement) {
    mark(new Milestone.Measured(phase, measuring, measurement, clock.now(), offset()));
  }

  /**
   * Every milestone renews the watchdog's lease: each measurement, and each step of a long
   * rollback, so the watchdog never races firedrill's own revert while firedrill still works.
   */
  private void mark(Milestone milestone) {
    ports.watchdog().ifPresent(DeadMansSwitch::renew);
    observer.on(milestone);
  }

  private Duration offset() {
    return Duration.ofNanos(clock.nanoTime() - startNanos);
  }
}
