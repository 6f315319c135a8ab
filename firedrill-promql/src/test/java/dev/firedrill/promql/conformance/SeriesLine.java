package dev.firedrill.promql.conformance;

import dev.firedrill.promql.model.LabelSet;
import dev.firedrill.promql.model.StaleNaN;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A series line of a test script, {@code metric{label="value"} 0+10x3 _ stale}: Prometheus's series
 * description. A value of null is an omitted sample ({@code _}) or, at an index set in {@code
 * histograms}, a native histogram sample ({@code {{...}}}), which this reader does not take apart.
 */
record SeriesLine(LabelSet labels, List<Double> values, BitSet histograms) {

  /** An offset of a {@code @st} line: one to six units, or a bare 0. */
  private static final String OFFSET = "(?:0|(?:\\d+(?:ms|[smhdwy]))+)";

  private static final Pattern ST_ITEM =
      Pattern.compile("([+-]?" + OFFSET + ")(?:([+-]" + OFFSET + "))?(?:x(\\d+))?");

  /** A line of floats only, as an eval's expectations are: a histogram sample is refused. */
  static SeriesLine parse(String line) {
    Cursor c = new Cursor(line.trim());
    LabelSet labels = c.metric();
    return new SeriesLine(labels, values(c.rest()), new BitSet());
  }

  /** A line of a load command, where native histogram samples may sit among the floats. */
  static SeriesLine parseLoad(String line) {
    Cursor c = new Cursor(line.trim());
    LabelSet labels = c.metric();
    List<Double> values = new ArrayList<>();
    BitSet histograms = new BitSet();
    for (String item : items(c.rest())) {
      if (!item.contains("{{")) {
        values.addAll(values(item));
        continue;
      }
      Matcher times = Pattern.compile("}}x(\\d+)$").matcher(item);
      int n = times.find() ? Integer.parseInt(times.group(1)) + 1 : 1;
      histograms.set(values.size(), values.size() + n);
      for (int k = 0; k < n; k++) {
        values.add(null);
      }
    }
    return new SeriesLine(labels, values, histograms);
  }

  /** Whether the line gives start timestamps ({@code metric{...}@st offsets}), as test.go asks. */
  static boolean isStartTimeLine(String line) {
    String t = line.trim();
    int space = t.indexOf(' ') < 0 ? t.indexOf('\t') : t.indexOf(' ');
    return space > 0 && t.substring(0, space).endsWith("@st");
  }

  /**
   * A {@code @st} line: the series and, per sample, the offset of its start timestamp from the
   * sample's own timestamp in milliseconds (null when omitted: no start timestamp).
   */
  static SeriesLine parseStartTimes(String line) {
    String t = line.trim();
    int at = t.indexOf("@st");
    LabelSet labels = new Cursor(t.substring(0, at)).metric();
    List<Double> offsets = new ArrayList<>();
    for (String item : t.substring(at + 3).trim().split("\\s+")) {
      if (item.equals("_")) {
        offsets.add(null);
      } else if (item.startsWith("_x")) {
        for (int k = Integer.parseInt(item.substring(2)); k > 0; k--) {
          offsets.add(null);
        }
      } else {
        Matcher m = ST_ITEM.matcher(item);
        if (!m.matches()) {
          throw new IllegalArgumentException("invalid start time offset " + item + " in " + line);
        }
        long offset = Duration.parseMillis(m.group(1).replace("+", ""));
        long delta = m.group(2) == null ? 0 : Duration.parseMillis(m.group(2).replace("+", ""));
        int n = m.group(3) == null ? 0 : Integer.parseInt(m.group(3));
        for (int k = 0; k <= n; k++) {
          offsets.add((double) (offset + k * delta));
        }
      }
    }
    return new SeriesLine(labels, offsets, new BitSet());
  }

  /** The space-separated items, a {@code {{...}}} item (spaces inside) kept whole. */
  private static List<String> items(String text) {
    List<String> items = new ArrayList<>();
    StringBuilder item = new StringBuilder();
    int depth = 0;
    for (int i = 0; i < text.length(); i++) {
      char ch = text.charAt(i);
      if (text.startsWith("{{", i)) {
        depth++;
      } else if (text.startsWith("}}", i) && depth > 0) {
        depth--;
        item.append("}}");
        i++;
        continue;
      }
      if (Character.isWhitespace(ch) && depth == 0) {
        if (item.length() > 0) {
          items.add(item.toString());
          item.setLength(0);
        }
        continue;
      }
      item.append(ch);
    }
    if (item.length() > 0) {
      items.add(item.toString());
    }
    return items;
  }

  /** The expanding notation: {@code a+bxn} is n+1 values from a, adding b each time, as Go adds. */
  static List<Double> values(String text) {
    List<Double> values = new ArrayList<>();
    for (String item : text.trim().split("\\s+")) {
      if (item.isEmpty()) {
        continue;
      }
      if (item.equals("_")) {
        values.add(null);
        continue;
      }
      if (item.startsWith("_x")) {
        int n = Integer.parseInt(item.substring(2));
        for (int i = 0; i < n; i++) {
          values.add(null);
        }
        continue;
      }
      Cursor c = new Cursor(item);
      double v = c.value();
      if (c.done()) {
        values.add(v);
        continue;
      }
      double delta = 0;
      if (c.peek() == '+' || c.peek() == '-') {
        delta = c.signedNumber();
      }
      c.expect('x');
      int n = Integer.parseInt(c.rest());
      for (int i = 0; i <= n; i++) {
        values.add(v);
        v += delta;
      }
    }
    return values;
  }

