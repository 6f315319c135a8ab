package dev.firedrill.cli;

import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Verdict colours: green for a result that held, red for one that broke, yellow for one that proves
 * nothing. Only on a terminal (a console, TERM not dumb), never with NO_COLOR set
 * (https://no-color.org) or --no-color, so pipes and files get plain words.
 */
record Colour(boolean on) {

  private static final Set<String> GOOD = Set.of("held", "ok", "valid", "clean");
  private static final Set<String> BAD =
      Set.of("deviated", "aborted", "failed", "refused", "breach", "error", "regression");
  private static final Set<String> UNSURE = Set.of("inconclusive", "not-run", "no-data");

  static Colour of(boolean noColor, boolean console, Map<String, String> env) {
    String term = env.getOrDefault("TERM", "");
    return new Colour(
        !noColor
            && console
            && !term.isEmpty()
            && !"dumb".equals(term)
            && !env.containsKey("NO_COLOR"));
  }

  /** For this process's stdout. */
  static Colour of(boolean noColor) {
    return of(noColor, System.console() != null, System.getenv());
  }

  /** {@code word} in its verdict's colour, or as it is. */
  String verdict(String word) {
    if (!on) {
      return word;
    }
    String key = word.toLowerCase(Locale.ROOT);
    String code =
        GOOD.contains(key) ? "32" : BAD.contains(key) ? "31" : UNSURE.contains(key) ? "33" : null;
    return code == null ? word : "\u001b[" + code + "m" + word + "\u001b[0m";
  }
}
