package dev.firedrill.embedded;

import dev.firedrill.embedded.drive.Recurring;
import dev.firedrill.embedded.rules.RuleManager;
import dev.firedrill.embedded.rules.snapshot.GroupSnapshot;
import dev.firedrill.promconfig.Config;
import dev.firedrill.promconfig.RuleFileGlob;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * A rule manager's groups as work a driver runs, real-time or virtual: due at the earliest group's
 * next evaluation, and each run evaluates every group then due.
 */
public final class RuleEvaluations implements Recurring {

  private final RuleManager manager;

  public RuleEvaluations(RuleManager manager) {
    this.manager = manager;
  }

  /** The files a configuration's {@code rule_files} patterns match, in pattern order. */
  public static List<Path> ruleFiles(Config config) {
    List<Path> files = new ArrayList<>();
    for (String pattern : config.ruleFiles()) {
      try {
        files.addAll(RuleFileGlob.expand(pattern));
      } catch (IOException e) {
        throw new IllegalArgumentException(
            config.source() + ": rule_files " + pattern + ": cannot list: " + e.getMessage(), e);
      }
    }
    return files;
  }

  @Override
  public String name() {
    return "rule groups";
  }

  /**
   * Before the manager's first evaluation it has no schedule: that evaluation, at {@code t}, makes
   * it.
   */
  @Override
  public Instant nextAtOrAfter(Instant t) {
    long next = manager.nextDueMs();
    if (next == Long.MIN_VALUE) {
      return t;
    }
    return next == Long.MAX_VALUE
        ? Instant.MAX
        : Instant.ofEpochMilli(Math.max(next, t.toEpochMilli()));
  }

  @Override
  public void run(Instant at) {
    manager.evaluateDue(at.toEpochMilli());
  }

  /** The groups as {@code /api/v1/rules} reports them. */
  public List<GroupSnapshot> groups() {
    return manager.groups();
  }
}
