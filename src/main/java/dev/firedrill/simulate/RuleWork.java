package dev.firedrill.simulate;

import dev.firedrill.embedded.api.RuleGroupStatus;
import dev.firedrill.embedded.drive.Recurring;
import dev.firedrill.embedded.rules.RuleManager;
import dev.firedrill.embedded.rules.snapshot.AlertSnapshot;
import dev.firedrill.embedded.rules.snapshot.GroupSnapshot;
import dev.firedrill.embedded.rules.snapshot.RuleSnapshot;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/** The rule manager as the virtual driver runs it, and its groups as the API reports them. */
final class RuleWork implements Recurring {

  private final RuleManager manager;

  /** Schedules every group from {@code now}, as a Prometheus starting then would. */
  RuleWork(RuleManager manager, Instant now) {
    this.manager = manager;
    manager.evaluateDue(now.toEpochMilli());
  }

  @Override
  public String name() {
    return "rule groups";
  }

  @Override
  public Instant nextAtOrAfter(Instant t) {
    long next = manager.nextDueMs();
    return next == Long.MAX_VALUE ? Instant.MAX : Instant.ofEpochMilli(Math.max(next, t.toEpochMilli()));
  }

  @Override
  public void run(Instant at) {
    manager.evaluateDue(at.toEpochMilli());
  }

  List<RuleGroupStatus> status() {
    return manager.groups().stream().map(RuleWork::status).toList();
  }

  private static RuleGroupStatus status(GroupSnapshot group) {
    return new RuleGroupStatus(group.name(), group.file(), seconds(group.interval()), group.limit(),
        seconds(group.evaluationTime()), group.lastEvaluation(), group.rules().stream().map(RuleWork::rule).toList());
  }

  private static RuleGroupStatus.Rule rule(RuleSnapshot rule) {
    RuleGroupStatus.Health health = RuleGroupStatus.Health.valueOf(rule.health().toUpperCase(Locale.ROOT));
    Optional<String> error = rule.lastError() == null || rule.lastError().isEmpty() ? Optional.empty()
        : Optional.of(rule.lastError());
    if (rule instanceof RuleSnapshot.Alerting a) {
      return new RuleGroupStatus.Alerting(a.name(), a.query(), seconds(a.duration()), seconds(a.keepFiringFor()),
          a.labels(), a.annotations(), state(a.state()), a.alerts().stream().map(RuleWork::alert).toList(), health,
          error, seconds(a.evaluationTime()), a.lastEvaluation());
    }
    return new RuleGroupStatus.Recording(rule.name(), rule.query(), rule.labels(), health, error,
        seconds(rule.evaluationTime()), rule.lastEvaluation());
  }

  private static RuleGroupStatus.Alert alert(AlertSnapshot alert) {
    return new RuleGroupStatus.Alert(alert.labels(), alert.annotations(), state(alert.state()),
        alert.activeAt().orElse(Instant.EPOCH), alert.keepFiringSince(), Double.parseDouble(alert.value()));
  }

  private static RuleGroupStatus.State state(String state) {
    return RuleGroupStatus.State.valueOf(state.toUpperCase(Locale.ROOT));
  }

  private static Duration seconds(double seconds) {
    return Duration.ofNanos(Math.round(seconds * 1e9));
  }
}
