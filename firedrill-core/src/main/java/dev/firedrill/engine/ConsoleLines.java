package dev.firedrill.engine;

import java.util.Objects;
import java.util.function.Consumer;

/**
 * The console of a drill: each milestone's lines ({@link MilestoneText#console}), handed on one by
 * one.
 */
public final class ConsoleLines implements DrillObserver {

  private final Consumer<String> out;

  public ConsoleLines(Consumer<String> out) {
    this.out = Objects.requireNonNull(out, "out");
  }

  @Override
  public void on(Milestone milestone) {
    MilestoneText.console(milestone).forEach(out);
  }
}
