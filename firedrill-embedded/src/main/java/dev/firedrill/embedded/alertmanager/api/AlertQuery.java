package dev.firedrill.embedded.alertmanager.api;

import dev.firedrill.alerting.routes.MatchType;
import dev.firedrill.alerting.routes.Matcher;
import dev.firedrill.regex.GoRegex;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The parameters of {@code GET /api/v2/alerts}: {@code filter} matchers (repeatable), {@code
 * receiver} (a regular expression, anchored), and {@code active}, {@code silenced}, {@code
 * inhibited}, {@code unprocessed} (true unless given otherwise). The embedded Alertmanager has no
 * silences or inhibitions, so every alert it holds is active: {@code active=false} leaves none, and
 * the other three change nothing ({@code unprocessed} changes nothing in Alertmanager 0.25 either).
 */
record AlertQuery(List<Matcher> filter, Optional<Pattern> receiver, boolean active) {

  /** go-openapi's {@code swag.ConvertBool}: these are true, anything else false. */
  private static final Set<String> TRUE =
      Set.of("true", "1", "yes", "ok", "y", "on", "selected", "checked", "t", "enabled");

  static AlertQuery of(Map<String, List<String>> parameters) throws ApiError {
    List<Matcher> filter = new ArrayList<>();
    for (String text : parameters.getOrDefault("filter", List.of())) {
      try {
        filter.add(Matcher.parse(text));
      } catch (IllegalArgumentException e) {
        throw ApiError.plain(400, e.getMessage());
      }
    }
    Optional<Pattern> receiver = Optional.empty();
    List<String> receivers = parameters.getOrDefault("receiver", List.of());
    if (!receivers.isEmpty()) {
      try {
        receiver = Optional.of(GoRegex.compileAnchored(receivers.get(0)));
      } catch (IllegalArgumentException e) {
        throw ApiError.plain(400, "failed to parse receiver param: " + e.getMessage());
      }
    }
    List<String> active = parameters.getOrDefault("active", List.of());
    return new AlertQuery(
        filter, receiver, active.isEmpty() || TRUE.contains(active.get(0).toLowerCase()));
  }

  boolean receiverMatches(List<String> names) {
    return receiver.isEmpty() || names.stream().anyMatch(n -> receiver.get().matcher(n).matches());
  }

  /**
   * Alertmanager's {@code matchFilterLabels}: an empty value matches a missing label, a negated one
   * a present label.
   */
  boolean labelsMatch(Map<String, String> labels) {
    for (Matcher matcher : filter) {
      String value = labels.get(matcher.name());
      boolean negated =
          matcher.type() == MatchType.NOT_EQUAL || matcher.type() == MatchType.NOT_REGEXP;
      if (matcher.value().isEmpty() && (negated ? value != null : value == null)) {
        continue;
      }
      if (!matcher.matches(value == null ? "" : value)) {
        return false;
      }
    }
    return true;
  }
}