  /** Go's strconv.Unquote for a double-, single- or back-quoted string. */
  static String unquote(String quoted) {
    Cursor c = new Cursor(quoted);
    String s = c.quoted();
    if (!c.done()) {
      throw new IllegalArgumentException("text after the closing quote in " + quoted);
    }
    return s;
  }

  private static final class Cursor {
    private final String s;
    private int pos;

    Cursor(String s) {
      this.s = s;
    }

    boolean done() {
      return pos >= s.length();
    }

    char peek() {
      return s.charAt(pos);
    }

    String rest() {
      return s.substring(pos);
    }

    void expect(char ch) {
      if (done() || s.charAt(pos) != ch) {
        throw new IllegalArgumentException("expected '" + ch + "' at " + pos + " in " + s);
      }
      pos++;
    }

    void skipSpace() {
      while (!done() && Character.isWhitespace(peek())) {
        pos++;
      }
    }

    LabelSet metric() {
      LabelSet.Builder b = LabelSet.builder();
      String name = identifier();
      if (!name.isEmpty()) {
        b.set(LabelSet.METRIC_NAME, name);
      }
      if (!done() && peek() == '{') {
        pos++;
        while (true) {
          skipSpace();
          if (peek() == '}') {
            pos++;
            break;
          }
          String label = peek() == '"' ? quoted() : identifier();
          skipSpace();
          if (peek() == '=') {
            pos++;
            skipSpace();
            b.set(label, quoted());
          } else {
            b.set(LabelSet.METRIC_NAME, label);
          }
          skipSpace();
          if (peek() == ',') {
            pos++;
          }
        }
      } else if (name.isEmpty()) {
        throw new IllegalArgumentException("no series in " + s);
      }
      return b.build();
    }

    private String identifier() {
      int from = pos;
      while (!done() && (Character.isLetterOrDigit(peek()) || peek() == '_' || peek() == ':')) {
        pos++;
      }
      return s.substring(from, pos);
    }

    String quoted() {
      char q = s.charAt(pos++);
      if (q != '"' && q != '\'' && q != '`') {
        throw new IllegalArgumentException("expected a quoted string at " + (pos - 1) + " in " + s);
      }
      StringBuilder out = new StringBuilder();
      while (true) {
        char ch = s.charAt(pos++);
        if (ch == q) {
          return out.toString();
        }
        if (ch != '\\' || q == '`') {
          out.append(ch);
          continue;
        }
        char e = s.charAt(pos++);
        switch (e) {
          case 'n' -> out.append('\n');
          case 't' -> out.append('\t');
          case 'r' -> out.append('\r');
          case 'a' -> out.append('\007');
          case 'b' -> out.append('\b');
          case 'f' -> out.append('\f');
          case 'v' -> out.append('\013');
          case 'x' -> {
            out.append((char) Integer.parseInt(s.substring(pos, pos + 2), 16));
            pos += 2;
          }
          case 'u' -> {
            out.append((char) Integer.parseInt(s.substring(pos, pos + 4), 16));
            pos += 4;
          }
          case 'U' -> {
            out.appendCodePoint(Integer.parseInt(s.substring(pos, pos + 8), 16));
            pos += 8;
          }
          default -> {
            if (e >= '0' && e <= '7') {
              out.append((char) Integer.parseInt(s.substring(pos - 1, pos + 2), 8));
              pos += 2;
            } else {
              out.append(e);
            }
          }
        }
      }
    }

    /** A value: a number, signed or not, Inf, NaN or stale. */
    double value() {
      if (s.startsWith("stale", pos)) {
        pos += 5;
        return StaleNaN.VALUE;
      }
      if (peek() == '+' || peek() == '-') {
        return signedNumber();
      }
      return number();
    }

    double signedNumber() {
      char sign = s.charAt(pos++);
      double n = number();
      return sign == '-' ? -n : n;
    }

    private double number() {
      for (String word : new String[] {"Inf", "NaN"}) {
        if (s.regionMatches(true, pos, word, 0, 3)) {
          pos += 3;
          return word.equals("Inf") ? Double.POSITIVE_INFINITY : Double.NaN;
        }
      }
      int from = pos;
      while (!done() && (Character.isDigit(peek()) || peek() == '.')) {
        pos++;
      }
      if (!done() && (peek() == 'e' || peek() == 'E')) {
        pos++;
        if (!done() && (peek() == '+' || peek() == '-')) {
          pos++;
        }
        while (!done() && Character.isDigit(peek())) {
          pos++;
        }
      }
      if (from == pos) {
        throw new IllegalArgumentException("expected a number at " + pos + " in " + s);
      }
      return Double.parseDouble(s.substring(from, pos));
    }
  }
}
