package dev.firedrill.embedded.api;

import dev.firedrill.embedded.rules.snapshot.GroupSnapshot;
import dev.firedrill.embedded.rules.snapshot.RuleSnapshot;
import dev.firedrill.format.GoQuote;
import dev.firedrill.promql.model.LabelMatcher;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import java.util.Set;
import java.util.function.Function;

/**
 * Prometheus 3's parameters of {@code /api/v1/rules} that choose groups and rules: {@code
 * rule_group[]} and {@code file[]} pick groups, {@code rule_name[]} and {@code match[]} (series
 * selectors over a rule's own labels) pick rules, {@code exclude_alerts} drops the alerts, and
 * {@code group_limit} with {@code group_next_token} pages through the groups.
 */
record RuleFilter(
    Set<String> groupNames,
    Set<String> files,
    Set<String> ruleNames,
    List<List<LabelMatcher>> matchers,
    boolean excludeAlerts,
    int groupLimit,
    String nextToken) {

  /** Nothing filtered: every group, every rule, no pages (Prometheus 2.42 has none of these). */
  static final RuleFilter NONE =
      new RuleFilter(Set.of(), Set.of(), Set.of(), List.of(), false, 0, "");

  static RuleFilter of(Form form, Function<Form, List<List<LabelMatcher>>> matchers) {
    int limit = 0;
    String written = form.first("group_limit");
    if (!written.isEmpty()) {
      try {
        limit = Integer.parseInt(written);
      } catch (NumberFormatException e) {
        throw ApiError.invalidParameter(
            "group_limit",
            "group_limit needs to be a valid number: strconv.ParseInt: parsing "
                + GoQuote.of(written)
                + ": invalid syntax");
      }
      if (limit <= 0) {
        throw ApiError.invalidParameter("group_limit", "group_limit needs to be greater than 0");
      }
    }
    String token = form.first("group_next_token");
    if (!token.isEmpty() && limit == 0) {
      throw ApiError.invalidParameter(
          "group_next_token",
          "group_limit needs to be present in order to paginate over the groups");
    }
    return new RuleFilter(
        Set.copyOf(form.all("rule_group[]")),
        Set.copyOf(form.all("file[]")),
        Set.copyOf(form.all("rule_name[]")),
        matchers.apply(form),
        Boolean.parseBoolean(form.first("exclude_alerts"))
            || form.first("exclude_alerts").equals("1"),
        limit,
        token);
  }

  boolean keeps(GroupSnapshot group) {
    return (groupNames.isEmpty() || groupNames.contains(group.name()))
        && (files.isEmpty() || files.contains(group.file()));
  }

  boolean keeps(RuleSnapshot rule) {
    if (!ruleNames.isEmpty() && !ruleNames.contains(rule.name())) {
      return false;
    }
    if (matchers.isEmpty()) {
      return true;
    }
    // Any one selector whose every matcher holds on the rule's labels.
    return matchers.stream()
        .anyMatch(set -> set.stream().allMatch(m -> m.matches(rule.labels().get(m.name()))));
  }

  /** Prometheus's page token of a group: the hex SHA-1 of {@code file;name}. */
  static String token(GroupSnapshot group) {
    try {
      MessageDigest sha1 = MessageDigest.getInstance("SHA-1");
      return HexFormat.of()
          .formatHex(
              sha1.digest((group.file() + ";" + group.name()).getBytes(StandardCharsets.UTF_8)));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("the JDK has no SHA-1", e);
    }
  }
}
