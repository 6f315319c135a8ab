package dev.firedrill.simulate;

import dev.firedrill.embedded.drive.Recurring;
import dev.firedrill.embedded.rules.RuleManager;
import dev.firedrill.embedded.rules.snapshot.GroupSnapshot;
import java.time.Instant;
import java.util.List;

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

  List<GroupSnapshot> status() {
    return manager.groups();
  }
}
