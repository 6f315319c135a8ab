package dev.firedrill.yaml;

import java.util.Collection;
import java.util.Locale;

/** The "did you mean" of every file firedrill reads: the nearest valid name by edit distance. */
public final class NearestName {

  private NearestName() {}

  /**
   * {@code did you mean "x"?} for the nearest candidate, or {@code otherwise} and all candidates.
   */
  public static String suggest(String value, Collection<String> candidates, String otherwise) {
    String nearest = null;
    int best = Integer.MAX_VALUE;
    String lower = value.toLowerCase(Locale.ROOT);
    for (String candidate : candidates) {
      int distance = distance(lower, candidate.toLowerCase(Locale.ROOT));
      if (distance < best) {
        best = distance;
        nearest = candidate;
      }
    }
    if (nearest != null && best <= Math.max(2, value.length() / 3)) {
      return "did you mean \"" + nearest + "\"?";
    }
    return otherwise + String.join(", ", candidates);
  }

  /** Levenshtein distance. */
  static int distance(String a, String b) {
    int[] previous = new int[b.length() + 1];
    int[] current = new int[b.length() + 1];
    for (int j = 0; j <= b.length(); j++) {
      previous[j] = j;
    }
    for (int i = 1; i <= a.length(); i++) {
      current[0] = i;
      for (int j = 1; j <= b.length(); j++) {
        int substitution = previous[j - 1] + (a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1);
        current[j] = Math.min(substitution, Math.min(previous[j], current[j - 1]) + 1);
      }
      int[] swap = previous;
      previous = current;
      current = swap;
    }
    return previous[b.length()];
  }
}
