package dev.firedrill.prometheus;

import java.time.Duration;
import java.util.List;
import java.util.Objects;

/** A rule group from {@code /api/v1/rules}: its evaluation interval and its rules in file order. */
public record RuleGroup(String name, String file, Duration interval, List<Rule> rules) {

  public RuleGroup {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(file, "file");
    Objects.requireNonNull(interval, "interval");
    rules = List.copyOf(rules);
  }
}
