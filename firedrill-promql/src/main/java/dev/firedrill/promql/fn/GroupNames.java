package dev.firedrill.promql.fn;

import java.util.ArrayList;
import java.util.List;

/**
 * The names of a Go regular expression's capturing groups, by group number (0, the whole match, and
 * unnamed groups have ""): Java learns no names from {@code (?P<name>...)}, which Go's {@code
 * Regexp.Expand} looks up.
 */
final class GroupNames {

  private GroupNames() {}

  static List<String> of(String re) {
    List<String> names = new ArrayList<>();
    names.add("");
    int i = 0;
    while (i < re.length()) {
      char c = re.charAt(i);
      if (c == '\\') {
        i = afterEscape(re, i);
      } else if (c == '[') {
        i = afterClass(re, i);
      } else if (c == '(') {
        if (re.startsWith("(?P<", i)) {
          int end = re.indexOf('>', i);
          names.add(end < 0 ? "" : re.substring(i + 4, end));
        } else if (!re.startsWith("(?", i)) {
          names.add("");
        }
        i++;
      } else {
        i++;
      }
    }
    return names;
  }

  /** {@code \Q...\E} quotes everything up to {@code \E}; any other escape is two characters. */
  private static int afterEscape(String re, int i) {
    if (re.startsWith("\\Q", i)) {
      int end = re.indexOf("\\E", i + 2);
      return end < 0 ? re.length() : end + 2;
    }
    return i + 2;
  }

  /**
   * A {@code ]} right after {@code [} or {@code [^} is a literal; {@code [:alpha:]} nests one
   * level.
   */
  private static int afterClass(String re, int i) {
    int j = i + 1;
    if (j < re.length() && re.charAt(j) == '^') {
      j++;
    }
    if (j < re.length() && re.charAt(j) == ']') {
      j++;
    }
    while (j < re.length()) {
      char c = re.charAt(j);
      if (c == ']') {
        return j + 1;
      }
      if (c == '\\') {
        j += 2;
      } else if (re.startsWith("[:", j) && re.indexOf(":]", j + 2) > 0) {
        j = re.indexOf(":]", j + 2) + 2;
      } else {
        j++;
      }
    }
    return j;
  }
}
