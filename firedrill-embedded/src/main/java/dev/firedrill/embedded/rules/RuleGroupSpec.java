package dev.firedrill.embedded.rules;

import java.util.List;

/**
 * A rule group as its file defines it. {@code intervalMs} is 0 when the group takes the global
 * evaluation interval; {@code limit} 0 means no limit.
 */
public record RuleGroupSpec(
    String file, String name, long intervalMs, int limit, List<RuleSpec> rules) {

  public RuleGroupSpec {
    rules = List.copyOf(rules);
  }
}
