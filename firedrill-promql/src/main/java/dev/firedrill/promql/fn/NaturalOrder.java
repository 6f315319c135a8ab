package dev.firedrill.promql.fn;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The natural order Prometheus 3's {@code sort_by_label} sorts label values in ({@code
 * github.com/facette/natsort}): runs of digits compare as integers, other runs as strings.
 */
public final class NaturalOrder {

  private static final Pattern CHUNK = Pattern.compile("\\d+|\\D+");

  private NaturalOrder() {}

  /** natsort.Compare: whether {@code a} sorts before {@code b} (true too when they are equal). */
  public static boolean before(String a, String b) {
    List<String> ca = chunks(a);
    List<String> cb = chunks(b);
    for (int i = 0; i < ca.size(); i++) {
      if (i >= cb.size()) {
        return false;
      }
      Long ia = integer(ca.get(i));
      Long ib = integer(cb.get(i));
      boolean equal = ia != null && ib != null ? ia.equals(ib) : ca.get(i).equals(cb.get(i));
      if (equal) {
        if (i == ca.size() - 1) {
          return true;
        } else if (i == cb.size() - 1) {
          return false;
        }
        continue;
      }
      return ia != null && ib != null ? ia < ib : ca.get(i).compareTo(cb.get(i)) < 0;
    }
    return false;
  }

  private static List<String> chunks(String s) {
    List<String> chunks = new ArrayList<>();
    Matcher m = CHUNK.matcher(s);
    while (m.find()) {
      chunks.add(m.group());
    }
    return chunks;
  }

  /** Go's strconv.Atoi of a run of digits: null when it overflows. */
  private static Long integer(String chunk) {
    if (chunk.isEmpty() || !Character.isDigit(chunk.charAt(0))) {
      return null;
    }
    try {
      return Long.parseLong(chunk);
    } catch (NumberFormatException e) {
      return null;
    }
  }
}
