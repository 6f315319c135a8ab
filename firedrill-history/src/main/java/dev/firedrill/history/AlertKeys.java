package dev.firedrill.history;

import dev.firedrill.alerting.routes.MatchType;
import dev.firedrill.alerting.routes.Matcher;
import dev.firedrill.alerting.routes.MatcherSyntax;
import dev.firedrill.experiment.AlertExpectation;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * One spelling per alert: its name and its equality matchers, sorted and quoted as {@link
 * AlertExpectation#describe(String, Map)} writes them. {@code X{b="2", a='1'}}, {@code
 * X{a="1",b="2"}} and a key an older firedrill stored with other quoting are one alert, so its runs
 * are never split between rows of the history.
 */
public final class AlertKeys {

  /** A single-quoted value without quotes or escapes inside. */
  private static final Pattern SINGLE_QUOTED = Pattern.compile("'([^'\"\\\\]*)'");

  private AlertKeys() {}

  /**
   * The canonical key of {@code text} ({@code name} or {@code name{matchers}}); text that is not an
   * alert with equality matchers is returned as it is, to match nothing it should not.
   */
  public static String canonical(String text) {
    String trimmed = text.strip();
    int brace = trimmed.indexOf('{');
    if (brace < 0 || !trimmed.endsWith("}")) {
      return trimmed;
    }
    String name = trimmed.substring(0, brace).strip();
    List<Matcher> matchers;
    try {
      matchers =
          MatcherSyntax.FALLBACK.parseList(doubleQuoted(trimmed.substring(brace))).matchers();
    } catch (IllegalArgumentException e) {
      return trimmed;
    }
    Map<String, String> labels = new LinkedHashMap<>();
    for (Matcher m : matchers) {
      if (m.type() != MatchType.EQUAL || labels.put(m.name(), m.value()) != null) {
        return trimmed; // an expectation's matchers are label = value, each label once
      }
    }
    return AlertExpectation.describe(name, labels);
  }

  /** PromQL's single quotes, which Alertmanager's grammar lacks, as double quotes. */
  private static String doubleQuoted(String selector) {
    return SINGLE_QUOTED
        .matcher(selector)
        .replaceAll(m -> java.util.regex.Matcher.quoteReplacement('"' + m.group(1) + '"'));
  }
}
